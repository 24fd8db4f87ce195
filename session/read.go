package session

import (
	"context"
	"errors"
	"io"
	"slices"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// read holds the reading role: it reads messages and routes them until
// the transport fails or ends, or until it has handed the
// role to another worker; then it returns the call it kept to serve.
func (s *Session) read() (job, bool) {
	for {
		msg, err := s.conn.Read(s.ctx)
		if err != nil {
			if ce, ok := errors.AsType[*transport.CallError](err); ok {
				s.fail(ce.ID, ce)
				continue
			}
			if de, ok := errors.AsType[*protocol.DecodeError](err); ok {
				s.badMessage(de)
				continue
			}
			if isEOF(err) {
				s.endInput(err) // no more requests; answer those read
			} else {
				if !errors.Is(err, transport.ErrClosed) && s.ctx.Err() == nil {
					s.logger.Warn("transport read failed", "error", err)
				}
				s.shutdown(err)
			}
			s.pool.stopReading()
			close(s.readerDone)
			return job{}, false
		}
		switch m := msg.(type) {
		case *protocol.Response:
			s.deliver(m)
		case *protocol.Batch:
			s.batch(m)
		case *protocol.Request:
			if !m.IsCall() {
				s.notification(m)
				break
			}
			j, ok := s.admitCall(m, nil)
			if !ok {
				break
			}
			if s.handOff() {
				return j, true
			}
			s.enqueue(j)
		}
	}
}

// write sends msg, logging failures (the caller has no one to report to).
func (s *Session) write(ctx context.Context, msg protocol.Message) {
	if err := s.conn.Write(ctx, msg); err != nil && !errors.Is(err, transport.ErrClosed) && s.ctx.Err() == nil {
		s.logger.Warn("writing message failed", "error", err)
	}
}

// answer sends the response to an incoming call: on its own, or with the
// other responses of its batch when b is not nil.
func (s *Session) answer(b *batchReply, resp *protocol.Response) {
	if b != nil {
		b.add(resp)
		return
	}
	s.write(transport.WithRelatedRequest(context.Background(), resp.ID), resp)
}

func (s *Session) respondError(b *batchReply, id protocol.ID, err *protocol.Error) {
	s.answer(b, &protocol.Response{ID: id, Error: err})
}

// wasAbandoned reports whether id is one of the calls recently cancelled.
func (s *Session) wasAbandoned(id protocol.ID) bool {
	if !id.IsValid() {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Contains(s.abandoned[:], id)
}

// badMessage deals with a message the transport could not read: a request
// (or a message of unknown kind) is answered with the error; a response,
// which is never answered, fails the call it answers.
func (s *Session) badMessage(de *protocol.DecodeError) {
	if !de.NotRequest {
		s.logger.Warn("bad message from peer", "error", de.Err.Message)
		s.write(context.Background(), de.Response())
		return
	}
	cause := de.Cause
	if cause == nil {
		cause = errors.New(de.Err.Message)
	}
	if !s.fail(de.ID, &transport.CallError{ID: de.ID, Err: cause}) {
		s.logger.Warn("ignoring a response that could not be read", "id", de.ID.String(), "error", cause)
	}
}

// fail ends the pending call id with err instead of a response (the
// transport lost the answer). It reports whether such a call was waiting.
func (s *Session) fail(id protocol.ID, err error) bool {
	if !id.IsValid() {
		return false
	}
	s.mu.Lock()
	c := s.pending[id]
	ok := c != nil && c.resp == nil && c.err == nil
	if ok {
		c.err = err
		close(c.done)
	}
	s.mu.Unlock()
	if !ok {
		s.logger.Debug("transport failure for no pending call", "id", id.String(), "error", err)
	}
	return ok
}

// deliver routes a response to the call waiting for it.
func (s *Session) deliver(resp *protocol.Response) {
	s.mu.Lock()
	c := s.pending[resp.ID]
	first := c != nil && c.resp == nil && c.err == nil
	if first {
		c.resp = resp
		close(c.done)
	}
	s.mu.Unlock()
	switch {
	case c == nil && !resp.ID.IsValid() && resp.Error != nil && s.failBatches(resp.Error):
		s.logger.Warn("the peer refused a batch", "error", resp.Error.Message)
	case c == nil && s.wasAbandoned(resp.ID):
		s.logger.Debug("ignoring late response to a cancelled call", "id", resp.ID.String())
	case c == nil:
		s.logger.Warn("ignoring response for unknown request id", "id", resp.ID.String())
	case !first:
		s.logger.Warn("ignoring duplicate response", "id", resp.ID.String())
	}
}

func isEOF(err error) bool { return errors.Is(err, io.EOF) }
