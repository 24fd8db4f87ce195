package transport

import (
	"errors"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// ErrTransport is matched (errors.Is) by the error of a call that failed
// because the transport lost its request or its answer (a broken
// connection, an answer stream that could not be resumed, an answer over
// the size limit), as opposed to a JSON-RPC error the peer sent, which is
// a *protocol.Error.
var ErrTransport = errors.New("transport: call failed")

// CallError is returned by a client Conn's Read when the answer to one
// outgoing request cannot be delivered. The session engine fails the
// pending call ID with it and goes on reading: it does not end the
// connection. errors.Is(err, ErrTransport) holds for it, and Err says
// what happened.
type CallError struct {
	// ID is the request whose answer was lost.
	ID protocol.ID
	// Err is the cause.
	Err error
}

func (e *CallError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *CallError) Unwrap() error { return e.Err }

// Is reports whether target is ErrTransport.
func (e *CallError) Is(target error) bool { return target == ErrTransport }
