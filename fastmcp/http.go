package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fastmcp-go/fastmcp/authinfo"
	"github.com/fastmcp-go/fastmcp/transport"
)

// HTTPConfig is what the server's MCP endpoints over HTTP take beside
// the Settings: where the legacy HTTP+SSE endpoints are, and the Streamable
// HTTP transport's stores and stream timing. Every limit, timeout and
// policy of the endpoints (Stateless, JSONResponse, JSONWindow,
// AllowedHosts, AllowedOrigins, MaxBodyBytes, ReadBodyTimeout,
// WriteTimeout, SessionIdleTimeout, MaxSessions, MaxStreamsPerSession,
// MaxListens) is a setting, given by its option, flag or FASTMCP_*
// variable (see Settings); the logger and the caller's principal are the
// Logger and HTTPPrincipal options. Change it with the HTTPEndpoints
// option.
type HTTPConfig struct {
	// SSEPath and MessagePath are the legacy HTTP+SSE endpoints (protocol
	// 2024-11-05). Defaults /sse and /message; with the Auth option, the
	// Path followed by /sse and /message (/mcp/sse, /mcp/message), so that
	// they lie under the protected resource, the only place where OAuth
	// clients accept its metadata (RFC 9728 §3.3).
	SSEPath, MessagePath string
	// NoSSE leaves the legacy endpoints out.
	NoSSE bool
	// Streamable is what the Streamable HTTP transport takes beside the
	// settings.
	Streamable StreamableConfig
}

// StreamableConfig is what the Streamable HTTP endpoint takes beside the
// Settings and the stores: the timing of its SSE streams. A field left
// zero takes the transport's default. Each field is described with the
// field of the same name in transport.HTTPOptions. The event store, the
// session store and the bus are the server's shared stores (SharedStores
// or the RedisURL setting), the one way to give them.
type StreamableConfig struct {
	// ProbeTimeout bounds how long a replica following another's stream
	// waits to hear that the request still runs. Zero:
	// transport.DefaultProbeTimeout.
	ProbeTimeout time.Duration
	// RetryInterval is the reconnection delay announced to clients in SSE
	// "retry:" fields. Zero: 1 second.
	RetryInterval time.Duration
	// KeepAlive is the interval of SSE comment lines on quiet streams.
	// Zero: 15 seconds; negative: none.
	KeepAlive time.Duration
}

// httpConfig holds HTTP front-door state set by options.
type httpConfig struct {
	routes    []route
	configure []func(*http.Server)
	endpoints []func(*HTTPConfig)
}

type route struct {
	pattern string
	handler http.Handler
}

// httpEndpoints are the server's MCP endpoints as an http.Handler: the
// Streamable HTTP handler and, beside it, the legacy SSE handler. Each way
// of serving HTTP builds its own and shuts it down.
type httpEndpoints struct {
	srv        *Server
	mux        *http.ServeMux
	streamable *transport.StreamableHandler
	sse        *transport.SSEHandler
	path       string // the Streamable HTTP endpoint (Settings.Path)
	cfg        HTTPConfig
	unshare    func() // forgets streamable among the handlers sharing sessions
}

func (h *httpEndpoints) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// shutdown stops taking new sessions and calls, ends the server's
// subscriptions/listen streams that arrived over HTTP with their final
// result (as the 2026-07-28 revision asks of a server that ends them), lets
// other calls in flight finish until ctx is done, and closes every stream
// and session. Listens that arrive meanwhile end at once; those of stdio
// sessions go on.
func (h *httpEndpoints) shutdown(ctx context.Context) error {
	// Undone once the endpoints are closed: they take no listen any more.
	defer h.srv.stopHTTPListeners(h.streamable)()
	err := h.streamable.Shutdown(ctx)
	if h.sse != nil {
		err = errors.Join(err, h.sse.Close())
	}
	return err
}

// close closes every stream and session at once.
func (h *httpEndpoints) close() error {
	h.unshare()
	err := h.streamable.Close()
	if h.sse != nil {
		err = errors.Join(err, h.sse.Close())
	}
	return err
}

// paths returns the paths served: the Streamable HTTP endpoint, then the
// legacy SSE and message endpoints unless NoSSE.
func (h *httpEndpoints) paths() []string {
	if h.cfg.NoSSE {
		return []string{h.path}
	}
	return []string{h.path, h.cfg.SSEPath, h.cfg.MessagePath}
}

