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

// ErrStreamLost is matched (errors.Is) by the error of a call whose answer
// stream broke and could not be resumed because the server no longer runs
// the request: it answered the resumption (GET with Last-Event-ID) with
// 410 Gone, as a replica serving a shared session does when the replica
// that ran the request died. The request may or may not have taken effect;
// a client can send it again. The error matches ErrTransport too.
var ErrStreamLost = errors.New("transport: the request's answer stream is gone: the server no longer runs the request")

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
