package lowlevel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"maps"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// Request is one incoming JSON-RPC request or notification as a Handler
// sees it: its Method, its raw Params (a json.RawMessage, decoded by the
// handler that knows their type), the parsed _meta, the protocol revision
// and Era it is served under, the Session it arrived on, and HTTP, what the
// HTTP transports knew of the HTTP request (nil over stdio). It is valid
// only while the handler runs; handlers must not modify it. It is defined
// in package session, whose engine builds it; fastmcp.Request is the same
// type.
type Request = session.Request

// A Handler serves one method of the table (Server.Handle), or every
// method when it is middleware's next. fastmcp.Handler is the same type.
//
// For a request, the result is encoded as the response's result (nil
// encodes as {}, a json.RawMessage is sent as is); a returned error becomes
// an error response: one wrapping a *protocol.Error keeps its code,
// anything else is an internal error (-32603). For a notification the
// return values are ignored.
//
// Requests are served concurrently, each on its own goroutine, with a ctx
// cancelled when the peer cancels the request or the session ends; after a
// cancellation no response is sent. Notifications are served one at a
// time, in order, on the session's reading goroutine, so a notification
// handler must not block. A panic in a handler is recovered, logged with
// its stack, and answered with an internal error.
type Handler = session.Handler

// HandlerFunc adapts a function to a Handler: HandlerFunc(f).Handle(ctx,
// req) calls f(ctx, req). fastmcp.HandlerFunc is the same type.
type HandlerFunc = session.HandlerFunc

// Middleware wraps a Handler: it gets the next Handler and returns one
// that runs around it, as net/http middleware does. Middleware installed
// with Use sees every request and notification the server receives,
// built-in methods (initialize, tools/call, ...) included; the first one
// installed runs outermost (it sees a request first and its result last).
// fastmcp.Middleware is the same type.
//
//	srv.Use(func(next lowlevel.Handler) lowlevel.Handler {
//		return lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
//			start := time.Now()
//			res, err := next.Handle(ctx, req)
//			log.Printf("%s took %v", req.Method, time.Since(start))
//			return res, err
//		})
//	})
type Middleware func(Handler) Handler

// Options configures a Server. The zero value is ready to use.
type Options struct {
	// Instructions are sent to clients in the initialize and server/discover
	// results: guidance for the model on how to use the server.
	Instructions string
	// Logger is used by the server and its sessions. Nil means slog.Default().
	Logger *slog.Logger
	// MaxConcurrency bounds how many requests one session serves at once.
	// Zero means session's default (64).
	MaxConcurrency int
	// CallTimeout bounds requests the server sends to clients. Zero means no
	// bound beyond the caller's context.
	CallTimeout time.Duration
	// CacheTTL and CacheScope are the cache hints (ttlMs, cacheScope) given
	// to modern results of cacheable methods (server/discover, the list
	// methods, resources/read, and the skills extension's skills/list and
	// skills/get) whose handler set none. Defaults: 0 (the
	// client should consider the result immediately stale) and "private"
	// (the scope that is always safe).
	CacheTTL   time.Duration
	CacheScope protocol.CacheScope
	// NoServerInfo leaves the server's identity out of modern results' _meta
	// (where the specification says a server SHOULD put it).
	NoServerInfo bool
}

// Server is a low-level MCP server: a table from JSON-RPC method to Handler,
// plus middleware, serving any number of sessions. It answers initialize
// (legacy revisions), server/discover (2026-07-28), ping and
// logging/setLevel itself unless a handler is registered for them, and gives
// modern (2026-07-28) results their resultType and the server's identity.
//
// Handlers may be registered at any time, also while serving. All methods
// are safe for concurrent use.
type Server struct {
	info   protocol.Implementation
	opts   Options
	logger *slog.Logger

	routes        atomic.Pointer[map[string]Handler]
	notifications atomic.Pointer[map[string]Handler]
	chain         atomic.Pointer[Handler]

	cacheTTL   string // `"ttlMs":N`
	cacheScope string // `"cacheScope":"..."`

	mu         sync.Mutex // guards writes to the tables below and capabilities
	middleware []Middleware
	caps       protocol.ServerCapabilities
	sessions   map[*session.Session]struct{}
}

