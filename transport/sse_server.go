package transport

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// SSEOptions configures an SSEHandler. The zero value is ready to use.
type SSEOptions struct {
	// MessagePath is the URL (usually a path) clients POST their messages
	// to, announced in the endpoint event with "?sessionId=<id>" appended.
	// A relative value is resolved by clients against the URL of the GET.
	// Empty means the path of the GET request itself (as the client sent
	// it), so one handler mounted at one path serves both.
	MessagePath string
	// MaxBodyBytes bounds the size of a POST body; a larger body gets 413.
	// Zero means DefaultMaxMessageSize (4 MiB).
	MaxBodyBytes int64
	// ReadBodyTimeout bounds how long a POST body may take to arrive, as
	// in HTTPOptions. Zero means DefaultReadBodyTimeout; negative means no
	// limit.
	ReadBodyTimeout time.Duration
	// WriteTimeout bounds how long the client may take none of the
	// stream's bytes, as in HTTPOptions. Zero means DefaultWriteTimeout;
	// negative means no limit.
	WriteTimeout time.Duration
	// AllowedHosts, AllowedOrigins and DisableHostCheck configure the
	// DNS-rebinding protection, as in HTTPOptions.
	AllowedHosts, AllowedOrigins []string
	DisableHostCheck             bool
	// KeepAlive is the interval of SSE comment lines on a quiet stream.
	// Zero means 15 seconds; negative disables them.
	KeepAlive time.Duration
	// Logger receives diagnostics. Nil means slog.Default().
	Logger *slog.Logger

	// Principal identifies the caller of a request, as in HTTPOptions: a
	// session is bound to the principal of the GET that opened it, and a
	// POST for it with another principal gets 404. Nil means
	// DefaultPrincipal.
	Principal func(*http.Request) string
	// MaxSessions bounds the sessions (open streams) at once; a GET past
	// it gets 503 with a JSON-RPC error. Zero means DefaultMaxSessions;
	// negative means no limit.
	MaxSessions int
}

// SSEHandler serves the legacy HTTP+SSE transport of protocol revision
// 2024-11-05, for old clients. A GET opens a session: the response is an
// SSE stream whose first event, "endpoint", gives the URL to POST messages
// to (carrying a sessionId query parameter); the server's messages follow
// as "message" events. A POST with a known sessionId gets 202 Accepted and
// its answer arrives on the stream; a sessionId that is unknown, or whose
// session another principal opened (see SSEOptions.Principal), gets 404.
// The session (its Conn, handed to connect) ends when the stream's
// connection closes.
//
// Mount it at both the SSE path and the message path (or at one path used
// for both), beside a StreamableHandler if you like:
//
//	sse := transport.NewSSEHandler(srv.Connect, &transport.SSEOptions{MessagePath: "/message"})
//	mux.Handle("/sse", sse)
//	mux.Handle("/message", sse)
//
// It starts no goroutines of its own. All methods are safe for concurrent
// use.
type SSEHandler struct {
	connect func(Conn, ConnInfo)
	opts    SSEOptions
	// arrivals holds the POST bodies still arriving (Close cuts them).
	arrivals arrivals
	policy   HostPolicy
	logger   *slog.Logger

	mu       sync.Mutex
	sessions map[string]*sseSession
	closed   bool

	limitLog limitWarner
}

// NewSSEHandler returns a handler for the legacy HTTP+SSE transport that
// serves each session in a Conn passed to connect, which must start
// serving it and return at once. opts may be nil.
func NewSSEHandler(connect func(Conn, ConnInfo), opts *SSEOptions) *SSEHandler {
	if connect == nil {
		panic("transport: NewSSEHandler: nil connect function")
	}
	h := &SSEHandler{connect: connect, sessions: map[string]*sseSession{}}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.MaxBodyBytes <= 0 {
		h.opts.MaxBodyBytes = DefaultMaxMessageSize
	}
	if h.opts.WriteTimeout == 0 {
		h.opts.WriteTimeout = DefaultWriteTimeout
	}
	if h.opts.ReadBodyTimeout == 0 {
		h.opts.ReadBodyTimeout = DefaultReadBodyTimeout
	}
	if h.opts.KeepAlive == 0 {
		h.opts.KeepAlive = 15 * time.Second
	}
	if h.opts.Principal == nil {
		h.opts.Principal = DefaultPrincipal
	}
	h.opts.MaxSessions = limitOrDefault(h.opts.MaxSessions, DefaultMaxSessions)
	h.logger = h.opts.Logger
	if h.logger == nil {
		h.logger = slog.Default()
	}
	h.policy = HostPolicy{AllowedHosts: h.opts.AllowedHosts, AllowedOrigins: h.opts.AllowedOrigins}
	return h
}

// sseSession is the Conn of one legacy SSE session.
type sseSession struct {
	chanConn // input from POSTs; Read
	id       string
	out      chan outEvent
	h        *SSEHandler

	principal string // the caller that opened the session
}

