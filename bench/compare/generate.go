// Package compare is the whole-process comparison of fastmcp with a
// hand-written floor and the other Go MCP SDKs; see README.md. It has no
// API: its programs are cmd/driver and the servers under servers/.
package compare

//go:generate go run gen.go