// mounted is the httpEndpoints ServeHTTP serves, built on first use;
// Shutdown shuts it down.
type mounted struct {
	h       atomic.Pointer[httpEndpoints]
	mu      sync.Mutex // serialises building and shutting down
	err     error      // the settings error that prevents building
	closed  bool
	claimed bool // ServeHTTP claimed the server (see Server.claim)
}

// ServeHTTP makes the Server an http.Handler: it serves the MCP endpoints
// (Streamable HTTP at the Path setting, /mcp, for every protocol revision;
// the legacy HTTP+SSE transport at /sse and /message; see HTTPPath and
// HTTPEndpoints)
// and answers 404 to other paths. Mount it in any mux or router:
//
//	mux.Handle("/mcp", s) // Streamable HTTP only
//	mux.Handle("/", s)    // /mcp, /sse and /message
//
// The endpoints keep every protection (DNS-rebinding host and origin
// checks, body size limit and read deadline, sessions bound to their
// caller, the session, stream and listen limits). The first request starts
// the server (runs its Lifespan, unless Start already did) and builds the
// endpoints from the Settings; while that fails (an invalid setting, a
// Lifespan error: both logged) requests get 503. Shutdown stops them
// gracefully: it ends the listen streams, lets calls in flight finish until
// its context is done and closes every stream and session. What
// Run adds around the endpoints (/healthz, HandleHTTP routes,
// the http.Server timeouts) is then yours to provide. With the Auth option,
// the endpoints need a valid access token and the protected resource
// metadata is served at its well-known paths: mount the Server at "/", or
// at those paths too (see Auth).
//
// Mounting is one way of serving, and a Server serves once: while Run or
// ServeStdio serves it, or after one of them did, ServeHTTP answers 503 and
// logs ErrServerReused once; once a request reached ServeHTTP, Run and
// ServeStdio fail with ErrServerReused. Mount the same Server on several
// muxes or paths freely: that is still one way of serving it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := s.mounted.h.Load()
	if h == nil {
		var err error
		if h, err = s.mount(r.Context()); err != nil {
			unavailable(w, r)
			return
		}
	}
	h.ServeHTTP(w, r)
}

// unavailable answers 503 with a JSON-RPC error and closes the connection
// without reading what is left of r's body. net/http would otherwise read
// it (with no deadline) before it sends the answer, or after, to reuse the
// connection: a client trickling its body would hold the answer, and a
// graceful shutdown, for as long as it trickles.
func unavailable(w http.ResponseWriter, r *http.Request) {
	if r.Body != nil && r.Body != http.NoBody {
		// Reads of the body fail from now on; a ResponseWriter that
		// cannot set deadlines has nothing to hold.
		_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "1")
	w.Header().Set("Connection", "close")
	w.WriteHeader(http.StatusServiceUnavailable)
	io.WriteString(w, `{"jsonrpc":"2.0","error":{"code":-32603,"message":"Service unavailable: the server is starting or stopping"}}`)
}

// setUpAuth builds the Auth option, once, with the auth settings of set
// (the first call's), and returns why it cannot be built; without the
// Auth option, an auth setting is the error.
func (s *Server) setUpAuth(set *Settings) error {
	if s.cfg.auth == nil {
		return s.checkAuthSettings(set)
	}
	s.authOnce.Do(func() { s.auth, s.authErr = s.cfg.auth.build(s.cfg.auth, s, set) })
	return s.authErr
}

// mount starts the server and builds the endpoints ServeHTTP serves, once.
func (s *Server) mount(ctx context.Context) (*httpEndpoints, error) {
	m := &s.mounted
	m.mu.Lock()
	defer m.mu.Unlock()
	if h := m.h.Load(); h != nil {
		return h, nil
	}
	switch {
	case m.closed:
		return nil, ErrServerReused
	case m.err != nil:
		return nil, m.err
	}
	if !m.claimed {
		if err := s.claim(); err != nil {
			// Run or ServeStdio serves this Server, or did: mounting
			// it too would serve its state twice.
			m.err = err
			s.logger.Error("cannot serve MCP over HTTP (ServeHTTP)", "error", err)
			return nil, err
		}
		m.claimed = true
	}
	set, err := s.Settings()
	if err == nil {
		err = s.setUpAuth(&set)
	}
	if err != nil {
		m.err = err
		s.logger.Error("cannot serve MCP over HTTP", "error", err)
		return nil, err
	}
	// A failed start is tried again by the next request.
	if err := s.Start(context.WithoutCancel(ctx)); err != nil {
		s.logger.Error("cannot serve MCP over HTTP", "error", err)
		return nil, err
	}
	h := s.httpHandler(set)
	m.h.Store(h)
	return h, nil
}

