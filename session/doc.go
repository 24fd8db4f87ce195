// Package session is the JSON-RPC 2.0 engine under every MCP connection,
// server and client alike: a Session correlates outgoing requests with
// their responses, dispatches incoming requests concurrently to a Handler,
// carries notifications both ways, and runs the MCP lifecycle.
//
// # Calls
//
// Call sends a request with a fresh id and waits for its response, its
// context, a timeout or the end of the session. Cancelling the context
// sends notifications/cancelled; WithProgress asks for progress and routes
// each notifications/progress to the caller. Once the peer is gone, every
// pending call fails with an error matching ErrClosed.
//
// # Serving
//
// Incoming requests are served concurrently, each on its own goroutine, up
// to Options.MaxConcurrency at a time; reading waits for a handler about
// 100 µs at most (a fast call is served by the worker that read it, which then
// reads on; behind a slower one another worker reads on), so responses and
// cancellations keep flowing. A handler's
// context is cancelled when the peer cancels the request (cause
// ErrCancelledByPeer, and no response is sent) or the session ends. A
// panicking handler is answered with an internal error, logged with its
// stack, and the session lives on. Notifications are handled in order on
// the reading goroutine.
//
// # Batches
//
// On a session that negotiated 2025-03-26, the only revision with JSON-RPC
// batches, an incoming protocol.Batch is served as if its elements had
// come one by one, and the responses to its calls (and to its invalid
// elements) are written together as one batch; a batch without calls gets
// no answer. Sessions of other revisions, and sessions not yet
// initialized, refuse a batch with one error. Batch sends a batch.
//
// # Lifecycle
//
// A server session serves only initialize and ping until the client has
// initialized (legacy revisions); it answers the client's revision when
// supported, else the latest legacy one, and stores the client's
// capabilities. A request carrying a 2026-07-28 protocol version in its
// _meta is served without the handshake, with its own capabilities
// (Request.Era). A client session performs the handshake with
// Initialize and refuses a revision it does not speak. The session owns the
// negotiation: once the handshake has settled a revision it tells a
// transport.VersionedConn (the Streamable HTTP client and server sessions,
// which need it for the MCP-Protocol-Version header, SSE priming and
// batches), so transports never read it from the messages.
//
// Sessions run over any transport.Conn: newline-delimited stdio, HTTP, or
// the in-memory pipe.
package session
