package protocol

// Era is the shape of the protocol a revision belongs to. Everything that
// differs between the two shapes, on the server, the client and a proxy
// alike, is asked of the Era rather than of a revision string or a flag:
//
//	if req.Era.Stateless() { ... }
//
// The zero Era is [Legacy].
type Era uint8

const (
	// Legacy is the era of revisions 2024-11-05 to 2025-11-25: a client
	// opens a session with the initialize handshake, and the session keeps
	// the negotiated revision, the client's capabilities and its log level.
	Legacy Era = iota
	// Modern is the era of revision 2026-07-28 and later: there is no
	// handshake, and every request carries its revision and the client's
	// capabilities in _meta.
	Modern
)

// EraOf returns the era of revision v. A revision this package does not
// know, or "", is [Legacy] when it is older than 2026-07-28 (revisions
// compare as dates).
func EraOf(v string) Era {
	if IsModern(v) {
		return Modern
	}
	return Legacy
}

// Stateless reports whether requests of era e describe themselves (their
// revision and the client's capabilities in _meta), so that no session is
// needed to serve them.
func (e Era) Stateless() bool { return e == Modern }

// String returns "legacy" or "modern".
func (e Era) String() string {
	if e == Modern {
		return "modern"
	}
	return "legacy"
}