// shutdownMounted shuts down the endpoints ServeHTTP serves, if it built
// them, and keeps it from building them afterwards.
func (s *Server) shutdownMounted(ctx context.Context) error {
	m := &s.mounted
	m.mu.Lock()
	m.closed = true
	h := m.h.Load()
	m.mu.Unlock()
	if h == nil {
		return nil
	}
	err := h.shutdown(ctx)
	return errors.Join(err, h.close())
}

// endpointConfig returns the endpoints' HTTPConfig: the defaults for
// path (the Path setting), the HTTPEndpoints options, then the server's
// shared stores where those chose none. It is the one place both the
// endpoints (httpHandler) and the subscription index (sharedOptions) take
// them from.
func (s *Server) endpointConfig(path string) HTTPConfig {
	cfg := HTTPConfig{SSEPath: "/sse", MessagePath: "/message"}
	if s.cfg.auth != nil {
		base := strings.TrimSuffix(path, "/")
		cfg.SSEPath, cfg.MessagePath = base+"/sse", base+"/message"
	}
	s.mu.Lock()
	configure := slices.Clone(s.cfg.http.endpoints)
	s.mu.Unlock()
	for _, fn := range configure {
		fn(&cfg)
	}
	return cfg
}

// httpOptions returns the Streamable HTTP transport's options: every
// limit and policy from the settings, the shared stores (sharedHTTP), the
// stream timing from st.
func (s *Server) httpOptions(set Settings, st StreamableConfig) transport.HTTPOptions {
	principal := s.cfg.httpPrincipal
	if principal == nil && s.cfg.auth != nil {
		principal = authinfo.PrincipalFromRequest // the token's issuer, subject and client
	}
	so := transport.HTTPOptions{
		Stateless:            set.Stateless,
		JSONResponse:         set.JSONResponse,
		JSONWindow:           set.JSONWindow, // negative: SSE always, as in the transport
		SessionIdleTimeout:   set.SessionIdleTimeout,
		MaxBodyBytes:         set.MaxBodyBytes,
		ReadBodyTimeout:      set.ReadBodyTimeout, // negative: no limit, as in the transport
		WriteTimeout:         set.WriteTimeout,
		AllowedHosts:         set.AllowedHosts,
		AllowedOrigins:       set.AllowedOrigins,
		MaxSessions:          set.MaxSessions,
		MaxStreamsPerSession: set.MaxStreamsPerSession,
		MaxListens:           set.MaxListens,
		Logger:               s.logger,
		Principal:            principal,
		ProbeTimeout:         st.ProbeTimeout,
		RetryInterval:        st.RetryInterval,
		KeepAlive:            st.KeepAlive,
	}
	s.sharedHTTP(&so)
	return so
}

