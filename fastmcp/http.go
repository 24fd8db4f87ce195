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

	"github.com/fastmcp-go/fastmcp/authinfo"
	"github.com/fastmcp-go/fastmcp/transport"
)

// HTTPConfig configures the server's MCP endpoints over HTTP, as
// ServeHTTP, ListenAndServe, ServeListener and Run serve them. Its zero
// value serves Streamable HTTP at the Path setting (HTTPPath, /mcp) and
// the legacy HTTP+SSE transport at /sse and /message (with the Auth
// option, under the Path: /mcp/sse and /mcp/message), with the server's Settings (Stateless, JSONResponse,
// AllowedHosts, AllowedOrigins, MaxBodyBytes, ReadBodyTimeout, WriteTimeout, JSONWindow,
// SessionIdleTimeout and the limits) applied. Change it with the
// HTTPEndpoints option.
type HTTPConfig struct {
	// SSEPath and MessagePath are the legacy HTTP+SSE endpoints (protocol
	// 2024-11-05). Defaults /sse and /message; with the Auth option, the
	// Path followed by /sse and /message (/mcp/sse, /mcp/message), so that
	// they lie under the protected resource, the only place where OAuth
	// clients accept its metadata (RFC 9728 §3.3).
	SSEPath, MessagePath string
	// NoSSE leaves the legacy endpoints out.
	NoSSE bool
	// Streamable configures the Streamable HTTP transport (session
	// expiry, body limit, keep-alives...); fields left zero take the
	// server's Settings, then the transport's defaults. Its EventStore,
	// Sessions and Bus are the server's shared stores (SharedStores or
	// the RedisURL setting): values set here are replaced, with a warning.
	Streamable transport.HTTPOptions
}

// HTTPEndpoints gives fn the HTTPConfig of the server's MCP endpoints,
// with the defaults filled in, before they are built: move the legacy SSE
// endpoints or leave them out, or set transport options (keep-alives,
// probe timeouts...). Several HTTPEndpoints options run in order.
func HTTPEndpoints(fn func(*HTTPConfig)) Option {
	return serverOption(func(c *serverConfig) { c.http.endpoints = append(c.http.endpoints, fn) })
}

// httpConfig holds HTTP front-door state set by options.
type httpConfig struct {
	routes    []route
	configure []func(*http.Server)
	endpoints []func(*HTTPConfig)
}

// HTTPServer gives fn the *http.Server that Run, ListenAndServe and
// ServeListener build, with the settings applied (ReadHeaderTimeout,
// IdleConnTimeout, MaxHeaderBytes), before it serves: set TLSConfig (with
// certificates or GetCertificate; the server then serves HTTPS), ErrorLog,
// ConnState, BaseContext, HTTP/2 settings, or wrap Handler in middleware.
// Leave Addr alone (use the Addr setting) and do not start or stop the
// server yourself. Several HTTPServer options run in order.
//
// To own the http.Server entirely, mount the Server in it instead (it is an
// http.Handler); the body limits and DNS-rebinding protection come with it,
// the connection timeouts are then yours to set.
func HTTPServer(fn func(*http.Server)) Option {
	return serverOption(func(c *serverConfig) { c.http.configure = append(c.http.configure, fn) })
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
	h      atomic.Pointer[httpEndpoints]
	mu     sync.Mutex // serialises building and shutting down
	err    error      // the settings error that prevents building
	closed bool
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
// ListenAndServe adds around the endpoints (/healthz, HandleHTTP routes,
// the http.Server timeouts) is then yours to provide. With the Auth option,
// the endpoints need a valid access token and the protected resource
// metadata is served at its well-known paths: mount the Server at "/", or
// at those paths too (see Auth).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := s.mounted.h.Load()
	if h == nil {
		var err error
		if h, err = s.mount(r.Context()); err != nil {
			unavailable(w)
			return
		}
	}
	h.ServeHTTP(w, r)
}

