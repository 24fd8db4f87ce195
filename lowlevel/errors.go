package lowlevel

import "github.com/fastmcp-go/fastmcp/protocol"

// Error is a JSON-RPC error: the code and message a request is answered
// with. A Handler or Middleware that returns an error wrapping an *Error
// has the request answered with its code and the full error text; any
// other error is answered as an internal error (-32603). errors.Is matches
// two *Error values by code.
type Error = protocol.Error

// The JSON-RPC errors a Handler or Middleware returns most often. Wrap one
// to add the detail the client sees:
//
//	return nil, fmt.Errorf("%w: tools/call needs a valid bearer token", lowlevel.ErrInvalidRequest)
//
// They are the protocol package's sentinels, so errors.Is(err,
// protocol.ErrInvalidRequest) holds too.
var (
	// ErrInvalidRequest (-32600) refuses the request as a whole, such as
	// one its sender is not allowed to make.
	ErrInvalidRequest = protocol.ErrInvalidRequest
	// ErrMethodNotFound (-32601) says the method is not offered.
	ErrMethodNotFound = protocol.ErrMethodNotFound
	// ErrInvalidParams (-32602) refuses the request's params.
	ErrInvalidParams = protocol.ErrInvalidParams
	// ErrInternal (-32603) says the server failed while serving the request.
	ErrInternal = protocol.ErrInternal
)

// NewError returns an *Error with any code, for the codes without a
// sentinel above (an application's own, from -32000 to -32099).
func NewError(code int64, message string) *Error { return protocol.NewError(code, message) }
