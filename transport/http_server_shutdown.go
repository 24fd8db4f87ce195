package transport

import (
	"context"
)

func (h *StreamableHandler) isClosing() bool { return h.closing.Load() }

func (h *StreamableHandler) callStarted() { h.calls.Add(1) }

func (h *StreamableHandler) callEnded() {
	if h.calls.Add(-1) != 0 {
		return
	}
	h.drainMu.Lock()
	if h.drained != nil {
		close(h.drained)
		h.drained = nil
	}
	h.drainMu.Unlock()
}

// Shutdown stops the handler gracefully: new sessions and new requests are
// refused with 503 (notifications and responses for existing sessions are
// still accepted, so calls in flight can finish; a body that starts
// arriving from now on has a second to arrive), request bodies still
// arriving are cut short and answered 503 (their request had not
// started; a trickled body no longer holds the shutdown), then once every request
// in flight has been answered, or ctx is done, every session is closed as
// by Close. It returns ctx's error if ctx ended first.
//
// http.Server.Shutdown waits for open SSE streams to end; call this
// Shutdown first (or from http.Server.RegisterOnShutdown) so they do.
func (h *StreamableHandler) Shutdown(ctx context.Context) error {
	h.mu.Lock()
	h.closing.Store(true)
	h.mu.Unlock()
	h.arrivals.cutAll()
	h.drainMu.Lock()
	var wait chan struct{}
	if h.calls.Load() > 0 {
		if h.drained == nil {
			h.drained = make(chan struct{})
		}
		wait = h.drained
	}
	h.drainMu.Unlock()
	var err error
	if wait != nil {
		select {
		case <-wait:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	h.Close()
	return err
}

// Close stops the handler at once: it closes every session (ending their
// Conns and SSE streams) and every stateless request in flight, and stops
// the expiry timer. Later requests get 503 (or 404 for a session id).
func (h *StreamableHandler) Close() error {
	h.arrivals.cutAll()
	h.mu.Lock()
	h.closing.Store(true)
	h.closed = true
	if h.sweep != nil {
		h.sweep.Stop()
		h.sweep = nil
	}
	sessions := make([]*httpSession, 0, len(h.sessions))
	for _, s := range h.sessions {
		sessions = append(sessions, s)
	}
	shots := make([]*oneShot, 0, len(h.oneShots))
	for c := range h.oneShots {
		shots = append(shots, c)
	}
	h.mu.Unlock()
	for _, s := range sessions {
		s.Close()
	}
	for _, c := range shots {
		c.Close()
	}
	return nil
}
