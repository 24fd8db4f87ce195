// Package client connects to Model Context Protocol servers: it lists and
// calls their tools, reads their resources, gets their prompts, and
// answers their sampling, elicitation and roots requests.
//
// # Connecting
//
// Connect works over any transport.Conn (an in-memory pipe in tests, your
// own transport); ConnectCommand starts a server subprocess and speaks
// stdio to it; ConnectHTTP speaks Streamable HTTP:
//
//	c, err := client.ConnectCommand(ctx, &client.Command{Path: "./my-server"},
//		client.WithInfo("my-host", "1.0.0"))
//	if err != nil { ... }
//	defer c.Close()
//	res, err := c.CallTool(ctx, "add", map[string]int{"a": 2, "b": 3})
//
// Options (WithInfo, WithLogger, WithCallTimeout, ...) configure a client
// when it connects; each says its default. A Client is safe for
// concurrent use.
//
// # Protocol revisions
//
// Unless WithProtocolVersion says otherwise, a client probes with
// server/discover and speaks 2026-07-28 (Era returns Modern: no
// handshake, its details on every request) to servers that answer it, and
// the initialize handshake (Legacy) to the others.
//
// # Types
//
// The types in the client's signatures (Tool, ToolResult, Content,
// LogMessage, Progress, Root, SamplingRequest, TaskState, ...) and the
// constants beside them (LevelInfo, ElicitAccept, TaskCompleted,
// ErrMethodNotFound, ...) are aliases of package protocol's wire types, so
// a client program needs no protocol import. Where package fastmcp names
// the same idea (ToolResult, TextContent, Root, SamplingRequest), the
// client spells it the same.
//
// # Answering the server
//
// WithSampling, WithElicitation, WithURLElicitation and WithRoots answer
// the server's requests and declare the matching capabilities; on
// 2026-07-28 the same handlers answer a call's input requests, and the
// call is sent again with the answers. AcceptElicitation,
// DeclineElicitation and CancelElicitation build an elicitation's answer.
//
// # Middleware, batches, tasks, authorization
//
// WithMiddleware wraps the sending of every request (tracing, metrics,
// logging). Batch sends several requests in one JSON-RPC batch where the
// revision allows it. StartTool and the task methods run a tool as a task.
// OAuth logs in to servers protected by OAuth 2.1 with any HTTPAuthorizer,
// such as an oauthclient.Config. WithApps declares MCP Apps support.
//
// proxy.New (package proxy) serves, as a server, whatever the server
// behind a client offers; connect that client with WithRequestForwarding.
// See docs/client.md and docs/proxy.md.
package client
