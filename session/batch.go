package session

import (
	"context"
	"sync"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// Incoming JSON-RPC batches (protocol revision 2025-03-26): the elements
// are dispatched as if they had come one by one, and the responses to its
// calls are collected and written together as one batch.

// batchReply collects the responses to the calls of one incoming batch.
// Each call admitted from the batch adds its response (or nil, when it
// gets none: cancelled by the peer, or the session ended) exactly once;
// the dispatch of the batch holds one more count, so the reply cannot be
// written before every element has been seen.
type batchReply struct {
	s   *Session
	ctx context.Context // marks the write as the batch's answer (transport.WithBatchReply)

	mu    sync.Mutex
	left  int // responses still to come, plus one while the batch is dispatched
	resps []protocol.Message
}

// add records the response of one call (nil for none) and, once the last
// is in, writes them all as one batch. An empty batch is still written,
// so a transport waiting for the answer knows it is over; transports
// write nothing for it.
func (r *batchReply) add(resp *protocol.Response) {
	r.mu.Lock()
	if resp != nil {
		r.resps = append(r.resps, resp)
	}
	r.left--
	last := r.left == 0
	r.mu.Unlock()
	if last {
		r.s.write(r.ctx, &protocol.Batch{Messages: r.resps})
	}
}

// batch serves an incoming batch. It is refused with one error response
// unless the session speaks protocol.BatchVersion (before initialize the
// revision is unknown, and initialize must not be part of a batch).
// Responses in the batch are delivered, notifications handled and calls
// admitted and queued, in order; the responses to the calls and to the
// invalid elements are written together once all are answered. A batch
// of notifications and responses only gets no answer.
func (s *Session) batch(b *protocol.Batch) {
	ctx := transport.WithBatchReply(context.Background(), b)
	if v := s.ProtocolVersion(); !protocol.HasBatches(v) {
		s.logger.Warn("refusing a JSON-RPC batch", "version", v)
		s.write(ctx, &protocol.Response{Error: protocol.BatchError(v)})
		return
	}
	r := &batchReply{s: s, ctx: ctx, left: 1}
	for _, de := range b.Invalid {
		s.logger.Warn("bad message from peer", "error", de.Err.Message)
		r.resps = append(r.resps, de.Response())
	}
	calls := false
	for _, m := range b.Messages {
		switch m := m.(type) {
		case *protocol.Response:
			s.deliver(m)
		case *protocol.Request:
			if !m.IsCall() {
				s.notification(m)
				break
			}
			calls = true
			r.mu.Lock()
			r.left++
			r.mu.Unlock()
			if j, ok := s.admitCall(m, r); ok {
				s.enqueue(j)
			}
		}
	}
	if !calls && len(b.Invalid) == 0 {
		return // nothing to answer
	}
	r.add(nil) // the dispatch is over
}
