package transport

import (
	"context"
	"errors"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// Conn is one end of a bidirectional stream of JSON-RPC messages.
//
// Read returns the next message: a request, a response, or a
// *protocol.Batch of them, handed over whole (the session engine answers
// a batch with one message, written with a ctx marked by WithBatchReply).
// A *protocol.DecodeError means one message was bad (invalid JSON, not
// JSON-RPC, too large) and the stream goes on: the caller answers it and
// reads again (or, when it says the message was a response, fails the call
// it answers). A *CallError means the answer to one outgoing request was
// lost: the caller fails that call and reads again. Any other error ends
// the stream; io.EOF (possibly wrapped) means the peer closed it cleanly.
// Read is called by one goroutine at a time.
//
// Write sends one message. It may be called from several goroutines at once;
// each message is written whole. The messages it is given are not modified
// and not kept after Write returns. A ctx carrying a related request id (see
// WithRelatedRequest) lets a transport with per-request streams (Streamable
// HTTP) send the message on that request's stream.
//
// Close ends the stream and unblocks pending Read and Write calls. It may be
// called more than once and concurrently with Read and Write.
type Conn interface {
	Read(ctx context.Context) (protocol.Message, error)
	Write(ctx context.Context, msg protocol.Message) error
	Close() error
}

// Flusher is implemented by Conns that may hold written messages back to
// write several at once (see Stream). Flush writes what is held back and
// returns once it is written. The session engine calls it when it shuts
// down gracefully, before closing the Conn.
type Flusher interface {
	Flush() error
}

var _ Flusher = (*Stream)(nil)

// ErrClosed is returned by Read and Write on a connection that was closed
// locally.
var ErrClosed = errors.New("transport: connection closed")

// DefaultMaxMessageSize is the largest message, in bytes, that a Stream and
// the server transports accept unless configured otherwise: 4 MiB. The
// client transports default to DefaultClientMaxMessageSize.
const DefaultMaxMessageSize = 4 << 20

type relatedKey struct{}

// WithRelatedRequest returns a ctx saying that messages written with it
// belong to the incoming request id: its progress and log notifications, the
// requests a server sends while serving it, and finally its response.
func WithRelatedRequest(ctx context.Context, id protocol.ID) context.Context {
	return context.WithValue(ctx, relatedKey{}, id)
}

// RelatedRequest returns the request id recorded by WithRelatedRequest.
func RelatedRequest(ctx context.Context) (protocol.ID, bool) {
	id, ok := ctx.Value(relatedKey{}).(protocol.ID)
	return id, ok && id.IsValid()
}

type batchReplyKey struct{}

// WithBatchReply returns a ctx saying that the message written with it is
// the whole answer to the incoming batch b (see protocol.Batch): the batch
// of its responses, or the error refusing it. The session engine writes
// exactly one such message for each batch it reads that has calls or
// invalid elements; a transport that answers each incoming message on a
// channel of its own (Streamable HTTP) sends it there.
func WithBatchReply(ctx context.Context, b *protocol.Batch) context.Context {
	return context.WithValue(ctx, batchReplyKey{}, b)
}

// BatchReply returns the batch that msg, written with ctx, answers: the
// one recorded by WithBatchReply, when msg can be such an answer (a
// batch, or a response without an id). ctx is not looked at for other
// messages, which saves the lookup for every other response.
func BatchReply(ctx context.Context, msg protocol.Message) (*protocol.Batch, bool) {
	switch m := msg.(type) {
	case *protocol.Batch:
	case *protocol.Response:
		if m.ID.IsValid() {
			return nil, false
		}
	default:
		return nil, false
	}
	b, ok := ctx.Value(batchReplyKey{}).(*protocol.Batch)
	return b, ok && b != nil
}
