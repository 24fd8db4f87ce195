package session

import (
	"context"
	"errors"
	"fmt"

	"github.com/fastmcp-go/fastmcp/transport"
)

// Close ends the session: it closes the transport (returning what that
// reports, such as a server subprocess's exit status), cancels the contexts of
// running handlers (cause ErrClosed), fails pending calls, and waits until the
// reading goroutine and every handler have returned. Handlers must return
// when their context is done.
func (s *Session) Close() error {
	s.shutdown(ErrClosed)
	<-s.readerDone
	s.drainer.Wait()
	s.handlers.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.connErr
}

// Shutdown ends the session gracefully: new requests are refused with an
// error saying the server is shutting down, requests in flight may finish
// until ctx is done, and then the session is closed as by Close (cancelling
// what is still running). It returns ctx's error when it had to cut
// requests short, else what Close returns.
func (s *Session) Shutdown(ctx context.Context) error {
	err := s.settle(ctx, ErrClosed)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	return err
}

// settle refuses new requests, waits until none is in flight and flushes
// the transport; when ctx is done first it returns ctx's error (a flush cut
// short ends the session with cause). The caller closes the session.
func (s *Session) settle(ctx context.Context, cause error) error {
	s.mu.Lock()
	if s.idle == nil {
		s.idle = make(chan struct{})
	}
	idle := s.idle
	s.draining.Store(true)
	if s.outstanding.Load() == 0 {
		s.closeIdleLocked()
	}
	s.mu.Unlock()
	select {
	case <-idle:
		return s.flush(ctx, cause)
	case <-s.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// endInput is called by the reader when the peer has ended its input
// (cause wraps io.EOF): outgoing calls fail from now on, and a goroutine
// of the session's, drainInput, lets the requests already read finish
// before it closes the session.
func (s *Session) endInput(cause error) {
	s.mu.Lock()
	closed := s.closed
	if !closed {
		s.inputErr = cause
	}
	s.mu.Unlock()
	if closed {
		return
	}
	if s.drain < 0 {
		s.shutdown(cause)
		return
	}
	// Added before readerDone is closed, so before Close or Wait wait.
	s.drainer.Add(1)
	go s.drainInput(cause)
}

// drainInput waits, at most the drain timeout, for the requests in flight
// to be answered and their responses flushed, then closes the session with
// cause. It returns at once if the session is closed meanwhile.
func (s *Session) drainInput(cause error) {
	defer s.drainer.Done()
	ctx, cancel := context.WithTimeout(context.Background(), s.drain)
	defer cancel()
	if err := s.settle(ctx, cause); err != nil {
		s.logger.Warn("the input ended; requests still running after the drain timeout are cancelled", "timeout", s.drain)
	}
	s.shutdown(cause)
}

// flush writes out what the transport holds back (see transport.Flusher)
// before a graceful shutdown closes it, so that the last responses reach
// the peer. When ctx is done first it closes the session (which unblocks
// the write) and returns ctx's error.
func (s *Session) flush(ctx context.Context, cause error) error {
	f, ok := s.conn.(transport.Flusher)
	if !ok {
		return nil
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := f.Flush(); err != nil && !errors.Is(err, transport.ErrClosed) {
			s.logger.Warn("writing the last messages failed", "error", err)
		}
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		s.shutdown(cause)
		<-done
		return ctx.Err()
	}
}

// closeIdleLocked signals Shutdown that no request is in flight; s.mu held.
func (s *Session) closeIdleLocked() {
	select {
	case <-s.idle:
	default:
		close(s.idle)
	}
}

// requestDone accounts for the end of a request.
func (s *Session) requestDone() {
	if s.outstanding.Add(-1) == 0 && s.draining.Load() {
		s.mu.Lock()
		if s.idle != nil {
			s.closeIdleLocked()
		}
		s.mu.Unlock()
	}
}

// Wait blocks until the session has ended and all its goroutines have
// returned, and reports why it ended (nil when the peer closed the stream
// cleanly or Close was called).
func (s *Session) Wait() error {
	<-s.readerDone
	<-s.done // after the end of input, the session drains first
	s.drainer.Wait()
	s.handlers.Wait()
	err := s.Err()
	if errors.Is(err, ErrClosed) || isEOF(err) {
		return nil
	}
	return err
}

// shutdown ends the session once, recording cause.
func (s *Session) shutdown(cause error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.closeErr = cause
	s.mu.Unlock()
	closed := fmt.Errorf("%w: %w", ErrClosed, cause)
	s.cancel(closed)
	// The contexts of the requests in flight are not children of s.ctx
	// (see admitCall): cancel them here. None is added once closed is set.
	s.mu.Lock()
	for _, cancel := range s.inflight {
		cancel(closed)
	}
	s.mu.Unlock()
	s.pool.close()
	err := s.conn.Close()
	s.mu.Lock()
	s.connErr = err
	s.mu.Unlock()
	close(s.done)
}

// closedError is what a call gets once the session has ended.
func (s *Session) closedError() error {
	s.mu.Lock()
	err := s.closeErr
	if err == nil {
		err = s.inputErr
	}
	s.mu.Unlock()
	if err == nil || errors.Is(err, ErrClosed) {
		return ErrClosed
	}
	return fmt.Errorf("%w: %w", ErrClosed, err)
}