func (s *sseSession) Write(ctx context.Context, msg protocol.Message) error {
	if s.isClosed() {
		return ErrClosed
	}
	buf := getBuf()
	b, err := protocol.AppendMessage(*buf, msg)
	if err != nil || len(b) == 0 {
		putBuf(buf)
		if err != nil {
			return fmt.Errorf("transport: encoding message: %w", err)
		}
		return nil // an empty batch: nothing to send
	}
	*buf = b
	return sendOrFree(ctx, s.out, outEvent{data: buf}, buf, s.done)
}

func (s *sseSession) Close() error {
	s.shut(func() {
		s.h.mu.Lock()
		delete(s.h.sessions, s.id)
		s.h.mu.Unlock()
	})
	return nil
}

// ServeHTTP implements http.Handler.
func (h *SSEHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.opts.DisableHostCheck && !h.policy.admit(w, r) {
		return
	}
	w, end := withWriteTimeout(w, h.opts.WriteTimeout)
	defer end()
	switch r.Method {
	case http.MethodGet:
		h.serveStream(w, r)
	case http.MethodPost:
		h.serveMessage(w, r)
	default:
		w.Header().Set("Allow", "GET, POST")
		writeJSONError(w, http.StatusMethodNotAllowed, protocol.ID{}, protocol.NewError(protocol.CodeInvalidRequest, "Method not allowed: "+r.Method))
	}
}

func (h *SSEHandler) serveStream(w http.ResponseWriter, r *http.Request) {
	if !accepts(r.Header.Values("Accept"), mediaSSE) {
		writeJSONError(w, http.StatusNotAcceptable, protocol.ID{}, protocol.NewError(protocol.CodeInvalidRequest, "Not Acceptable: the client must accept text/event-stream"))
		return
	}
	principal := h.opts.Principal(r)
	s := &sseSession{chanConn: newChanConn(16), id: newSessionID(), principal: principal, out: make(chan outEvent, 16), h: h}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		writeJSONError(w, http.StatusServiceUnavailable, protocol.ID{}, errShuttingDown)
		return
	}
	if limit := h.opts.MaxSessions; limit > 0 && len(h.sessions) >= limit {
		h.mu.Unlock()
		h.limitLog.warn(h.logger, "refusing a new MCP HTTP+SSE session: the session limit is reached", "MaxSessions", limit)
		writeJSONError(w, http.StatusServiceUnavailable, protocol.ID{}, errTooManySessions(limit))
		return
	}
	h.sessions[s.id] = s
	h.mu.Unlock()
	defer s.Close()
	h.connect(s, ConnInfo{SessionID: s.id, Principal: principal})

	endpoint := h.opts.MessagePath
	if endpoint == "" {
		endpoint, _, _ = strings.Cut(r.RequestURI, "?")
		if endpoint == "" || strings.Contains(endpoint, "://") {
			endpoint = r.URL.Path
		}
	}
	endpoint += "?sessionId=" + url.QueryEscape(s.id)

	setSSEHeaders(w)
	w.WriteHeader(http.StatusOK)
	out := getBuf()
	defer putBuf(out)
	sw := newSSEWriter(w, out, "")
	*out = appendSSEEvent(*out, "endpoint", endpoint)
	if !sw.flush() {
		return
	}
	ticks := newKeepAliveTicks(h.opts.KeepAlive)
	defer ticks.stop()
	for {
		select {
		case ev := <-s.out:
			sw.batch(ev, s.out) // never final: the stream lasts as long as the session
		case <-ticks.C:
			sw.keepAlive()
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
		if !sw.flush() {
			return
		}
	}
}

func (h *SSEHandler) serveMessage(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("sessionId")
	if id == "" {
		badRequest(w, protocol.ID{}, "missing sessionId query parameter")
		return
	}
	h.mu.Lock()
	s := h.sessions[id]
	h.mu.Unlock()
	// Another caller's session is answered as one that does not exist.
	if s == nil || !samePrincipal(s.principal, h.opts.Principal(r)) {
		writeJSONError(w, http.StatusNotFound, protocol.ID{}, errNoSession)
		return
	}
	msg, ok := readMessage(w, r, h.opts.MaxBodyBytes, h.opts.ReadBodyTimeout, &h.arrivals)
	if !ok {
		return
	}
	setExtra(msg, requestInfo(r, s.id, s.principal))
	switch err := s.put(r.Context(), msg); {
	case err == nil:
		w.WriteHeader(http.StatusAccepted)
	case errors.Is(err, ErrClosed):
		writeJSONError(w, http.StatusNotFound, protocol.ID{}, errNoSession)
	}
}

// Close ends every session (their streams and Conns) and cuts short the
// message bodies still arriving (503). Later GETs get 503.
func (h *SSEHandler) Close() error {
	h.arrivals.cutAll()
	h.mu.Lock()
	h.closed = true
	list := make([]*sseSession, 0, len(h.sessions))
	for _, s := range h.sessions {
		list = append(list, s)
	}
	h.mu.Unlock()
	for _, s := range list {
		s.Close()
	}
	return nil
}
