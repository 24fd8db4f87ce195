package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
)

// JSON-RPC 2.0 error codes.
const (
	CodeParseError     = -32700 // invalid JSON
	CodeInvalidRequest = -32600 // not a valid JSON-RPC request object
	CodeMethodNotFound = -32601 // unknown or unavailable method
	CodeInvalidParams  = -32602 // invalid method parameters
	CodeInternalError  = -32603 // internal error in the receiver
)

// MCP error codes.
const (
	// CodeResourceNotFound is the legacy (2025-11-25 and earlier) code for an
	// unknown resource URI. Revision 2026-07-28 uses CodeInvalidParams instead.
	CodeResourceNotFound = -32002
	// CodeURLElicitationRequired (2025-11-25 only) tells the client that URL
	// mode elicitations must complete before the request can be served.
	CodeURLElicitationRequired = -32042
	// CodeHeaderMismatch: HTTP headers disagree with the body, or required headers are missing (2026-07-28).
	CodeHeaderMismatch = -32020
	// CodeMissingRequiredClientCapability: the request needs a client capability the client did not declare (2026-07-28).
	CodeMissingRequiredClientCapability = -32021
	// CodeUnsupportedProtocolVersion: the request names a protocol version the server does not support (2026-07-28).
	CodeUnsupportedProtocolVersion = -32022
)

// Error is a JSON-RPC error object. It is both what travels on the wire and a
// Go error: errors.Is matches two *Error values by code, so
//
//	errors.Is(err, protocol.ErrMethodNotFound)
//
// holds for any error wrapping an *Error with code -32601, including one
// decoded from a peer's response. The message is sent to the peer: do not put
// secrets in it.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitzero"`
}

// Sentinel errors, one per standard code. Wrap them to add detail:
//
//	fmt.Errorf("%w: unknown tool %q", protocol.ErrInvalidParams, name)
//
// ToWire turns such a wrapped error into an *Error whose message is the full
// text and whose code is the sentinel's.
var (
	ErrParse                           = &Error{Code: CodeParseError, Message: "Parse error"}
	ErrInvalidRequest                  = &Error{Code: CodeInvalidRequest, Message: "Invalid Request"}
	ErrMethodNotFound                  = &Error{Code: CodeMethodNotFound, Message: "Method not found"}
	ErrInvalidParams                   = &Error{Code: CodeInvalidParams, Message: "Invalid params"}
	ErrInternal                        = &Error{Code: CodeInternalError, Message: "Internal error"}
	ErrResourceNotFound                = &Error{Code: CodeResourceNotFound, Message: "Resource not found"}
	ErrURLElicitationRequired          = &Error{Code: CodeURLElicitationRequired, Message: "URL elicitation required"}
	ErrHeaderMismatch                  = &Error{Code: CodeHeaderMismatch, Message: "Header mismatch"}
	ErrMissingRequiredClientCapability = &Error{Code: CodeMissingRequiredClientCapability, Message: "Missing required client capability"}
	ErrUnsupportedProtocolVersion      = &Error{Code: CodeUnsupportedProtocolVersion, Message: "Unsupported protocol version"}
)

// NewError returns an *Error with the given code and message.
func NewError(code int64, message string) *Error { return &Error{Code: code, Message: message} }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code int64, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// WithData returns a copy of e carrying v, encoded as JSON, as its data member.
// If v cannot be encoded the copy has no data.
func (e *Error) WithData(v any) *Error {
	c := *e
	c.Data = nil
	if b, err := jsonMarshal(v); err == nil {
		c.Data = b
	}
	return &c
}

// ToWire converts any error into the *Error sent to a peer. An error that
// wraps an *Error keeps its code and data and uses the full error text as the
// message; any other error becomes an internal error carrying its text.
func ToWire(err error) *Error {
	if err == nil {
		return nil
	}
	if e, ok := err.(*Error); ok {
		return e
	}
	if e, ok := errors.AsType[*Error](err); ok {
		return &Error{Code: e.Code, Message: err.Error(), Data: e.Data}
	}
	return &Error{Code: CodeInternalError, Message: err.Error()}
}