// httpHandler builds the MCP endpoints with set and the HTTPEndpoints
// options applied.
func (s *Server) httpHandler(set Settings) *httpEndpoints {
	cfg := s.endpointConfig(set.Path)
	so := s.httpOptions(set, cfg.Streamable)
	h := &httpEndpoints{srv: s, mux: http.NewServeMux(), path: set.Path, cfg: cfg}
	h.streamable = transport.NewStreamableHandler(s.ll.Connect, &so)
	h.unshare = s.resources.subs.share(h.streamable)
	// Browser-based clients on the origins the DNS-rebinding policy admits
	// get CORS answers, preflights and 401 challenges included: CORS goes
	// in front of the token check, since a preflight carries no token.
	policy := &transport.HostPolicy{AllowedHosts: so.AllowedHosts, AllowedOrigins: so.AllowedOrigins}
	protect := policy.CORS
	if s.auth != nil {
		protect = func(next http.Handler) http.Handler { return policy.CORS(s.auth.protect(next)) }
	}
	h.mux.Handle(set.Path, protect(s.scopeGate(h.streamable, so.MaxBodyBytes, so.ReadBodyTimeout)))
	if !cfg.NoSSE {
		h.sse = transport.NewSSEHandler(s.ll.Connect, &transport.SSEOptions{
			MessagePath:     cfg.MessagePath,
			MaxBodyBytes:    so.MaxBodyBytes,
			ReadBodyTimeout: so.ReadBodyTimeout,
			WriteTimeout:    so.WriteTimeout,
			AllowedHosts:    so.AllowedHosts,
			AllowedOrigins:  so.AllowedOrigins,
			KeepAlive:       so.KeepAlive,
			Logger:          s.logger,
			Principal:       so.Principal,
			MaxSessions:     so.MaxSessions,
		})
		h.mux.Handle(cfg.SSEPath, protect(h.sse))
		h.mux.Handle(cfg.MessagePath, protect(h.sse))
	}
	if s.auth != nil {
		s.auth.serve(h.mux, s.logger)
	}
	return h
}

// HandleHTTP adds a route to the HTTP front door that Run serves, beside
// the MCP endpoints and /healthz: a health check, metrics, an OAuth
// callback. pattern is an http.ServeMux pattern. The MCP endpoints
// keep their own protections whatever the route does; wrap h with
// transport.HostPolicy's Handler to give it the same DNS-rebinding
// protection.
//
// HandleHTTP panics when pattern is not a valid pattern or conflicts with
// a route added before; a route that conflicts with the MCP endpoints
// (whose paths the settings may still change) makes Run fail with an
// error naming both.
func (s *Server) HandleHTTP(pattern string, h http.Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	routes := append(slices.Clone(s.cfg.http.routes), route{pattern, h})
	if err := addRoutes(http.NewServeMux(), routes); err != nil {
		panic(err)
	}
	s.cfg.http.routes = routes
}

// addRoutes adds routes to mux, turning the panic of an invalid or
// conflicting pattern into an error that says how to fix it.
func addRoutes(mux *http.ServeMux, routes []route) (err error) {
	var current string
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("fastmcp: HandleHTTP(%q): %v; give the route another pattern (or move the MCP endpoint with the HTTPPath option)", current, r)
		}
	}()
	for _, r := range routes {
		current = r.pattern
		mux.Handle(r.pattern, r.handler)
	}
	return nil
}

// frontDoor builds the mux Run serves over HTTP.
func (s *Server) frontDoor(mcp *httpEndpoints) (*http.ServeMux, error) {
	mux := http.NewServeMux()
	gated := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.Ready() {
			unavailable(w, r)
			return
		}
		mcp.ServeHTTP(w, r)
	})
	for _, p := range mcp.paths() {
		mux.Handle(p, gated)
	}
	healthz := true
	s.mu.Lock()
	routes := append([]route(nil), s.cfg.http.routes...)
	s.mu.Unlock()
	if err := addRoutes(mux, routes); err != nil {
		return nil, err
	}
	for _, r := range routes {
		if strings.TrimPrefix(strings.TrimPrefix(r.pattern, "GET "), "ANY ") == "/healthz" {
			healthz = false
		}
	}
	if s.auth != nil {
		// After the routes: one of them on the same path wins.
		s.auth.serve(mux, s.logger)
	}
	if healthz {
		mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			if !s.Ready() {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusServiceUnavailable)
				fmt.Fprintln(w, s.readiness())
				return
			}
			fmt.Fprintln(w, "ok")
		})
	}
	return mux, nil
}

