// Package bench holds fastmcp's end-to-end benchmarks. It has no API.
//
// Each benchmark makes one JSON-RPC round trip, a call of "add", and runs
// it two ways on the same pipes: through a hand-written newline-delimited
// JSON-RPC loop (the floor: what the fastest code written for this one job
// costs) and through fastmcp's engine (a lowlevel.Server served over a
// transport.Stream, called by a session.Session). Engine results report
// their cost relative to the floor as the metric x-floor. Run them with
//
//	make bench
//
// or go test -run '^$' -bench . -benchmem ./bench.
package bench