// NewServer returns a server that identifies itself as info. opts may be nil.
func NewServer(info protocol.Implementation, opts *Options) *Server {
	s := &Server{info: info, sessions: map[*session.Session]struct{}{}}
	if opts != nil {
		s.opts = *opts
	}
	s.logger = s.opts.Logger
	if s.logger == nil {
		s.logger = slog.Default()
	}
	scope := s.opts.CacheScope
	if scope == "" {
		scope = protocol.CacheScopePrivate
	}
	s.cacheScope = `"cacheScope":"` + string(scope) + `"`
	s.cacheTTL = `"ttlMs":` + strconv.FormatInt(max(s.opts.CacheTTL.Milliseconds(), 0), 10)
	routes := map[string]Handler{}
	notes := map[string]Handler{}
	s.routes.Store(&routes)
	s.notifications.Store(&notes)
	s.rebuild()
	return s
}

// Info returns the server's identity.
func (s *Server) Info() protocol.Implementation { return s.info }

// Logger returns the server's logger.
func (s *Server) Logger() *slog.Logger { return s.logger }

// Handle registers h for requests of method, replacing any earlier handler.
func (s *Server) Handle(method string, h Handler) {
	if h == nil {
		panic("lowlevel: Handle(" + method + "): nil handler")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := maps.Clone(*s.routes.Load())
	m[method] = h
	s.routes.Store(&m)
}

// HandleFunc registers f for requests of method.
func (s *Server) HandleFunc(method string, f func(ctx context.Context, req *Request) (any, error)) {
	s.Handle(method, HandlerFunc(f))
}

// HandleNotification registers h for notifications of method. Notification
// handlers run in order on the session's reading goroutine and must not
// block.
func (s *Server) HandleNotification(method string, h Handler) {
	if h == nil {
		panic("lowlevel: HandleNotification(" + method + "): nil handler")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := maps.Clone(*s.notifications.Load())
	m[method] = h
	s.notifications.Store(&m)
}

// Remove unregisters the request handler of method.
func (s *Server) Remove(method string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := maps.Clone(*s.routes.Load())
	delete(m, method)
	s.routes.Store(&m)
}

// Handles reports whether a request handler is registered for method.
func (s *Server) Handles(method string) bool {
	_, ok := (*s.routes.Load())[method]
	return ok
}

// Lookup returns the request handler registered for method, as it was
// given to Handle (without the middleware). A feature that keeps its state
// in its handler finds it again this way, as the skills package does.
func (s *Server) Lookup(method string) (Handler, bool) {
	h, ok := (*s.routes.Load())[method]
	return h, ok
}

// Use appends middleware. The first middleware registered is the outermost:
// it sees a request first and its result last.
func (s *Server) Use(mw ...Middleware) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.middleware = append(s.middleware, mw...)
	s.rebuild()
}

// rebuild composes the middleware around the dispatcher; s.mu held (or
// during construction).
func (s *Server) rebuild() {
	var h Handler = HandlerFunc(s.dispatch)
	for i := len(s.middleware) - 1; i >= 0; i-- {
		h = s.middleware[i](h)
	}
	s.chain.Store(&h)
}

// SetCapabilities replaces the capabilities the server declares.
func (s *Server) SetCapabilities(caps protocol.ServerCapabilities) {
	s.mu.Lock()
	s.caps = caps
	s.mu.Unlock()
}

// UpdateCapabilities changes the declared capabilities under the server's
// lock: fn gets a pointer to them.
func (s *Server) UpdateCapabilities(fn func(*protocol.ServerCapabilities)) {
	s.mu.Lock()
	fn(&s.caps)
	s.mu.Unlock()
}

// Capabilities returns the capabilities the server declares.
func (s *Server) Capabilities() protocol.ServerCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

// Handler returns the Handler that serves requests through the
// middleware and the method table. Transports that run their own sessions
// use it; most users call ServeConn instead.
func (s *Server) Handler() Handler { return HandlerFunc(s.serve) }

func (s *Server) serve(ctx context.Context, req *Request) (any, error) {
	h := *s.chain.Load()
	res, err := h.Handle(ctx, req)
	if err != nil || req.Era != protocol.Modern || req.IsNotification() {
		return res, err
	}
	return s.decorate(req.Method, res)
}

// dispatch routes a request to its handler, falling back to the built-in
// methods.
func (s *Server) dispatch(ctx context.Context, req *Request) (any, error) {
	if req.IsNotification() {
		if h, ok := (*s.notifications.Load())[req.Method]; ok {
			return h.Handle(ctx, req)
		}
		return nil, nil
	}
	if req.Era.Dropped(req.Method) {
		return nil, fmt.Errorf("%w: %s is not part of protocol %s", protocol.ErrMethodNotFound, req.Method, req.Version)
	}
	if h, ok := (*s.routes.Load())[req.Method]; ok {
		return h.Handle(ctx, req)
	}
	switch req.Method {
	case protocol.MethodInitialize:
		return s.initialize(req), nil
	case protocol.MethodServerDiscover:
		return s.discover(req), nil
	case protocol.MethodPing:
		return nil, nil
	case protocol.MethodLoggingSetLevel:
		return s.setLevel(ctx, req)
	}
	return nil, fmt.Errorf("%w: %s", protocol.ErrMethodNotFound, req.Method)
}

func (s *Server) initialize(req *Request) *protocol.InitializeResult {
	return &protocol.InitializeResult{
		ProtocolVersion: req.Version,
		Capabilities:    s.Capabilities(),
		ServerInfo:      s.info,
		Instructions:    s.opts.Instructions,
	}
}

func (s *Server) discover(req *Request) *protocol.DiscoverResult {
	return &protocol.DiscoverResult{
		SupportedVersions: protocol.SupportedVersions(),
		Capabilities:      s.Capabilities(),
		Instructions:      s.opts.Instructions,
	}
}

// setLevel serves logging/setLevel. The level of a session shared between
// replicas is also kept in its record, where the other replicas serving
// the session, and those adopting it later, find it (see sharedLevel).
func (s *Server) setLevel(ctx context.Context, req *Request) (any, error) {
	var p protocol.SetLevelParams
	if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: %v", protocol.ErrInvalidParams, err)
	}
	if !p.Level.IsValid() {
		return nil, fmt.Errorf("%w: unknown logging level %q", protocol.ErrInvalidParams, p.Level)
	}
	req.Session.SetLogLevel(p.Level)
	if sh, ok := transport.Shared(req.Session.Conn()); ok {
		// As before the level was kept in the record: a failure is logged
		// and the level applies on this replica.
		raw, _ := json.Marshal(p.Level) // a string
		if err := sh.SetState(context.WithoutCancel(ctx), stateLogLevel, raw); err != nil {
			s.logger.Warn("lowlevel: recording the session's log level failed", "session", sh.ID(), "error", err)
		}
	}
	return nil, nil
}

