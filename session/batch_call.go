package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// ErrBatchUnsupported is returned by Batch when the session does not speak
// protocol.BatchVersion (2025-03-26), the only protocol revision with
// JSON-RPC batches.
var ErrBatchUnsupported = errors.New("session: JSON-RPC batches are only supported on protocol revision " + protocol.BatchVersion)

// BatchCall is one request, or notification, of a batch sent with Batch.
type BatchCall struct {
	// Method and Params are the request's method and params (encoded as
	// JSON; a json.RawMessage is sent as is; nil sends no params).
	Method string
	Params any
	// Notification sends the call as a notification: no response, no
	// Result, and Err is only set when the batch could not be sent.
	Notification bool
	// Result receives the result, decoded as Call does (nil discards it).
	Result any
	// Err is set by Batch: the call's error (a *protocol.Error from the
	// peer, a decoding error, or why the batch as a whole failed), nil on
	// success.
	Err error
}

// sentBatch is a batch sent by Batch that waits for its responses. A
// peer refusing the batch as a whole answers with one error response
// without an id, which fails every batch waiting (see failBatches).
type sentBatch struct {
	refused chan struct{} // closed when err is set
	err     *protocol.Error
}

// Batch sends calls as one JSON-RPC batch and waits for the response to
// each, setting its Result and Err. It returns an error when the batch as
// a whole failed (not sent, refused by the peer, ctx done, the timeout of
// Options.CallTimeout elapsed, the session ended); the
// calls left unanswered then get that error in Err too. A call's own
// error is only in its Err.
//
// Batches exist only in protocol revision 2025-03-26: on a session that
// negotiated another, Batch returns an error matching ErrBatchUnsupported
// without sending anything. When ctx is done first, Batch sends
// notifications/cancelled for every call not answered yet.
func (s *Session) Batch(ctx context.Context, calls []*BatchCall) error {
	b := &batchRun{s: s, calls: calls}
	if v := s.ProtocolVersion(); !protocol.HasBatches(v) {
		if v == "" {
			v = "none negotiated yet"
		}
		return b.settle(fmt.Errorf("%w (protocol revision: %s)", ErrBatchUnsupported, v))
	}
	if len(calls) == 0 {
		return nil
	}
	msgs, err := b.encode()
	if err != nil {
		return b.settle(err)
	}
	if err := b.register(); err != nil {
		return b.settle(err)
	}
	defer b.unregister()
	abandon := func(reason string) { b.abandon(ctx, reason) }
	if err := s.conn.Write(ctx, &protocol.Batch{Messages: msgs}); err != nil {
		return b.settle(s.sendFailed(ctx, err, "a batch", abandon))
	}
	b.sent = true
	return b.settle(b.wait(ctx))
}

// batchRun is one call of Session.Batch: its calls, and for each request
// its id and the pending call its response completes.
type batchRun struct {
	s     *Session
	calls []*BatchCall
	ids   []protocol.ID // the requests' ids; zero for notifications
	waits []*call       // the requests' pending calls; nil for notifications
	sb    *sentBatch
	sent  bool // the batch was written
}

// settle sets the Err (and Result) of the answered calls, and err on the
// others: all of them before the batch is sent, else the requests. It
// returns err.
func (b *batchRun) settle(err error) error {
	for i, c := range b.calls {
		switch {
		case b.waits != nil && b.waits[i] != nil && isDone(b.waits[i].done):
			c.Err = b.waits[i].outcome(c.Result) // a response, or the transport's failure
		case !b.sent || !c.Notification:
			c.Err = err
		default:
			c.Err = nil
		}
	}
	return err
}

// encode builds the batch's messages, giving each request a new id and a
// pending call.
func (b *batchRun) encode() ([]protocol.Message, error) {
	msgs := make([]protocol.Message, len(b.calls))
	b.ids = make([]protocol.ID, len(b.calls))
	b.waits = make([]*call, len(b.calls))
	for i, c := range b.calls {
		raw, err := EncodeParams(c.Params)
		if err != nil {
			return nil, fmt.Errorf("session: encoding %s params: %w", c.Method, err)
		}
		m := &protocol.Request{Method: c.Method, Params: raw}
		if !c.Notification {
			b.ids[i] = b.s.newID()
			m.ID = b.ids[i]
			b.waits[i] = &call{method: c.Method, done: make(chan struct{})}
		}
		msgs[i] = m
	}
	return msgs, nil
}

// register makes the requests pending and the batch one that a refusal
// fails, unless the session has ended (or the peer's input has: no
// response could arrive).
func (b *batchRun) register() error {
	s := b.s
	b.sb = &sentBatch{refused: make(chan struct{})}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.inputErr != nil {
		return s.closedError()
	}
	for i, w := range b.waits {
		if w != nil {
			s.pending[b.ids[i]] = w
		}
	}
	if s.sentBatches == nil {
		s.sentBatches = map[*sentBatch]struct{}{}
	}
	s.sentBatches[b.sb] = struct{}{}
	return nil
}

// unregister undoes register.
func (b *batchRun) unregister() {
	s := b.s
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, w := range b.waits {
		if w != nil {
			delete(s.pending, b.ids[i])
		}
	}
	delete(s.sentBatches, b.sb)
}

// abandon cancels the requests not answered yet.
func (b *batchRun) abandon(ctx context.Context, reason string) {
	for i, w := range b.waits {
		if w == nil {
			continue
		}
		select {
		case <-w.done:
		default:
			b.s.cancelCall(ctx, b.ids[i], reason)
		}
	}
}

// wait waits for the response to each request of the sent batch. It
// returns nil when all came, else why the batch as a whole failed.
func (b *batchRun) wait(ctx context.Context) error {
	s := b.s
	var timer <-chan time.Time
	if s.timeout > 0 {
		t := time.NewTimer(s.timeout)
		defer t.Stop()
		timer = t.C
	}
	for _, w := range b.waits {
		if w == nil {
			continue
		}
		select {
		case <-w.done:
		case <-b.sb.refused:
			return fmt.Errorf("session: the batch was refused: %w", b.sb.err)
		case <-ctx.Done():
			b.abandon(ctx, context.Cause(ctx).Error())
			return ctx.Err()
		case <-timer:
			b.abandon(ctx, "timeout")
			return fmt.Errorf("%w: batch after %v: %w", ErrTimeout, s.timeout, context.DeadlineExceeded)
		case <-s.done:
			if !isDone(w.done) { // else it raced with the end of the session
				return s.closedError()
			}
		case <-s.readerDone:
			// The peer's input ended (or the session did): every
			// response that came was delivered before.
			if !isDone(w.done) {
				return s.closedError()
			}
		}
	}
	return nil
}

func isDone(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// failBatches fails the batches waiting for responses with e, an error
// response without an id: the peer refused a batch as a whole. It reports
// whether any was waiting.
func (s *Session) failBatches(e *protocol.Error) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.sentBatches)
	for sb := range s.sentBatches {
		sb.err = e
		close(sb.refused)
		delete(s.sentBatches, sb)
	}
	return n > 0
}
