// Package lowlevel is the low-level MCP server: a table from JSON-RPC
// method to Handler, plus notification handlers and middleware, serving
// any number of sessions over any transport. The high-level fastmcp.Server
// registers its handlers here; advanced users program the table directly,
// as the example shows, or wrap it with middleware (authentication,
// logging, rate limits) in the func(Handler) Handler shape.
//
// The server answers initialize (legacy revisions), server/discover
// (2026-07-28), ping and logging/setLevel itself unless a handler is
// registered for them. For 2026-07-28 requests it refuses the methods that
// revision removed and gives every result its resultType, the server's
// identity in _meta, and cache hints on cacheable results.
//
// Sessions: ServeConn serves one connection until it ends; NewSession and
// Connect start one and return (the HTTP transports take Connect);
// Sessions and Broadcast reach every connected client.
package lowlevel
