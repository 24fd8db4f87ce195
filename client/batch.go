package client

import (
	"context"
	"fmt"

	"github.com/fastmcp-go/fastmcp/session"
)

// BatchCall is one request (or notification) of a batch sent with
// Client.Batch: set Method, Params and Result (where to decode the
// result, nil to discard it); Batch sets Err.
type BatchCall = session.BatchCall

// Batch sends calls as one JSON-RPC batch and waits for every response,
// setting each call's Result and Err (its own error, such as a
// *Error from the server). It returns an error when the batch as
// a whole failed (not sent, refused by the server, ctx done, the client's
// call timeout elapsed, the connection lost); the calls left unanswered
// then carry that error too.
//
// Batches exist only in protocol revision 2025-03-26: connect with
// WithProtocolVersion(protocol.Version20250326) (or to a server that chooses
// it) to use them. On any other revision Batch sends nothing and returns
// an error matching session.ErrBatchUnsupported (the connection does not
// speak protocol revision 2025-03-26, the only one with JSON-RPC batches).
func (c *Client) Batch(ctx context.Context, calls ...*BatchCall) error {
	if c.era.Stateless() {
		err := fmt.Errorf("%w (protocol revision: %s)", session.ErrBatchUnsupported, c.ProtocolVersion())
		for _, call := range calls {
			call.Err = err
		}
		return err
	}
	return c.sess.Batch(ctx, calls)
}
