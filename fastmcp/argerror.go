package fastmcp

import "github.com/fastmcp-go/fastmcp/protocol"

// argumentsMessage words arguments refused by validation the same way for
// tools, prompts and resource templates: "invalid arguments for tool add:
// b: must be >= 0". what is "tool", "prompt" or "resource"; name is its
// name (a URI for a resource).
func argumentsMessage(what, name string, err error) string {
	return "invalid arguments for " + what + " " + name + ": " + err.Error()
}

// invalidArguments is the invalid-params error (-32602) for arguments a
// prompt or resource template refused, worded by argumentsMessage. It
// matches protocol.ErrInvalidParams under errors.Is, and a
// *schema.ValidationError under errors.As when validation refused them.
func invalidArguments(what, name string, err error) error {
	return &argumentsError{wire: protocol.NewError(protocol.CodeInvalidParams, argumentsMessage(what, name, err)), err: err}
}

// argumentsError carries both the wire error and the validation error.
type argumentsError struct {
	wire *protocol.Error
	err  error
}

func (e *argumentsError) Error() string   { return e.wire.Message }
func (e *argumentsError) Unwrap() []error { return []error{e.wire, e.err} }
