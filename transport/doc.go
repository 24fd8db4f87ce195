// Package transport moves JSON-RPC messages between MCP peers. A Conn
// reads and writes whole messages; the session engine (package session)
// runs on any Conn and never sees bytes.
//
// # Transports
//
//   - Stream: newline-delimited JSON over any reader and writer; Stdio is
//     the server side of the stdio transport. A malformed or oversized line
//     is reported as a *protocol.DecodeError and the stream goes on.
//   - Command: starts a server subprocess and returns a Conn to it (the
//     client side of stdio), with a minimal inherited environment and a
//     Close that never leaves a zombie.
//   - StreamableHandler and StreamableClient: Streamable HTTP, for every
//     revision on one endpoint (legacy sessions with resumable SSE streams,
//     2026-07-28 stateless requests).
//   - SSEHandler and SSEClient: the legacy HTTP+SSE transport (2024-11-05);
//     FallbackClient picks between Streamable HTTP and it.
//   - NewPipe: two connected in-memory Conns, for tests and in-process use.
//
// # Per-request streams
//
// Messages written with a ctx marked by WithRelatedRequest belong to that
// incoming request: HTTP transports send them on the request's stream. The
// session engine marks the contexts it gives handlers, so notifications and
// requests sent while serving a request travel with it.
//
// # Protection
//
// HTTP handlers check Host and Origin against a HostPolicy (DNS-rebinding
// protection, on by default), bound request bodies, and check the MCP
// headers; HostPolicy.Handler is the same check as middleware for other
// routes.
package transport
