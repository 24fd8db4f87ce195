// Package fastmcptest tests fastmcp servers: it connects a client to a
// server in one call, in memory or over HTTP on 127.0.0.1, in either
// protocol era, and records or replays the JSON-RPC messages they exchange
// against golden files.
//
// # A client in one call
//
// NewClient serves a *fastmcp.Server over an in-memory connection and
// returns a connected *client.Client; both are closed when the test ends,
// and no goroutine is left behind (goleak-friendly):
//
//	func TestAdd(t *testing.T) {
//		c := fastmcptest.NewClient(t, newServer())
//		res, err := c.CallTool(t.Context(), "add", map[string]int{"a": 2, "b": 3})
//		...
//	}
//
// Options are the client's own (client.Option): pin the protocol era
// with client.WithProtocolVersion(fastmcptest.Legacy) (2025-11-25, with the
// initialize handshake and a session) or fastmcptest.Modern (2026-07-28,
// stateless; the default), and answer the server's requests with
// client.WithElicitation, WithSampling and WithRoots. Versions lists both
// eras, to run a test once in each.
//
// NewHTTPClient does the same over Streamable HTTP on a real socket, and
// NewHTTPServer gives the httptest.Server alone, for raw HTTP requests.
//
// # Golden transcripts
//
// Record is NewClient that also records every message, as the stdio
// transport would write it. Transcript.CheckGolden compares the recording
// with a golden file in testdata, or rewrites it when the test's -update
// flag is set; Transcript.Mask hides values that change from run to run.
//
// Replay plays a golden file back against a server, line by line, without
// a client: its client lines may be anything, malformed messages included,
// so it tests what a client library never sends. The format, shared by
// both, is a txtar archive whose comment names the revision ("revision:
// 2025-11-25") and whose file "wire" lists the messages, "> " for the
// client's and "< " for the server's:
//
//	Adding two numbers.
//
//	revision: 2025-11-25
//	-- wire --
//	> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{...}}
//	< {"jsonrpc":"2.0","id":1,"result":{...}}
//	> {"jsonrpc":"2.0","method":"notifications/initialized"}
//	# Comments and blank lines are kept.
//	> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}
//	< {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"5"}],...}}
//
// See docs/testing.md for unit-testing tool functions and testing a server
// as a subprocess.
package fastmcptest