// unavailable answers 503 with a JSON-RPC error.
func unavailable(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", "1")
	w.WriteHeader(http.StatusServiceUnavailable)
	io.WriteString(w, `{"jsonrpc":"2.0","error":{"code":-32603,"message":"Service unavailable: the server is starting or stopping"}}`)
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
		return nil, ErrServerClosed
	case m.err != nil:
		return nil, m.err
	}
	set, err := s.Settings()
	if err == nil {
		err = s.authErr
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

// endpointConfig applies the HTTPEndpoints options to cfg and gives its
// Streamable HTTP options the server's shared stores: the one place both
// the endpoints and the subscription index (sharedOptions) take them from.
func (s *Server) endpointConfig(cfg *HTTPConfig) {
	s.mu.Lock()
	configure := slices.Clone(s.cfg.http.endpoints)
	s.mu.Unlock()
	for _, fn := range configure {
		fn(cfg)
	}
	s.sharedHTTP(&cfg.Streamable)
}

// httpHandler builds the MCP endpoints with set and the HTTPEndpoints
// options applied.
func (s *Server) httpHandler(set Settings) *httpEndpoints {
	cfg := HTTPConfig{SSEPath: "/sse", MessagePath: "/message"}
	if s.auth != nil {
		base := strings.TrimSuffix(set.Path, "/")
		cfg.SSEPath, cfg.MessagePath = base+"/sse", base+"/message"
	}
	s.endpointConfig(&cfg)
	so := cfg.Streamable
	so.Stateless = so.Stateless || set.Stateless
	so.JSONResponse = so.JSONResponse || set.JSONResponse
	if so.AllowedHosts == nil {
		so.AllowedHosts = set.AllowedHosts
	}
	if so.AllowedOrigins == nil {
		so.AllowedOrigins = set.AllowedOrigins
	}
	if so.Logger == nil {
		so.Logger = s.logger
	}
	if so.MaxBodyBytes == 0 {
		so.MaxBodyBytes = set.MaxBodyBytes
	}
	if so.ReadBodyTimeout == 0 {
		so.ReadBodyTimeout = set.ReadBodyTimeout // negative: no limit, as in the transport
	}
	if so.WriteTimeout == 0 {
		so.WriteTimeout = set.WriteTimeout // negative: no limit, as in the transport
	}
	if so.JSONWindow == 0 {
		so.JSONWindow = set.JSONWindow // negative: SSE always, as in the transport
	}
	if so.Principal == nil {
		so.Principal = s.cfg.httpPrincipal
	}
	if so.Principal == nil && s.auth != nil {
		so.Principal = authinfo.PrincipalFromRequest // the token's issuer, subject and client
	}
	if so.SessionIdleTimeout == 0 {
		so.SessionIdleTimeout = set.SessionIdleTimeout
	}
	if so.MaxSessions == 0 {
		so.MaxSessions = set.MaxSessions
	}
	if so.MaxStreamsPerSession == 0 {
		so.MaxStreamsPerSession = set.MaxStreamsPerSession
	}
	if so.MaxListens == 0 {
		so.MaxListens = set.MaxListens
	}
	cfg.Streamable = so
	h := &httpEndpoints{srv: s, mux: http.NewServeMux(), path: set.Path, cfg: cfg}
	h.streamable = transport.NewStreamableHandler(s.ll.Connect, &so)
	h.unshare = s.resources.subs.share(h.streamable)
	// Browser-based clients on the origins the DNS-rebinding policy admits
	// get CORS answers, preflights and 401 challenges included: CORS goes
	// in front of the token check, since a preflight carries no token.
	policy := &transport.HostPolicy{AllowedHosts: so.AllowedHosts, AllowedOrigins: so.AllowedOrigins}
	if so.DisableHostCheck {
		policy = &transport.HostPolicy{AllowedHosts: []string{"*"}, AllowedOrigins: []string{"*"}}
	}
	protect := policy.CORS
	if s.auth != nil {
		protect = func(next http.Handler) http.Handler { return policy.CORS(s.auth.protect(next)) }
	}
	h.mux.Handle(set.Path, protect(s.scopeGate(h.streamable, so.MaxBodyBytes, so.ReadBodyTimeout)))
	if !cfg.NoSSE {
		h.sse = transport.NewSSEHandler(s.ll.Connect, &transport.SSEOptions{
			MessagePath:      cfg.MessagePath,
			MaxBodyBytes:     so.MaxBodyBytes,
			ReadBodyTimeout:  so.ReadBodyTimeout,
			WriteTimeout:     so.WriteTimeout,
			AllowedHosts:     so.AllowedHosts,
			AllowedOrigins:   so.AllowedOrigins,
			DisableHostCheck: so.DisableHostCheck,
			KeepAlive:        so.KeepAlive,
			Logger:           s.logger,
			Principal:        so.Principal,
			MaxSessions:      so.MaxSessions,
		})
		h.mux.Handle(cfg.SSEPath, protect(h.sse))
		h.mux.Handle(cfg.MessagePath, protect(h.sse))
	}
	if s.auth != nil {
		s.auth.serve(h.mux, s.logger)
	}
	return h
}

// HandleHTTP adds a route to the HTTP front door that Run, ListenAndServe
// and ServeListener serve, beside the MCP endpoints and /healthz: a health check, metrics,
// an OAuth callback. pattern is an http.ServeMux pattern. The MCP endpoints
// keep their own protections whatever the route does; wrap h with
// transport.HostPolicy's Handler to give it the same DNS-rebinding
// protection.
//
// HandleHTTP panics when pattern is not a valid pattern or conflicts with
// a route added before; a route that conflicts with the MCP endpoints
// (whose paths the settings may still change) makes Run, ListenAndServe
// and ServeListener fail with an error naming both.
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

// frontDoor builds the mux Run and ListenAndServe serve.
func (s *Server) frontDoor(mcp *httpEndpoints) (*http.ServeMux, error) {
	mux := http.NewServeMux()
	gated := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.Ready() {
			unavailable(w)
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

// ListenAndServe listens on addr and serves the HTTP front door there (the
// MCP endpoints, /healthz and the routes added with HandleHTTP) until ctx
// is done, then shuts down gracefully: the listener stops, calls in flight
// finish within the ShutdownTimeout setting, SSE streams close, and the
// Lifespan cleanup runs. It returns nil after a graceful shutdown.
// Listening on every interface (":8000") needs the AllowedHosts setting;
// without it ListenAndServe fails with ErrAllowedHostsRequired. Run does
// the same when the Addr setting is given, and also stops on SIGINT and
// SIGTERM.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	set, err := s.Settings()
	if err != nil {
		return err
	}
	set.Addr = addr
	return s.serveHTTP(ctx, set, nil)
}

// ServeListener is ListenAndServe on a listener the caller opened (for tests, or
// a socket handed over by the system).
func (s *Server) ServeListener(ctx context.Context, ln net.Listener) error {
	set, err := s.Settings()
	if err != nil {
		ln.Close()
		return err
	}
	return s.serveHTTP(ctx, set, ln)
}

// serveHTTP listens on set.Addr (or uses ln) and serves until ctx is done.
// The front door answers at once: /healthz says 503 and the MCP endpoints
// 503 until the Lifespan has run.
func (s *Server) serveHTTP(ctx context.Context, set Settings, ln net.Listener) error {
	if s.authErr != nil {
		if ln != nil {
			ln.Close()
		}
		return s.authErr
	}
	addr := ""
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", set.Addr); err != nil {
			return fmt.Errorf("fastmcp: listening on %s: %w", set.Addr, err)
		}
		addr = set.Addr
	}
	hosts, err := allowedHosts(set, addr, ln.Addr())
	if err != nil {
		ln.Close()
		return err
	}
	set.AllowedHosts = hosts
	if err := s.openStores(ctx, set); err != nil {
		ln.Close()
		return err
	}
	mcp := s.httpHandler(set)
	front, err := s.frontDoor(mcp)
	if err != nil {
		ln.Close()
		mcp.close()
		return err
	}
	srv := &http.Server{
		Handler:           front,
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
	// The MCP handler ends its streams and drains its calls first: long
	// streams would otherwise hold http.Server.Shutdown until the deadline.
	shutErr := mcp.shutdown(sctx)
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
		shutErr = errors.Join(shutErr, err)
	}
	mcp.close()
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