// serveHTTP serves the HTTP front door on ln (nil: a listener on
// set.Addr) until ctx is done, then shuts down gracefully. The front door
// answers at once: /healthz says 503 and the MCP endpoints 503 until the
// Lifespan has run.
func (s *Server) serveHTTP(ctx context.Context, set Settings, ln net.Listener) error {
	srv, mcp, ln, err := s.buildHTTP(ctx, set, ln)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	errc := make(chan error, 1)
	wg.Go(func() {
		if srv.TLSConfig != nil {
			errc <- srv.ServeTLS(ln, "", "")
			return
		}
		errc <- srv.Serve(ln)
	})
	if err := s.Start(ctx); err != nil {
		srv.Close()
		mcp.close()
		wg.Wait()
		s.abandonStores()
		return err
	}
	// Logged once Ready: the stores are open and the Lifespan ran, so a
	// request sent on seeing this line is served.
	s.logger.Info("serving MCP over HTTP", "addr", ln.Addr().String(), "path", set.Path)
	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-errc:
	}
	// From here /healthz says 503 and new MCP requests get 503 with
	// Retry-After: a load balancer stops sending, a client asks another
	// replica.
	s.drain()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), set.ShutdownTimeout)
	defer cancel()
	shutErr := stopHTTP(sctx, srv, mcp)
	wg.Wait()
	if serveErr == nil {
		serveErr = <-errc
	}
	if errors.Is(serveErr, http.ErrServerClosed) {
		serveErr = nil
	}
	if err := s.Shutdown(sctx); err != nil {
		s.logger.Warn("shutdown", "error", err)
	}
	if shutErr != nil {
		s.logger.Warn("graceful shutdown cut short", "error", shutErr)
	}
	return serveErr
}

// buildHTTP opens the listener when ln is nil, opens the shared stores
// and builds the front door and the http.Server that serves it (with the
// HTTPServer options applied). On error it closes ln and what it built.
func (s *Server) buildHTTP(ctx context.Context, set Settings, ln net.Listener) (*http.Server, *httpEndpoints, net.Listener, error) {
	fail := func(err error) (*http.Server, *httpEndpoints, net.Listener, error) {
		if ln != nil {
			ln.Close()
		}
		return nil, nil, nil, err
	}
	if err := s.setUpAuth(&set); err != nil {
		return fail(err)
	}
	addr := ""
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", set.Addr); err != nil {
			return nil, nil, nil, fmt.Errorf("fastmcp: listening on %s: %w", set.Addr, err)
		}
		addr = set.Addr
	}
	hosts, err := allowedHosts(set, addr, ln.Addr())
	if err != nil {
		return fail(err)
	}
	set.AllowedHosts = hosts
	if err := s.openStores(ctx, set); err != nil {
		return fail(err)
	}
	mcp := s.httpHandler(set)
	front, err := s.frontDoor(mcp)
	if err != nil {
		mcp.close()
		return fail(err)
	}
	srv := &http.Server{
		Handler:           bodyDeadline(front, set.ReadBodyTimeout),
		ReadHeaderTimeout: max(set.ReadHeaderTimeout, 0), // http.Server's no limit is 0
		IdleTimeout:       max(set.IdleConnTimeout, 0),
		MaxHeaderBytes:    set.MaxHeaderBytes,
	}
	s.mu.Lock()
	configure := slices.Clone(s.cfg.http.configure)
	s.mu.Unlock()
	for _, fn := range configure {
		fn(srv)
	}
	return srv, mcp, ln, nil
}

// bodyDeadline gives the body of every request h serves d to arrive,
// counted from the start of the request (d < 0: no limit). The MCP
// endpoints read their bodies within the same deadline; this one bounds
// the bodies nobody reads — a request refused with 401, 403 or 503 before
// its body was read, or a route that ignores it — which net/http reads to
// the end, with no deadline, before it sends the answer or reuses the
// connection: a client trickling such a body held its connection, and a
// graceful shutdown, for as long as it trickled. Once a body has been read
// net/http lifts the deadline, so an answer's stream is not limited.
func bodyDeadline(h http.Handler, d time.Duration) http.Handler {
	if d < 0 {
		return h
	}
	if d == 0 {
		d = DefaultReadBodyTimeout
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			// A ResponseWriter that cannot set deadlines has none to set.
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
		}
		h.ServeHTTP(w, r)
	})
}

// stopHTTP shuts mcp, then srv, down until sctx is done: the MCP
// endpoints end their streams and drain their calls, then the http.Server
// shuts down. It returns what cut the graceful shutdown short.
func stopHTTP(sctx context.Context, srv *http.Server, mcp *httpEndpoints) error {
	// The MCP handler ends its streams and drains its calls first: long
	// streams would otherwise hold http.Server.Shutdown until the deadline.
	err := mcp.shutdown(sctx)
	if serr := srv.Shutdown(sctx); serr != nil {
		srv.Close()
		err = errors.Join(err, serr)
	}
	mcp.close()
	return err
}
