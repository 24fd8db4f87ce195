package transport

// VersionedConn is implemented by Conns whose framing depends on the
// protocol revision the initialize handshake settled: the Streamable HTTP
// client sends it as the MCP-Protocol-Version header, and a Streamable HTTP
// server session primes its SSE streams and accepts batches by it. The
// session engine owns the negotiation and calls SetProtocolVersion once the
// handshake has settled a revision (a server just before it writes its
// successful initialize answer, a client once it has accepted the server's);
// transports do not read revisions from the messages they carry. A Conn
// that wraps one of these passes the call on, as FallbackClient does.
type VersionedConn interface {
	Conn
	SetProtocolVersion(v string)
}

var (
	_ VersionedConn = (*StreamableClient)(nil)
	_ VersionedConn = (*httpSession)(nil)
	_ VersionedConn = (*FallbackClient)(nil)
)

// SetProtocolVersion passes the revision on to the transport chosen, when
// that one needs it (see VersionedConn).
func (c *FallbackClient) SetProtocolVersion(v string) {
	if vc, ok := c.Conn().(VersionedConn); ok {
		vc.SetProtocolVersion(v)
	}
}
