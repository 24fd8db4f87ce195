package client

import "github.com/fastmcp-go/fastmcp/protocol"

// ErrResourceNotFound matches, with errors.Is, the error ReadResource
// returns for a URI the server does not have, in every protocol revision:
// the server answers -32002 before 2026-07-28 and -32602 (invalid params)
// with {"uri": uri} as data since, and one check covers both:
//
//	if errors.Is(err, client.ErrResourceNotFound) { ... }
//
// It is protocol.ErrResourceNotFound, which therefore matches in both
// revisions too.
var ErrResourceNotFound = protocol.ErrResourceNotFound

// notFoundError is a server's answer to a read of a URI it does not have,
// spelt as the revision spells it. It matches ErrResourceNotFound, and
// unwraps to the server's *protocol.Error (so a 2026-07-28 answer still
// matches ErrInvalidParams too).
type notFoundError struct{ err error }

func (e *notFoundError) Error() string { return e.err.Error() }
func (e *notFoundError) Unwrap() error { return e.err }

// Is matches ErrResourceNotFound: any *protocol.Error with code -32002.
func (e *notFoundError) Is(target error) bool {
	t, ok := target.(*protocol.Error)
	return ok && t.Code == protocol.CodeResourceNotFound
}

// resourceNotFound returns err as a notFoundError when it says that uri
// does not exist, in either revision's way, and err unchanged otherwise.
func resourceNotFound(err error, uri string) error {
	if protocol.IsResourceNotFound(err, uri) {
		return &notFoundError{err}
	}
	return err
}