// stateLogLevel names the member of a shared session's state
// (transport.SharedSession) that holds its logging/setLevel level.
const stateLogLevel = "logLevel"

// sharedLevel returns the level a shared session's state holds, or "".
func sharedLevel(v json.RawMessage) protocol.LoggingLevel {
	var l protocol.LoggingLevel
	if v == nil || protocol.Unmarshal(v, &l) != nil || !l.IsValid() {
		return ""
	}
	return l
}

// watchLevel keeps the level of sess, a session shared between replicas,
// the one set last on any replica serving it.
func watchLevel(sh transport.SharedSession, sess *session.Session) {
	sh.Watch(func(name string, v json.RawMessage) {
		if l := sharedLevel(v); name == stateLogLevel && l != "" {
			sess.SetLogLevel(l)
		}
	})
}

// decorate gives a modern result its resultType ("complete" unless the
// handler set one) and the server's identity in _meta. A complete result of a
// cacheable method gets the ttlMs and cacheScope that 2026-07-28 requires,
// unless the handler set them: 0 (immediately stale, what a client assumes
// when ttlMs is absent) and "private" (the scope that is always safe).
func (s *Server) decorate(method string, res any) (any, error) {
	raw, err := session.EncodeResult(res)
	if err != nil {
		return nil, err
	}
	var typed, complete, hasScope, hasTTL bool
	for name, v := range protocol.Members(raw) {
		switch name {
		case "resultType":
			typed, complete = true, string(v) == `"complete"`
		case "cacheScope":
			hasScope = true
		case "ttlMs":
			hasTTL = true
		}
	}
	// The members the result lacks go first, in one copy.
	var front []string
	if !typed {
		front = append(front, `"resultType":"complete"`)
	}
	if cacheable[method] && (!typed || complete) {
		if !hasTTL {
			front = append(front, s.cacheTTL)
		}
		if !hasScope {
			front = append(front, s.cacheScope)
		}
	}
	if len(front) > 0 {
		raw = jsonobj.InsertFirst(raw, strings.Join(front, ","))
	}
	if !s.opts.NoServerInfo {
		if raw, err = protocol.SetMeta(raw, protocol.MetaServerInfo, s.info); err != nil {
			return nil, err
		}
	}
	return raw, nil
}

// cacheable lists the methods whose results are cacheable results in
// 2026-07-28.
var cacheable = map[string]bool{
	protocol.MethodServerDiscover:         true,
	protocol.MethodToolsList:              true,
	protocol.MethodPromptsList:            true,
	protocol.MethodResourcesList:          true,
	protocol.MethodResourcesTemplatesList: true,
	protocol.MethodResourcesRead:          true,
	protocol.MethodSkillsList:             true, // the skills extension (SEP-2640)
	protocol.MethodSkillsGet:              true,
}

