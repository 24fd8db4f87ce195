package session

import (
	"runtime/debug"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// notification handles an incoming notification on the reading goroutine.
func (s *Session) notification(m *protocol.Request) {
	switch m.Method {
	case protocol.NotificationCancelled:
		var p protocol.CancelledParams
		if err := protocol.Unmarshal(jsonobj.OrEmpty(m.Params), &p); err != nil {
			s.logger.Warn("bad notifications/cancelled", "error", err)
			return
		}
		s.mu.Lock()
		cancel := s.inflight[p.RequestID]
		s.mu.Unlock()
		if cancel != nil {
			cancel(ErrCancelledByPeer)
		}
		return
	case protocol.NotificationProgress:
		var p protocol.ProgressParams
		if err := protocol.Unmarshal(jsonobj.OrEmpty(m.Params), &p); err == nil {
			s.mu.Lock()
			fn := s.progress[p.ProgressToken]
			s.mu.Unlock()
			if fn != nil {
				s.safely(m.Method, func() { fn(&p) })
				return
			}
		}
	case protocol.NotificationInitialized:
		s.mu.Lock()
		if s.role == RoleServer && s.state == stateInitialized {
			s.state = stateReady
		}
		s.mu.Unlock()
	}
	if s.handler == nil {
		return
	}
	meta, _ := m.Meta()
	req := &Request{Session: s, Method: m.Method, Params: m.Params, Meta: meta, HTTP: httpInfo(m)}
	s.mu.Lock()
	req.Version = s.version
	s.mu.Unlock()
	if v := meta.ProtocolVersion; protocol.EraOf(v) == protocol.Modern {
		req.Version, req.Era = v, protocol.Modern
	}
	s.safely(m.Method, func() { _, _ = s.handler.Handle(s.ctx, req) })
}

func (s *Session) safely(method string, fn func()) {
	defer func() {
		if r := recover(); r != nil {
			s.logger.Error("notification handler panicked", "method", method, "panic", r, "stack", string(debug.Stack()))
		}
	}()
	fn()
}