// NewSession starts serving conn in a new session and returns it. The
// session is tracked (see Sessions) until it ends. opts adjust this
// session's settings.
func (s *Server) NewSession(conn transport.Conn, opts ...SessionOption) *session.Session {
	return s.newSession(conn, "", opts...)
}

// A SessionOption adjusts the settings of one session NewSession starts.
type SessionOption func(*session.Options)

// DrainTimeout bounds how long the requests a session read before the
// client ended its input (closed the server's stdin) may still run so that
// they are answered; see session.Options.DrainTimeout.
func DrainTimeout(d time.Duration) SessionOption {
	return func(o *session.Options) { o.DrainTimeout = d }
}

// Connect starts serving conn in a new session as info describes (a
// stateless HTTP request starts already initialized at info.Version; a
// session adopted from another replica, already initialized as the
// client initialized it there) and returns at once. It is the connect
// function the HTTP transports take:
//
//	mux.Handle("/mcp", transport.NewStreamableHandler(srv.Connect, nil))
func (s *Server) Connect(conn transport.Conn, info transport.ConnInfo) {
	sh, shared := transport.Shared(conn)
	if info.Adopted == nil && info.RequestIDPrefix == "" && !shared {
		s.newSession(conn, info.Version)
		return
	}
	sess := s.newSession(conn, info.Version, func(o *session.Options) {
		o.RequestIDPrefix = info.RequestIDPrefix
		if shared {
			o.LogLevel = sharedLevel(sh.State(stateLogLevel))
		}
		if a := info.Adopted; a != nil {
			o.Version = a.Version
			var p protocol.InitializeParams
			if len(a.InitializeParams) > 0 {
				if err := protocol.Unmarshal(a.InitializeParams, &p); err != nil {
					s.logger.Warn("adopted session: the stored initialize params do not decode", "session", info.SessionID, "error", err)
				}
			}
			o.Initialized = &p
		}
	})
	if shared {
		watchLevel(sh, sess)
	}
}

func (s *Server) newSession(conn transport.Conn, version string, opts ...SessionOption) *session.Session {
	so := session.Options{
		Role:           session.RoleServer,
		Handler:        s.Handler(),
		Logger:         s.logger,
		MaxConcurrency: s.opts.MaxConcurrency,
		CallTimeout:    s.opts.CallTimeout,
		Version:        version,
	}
	for _, o := range opts {
		o(&so)
	}
	// The session is registered under the same lock it starts under: it
	// may answer initialize at once, and a Broadcast that follows the
	// answer (a list change right after the client connected) must find it.
	s.mu.Lock()
	sess := session.New(conn, so)
	s.sessions[sess] = struct{}{}
	s.mu.Unlock()
	context.AfterFunc(sess.Context(), func() {
		s.mu.Lock()
		delete(s.sessions, sess)
		s.mu.Unlock()
	})
	return sess
}

// ServeConn serves conn until the peer goes away or ctx is done, then closes
// the session and waits for its handlers. It returns nil when the peer
// closed the connection cleanly or ctx was cancelled.
func (s *Server) ServeConn(ctx context.Context, conn transport.Conn) error {
	sess := s.NewSession(conn)
	stop := context.AfterFunc(ctx, func() { sess.Close() })
	defer stop()
	err := sess.Wait()
	sess.Close()
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// Sessions iterates over the sessions being served.
func (s *Server) Sessions() iter.Seq[*session.Session] {
	s.mu.Lock()
	list := make([]*session.Session, 0, len(s.sessions))
	for sess := range s.sessions {
		list = append(list, sess)
	}
	s.mu.Unlock()
	return func(yield func(*session.Session) bool) {
		for _, sess := range list {
			if !yield(sess) {
				return
			}
		}
	}
}

// Broadcast sends a notification to every initialized legacy session. It
// returns the errors of the sessions it could not reach, joined. The
// notification is marked as sent to every session by every replica
// (transport.WithBroadcast), so that a session that several replicas
// serve gets it once.
func (s *Server) Broadcast(ctx context.Context, method string, params any) error {
	ctx = transport.WithBroadcast(ctx)
	var errs []error
	for sess := range s.Sessions() {
		if !sess.Initialized() {
			continue
		}
		if err := sess.Notify(ctx, method, params); err != nil && !errors.Is(err, session.ErrClosed) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
