package fastmcp

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/logsink"
	"github.com/fastmcp-go/fastmcp/internal/sealedstate"
	"github.com/fastmcp-go/fastmcp/internal/serverlink"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/transport"
)

// Server is a high-level MCP server: register plain Go functions as tools,
// resources and prompts, and it speaks the protocol. It is mounted on a
// lowlevel.Server: every registration installs handlers in the low-level
// method table, which advanced users can extend or wrap with middleware
// (see Lowlevel).
//
// Registrations may happen before or while serving; clients are told about
// changes with list_changed notifications. All methods are safe for
// concurrent use.
type Server struct {
	ll     *lowlevel.Server
	cfg    serverConfig
	logger *slog.Logger

	mu        sync.Mutex // serialises registrations
	tools     registry[*tool]
	resources resourceState
	prompts   promptState
	apps      appState   // views registered with App
	switches  switches   // Enable and Disable
	xf        transforms // TransformTool's transformations; nil until the first; s.mu

	listen      listeners
	changes     listChanges // list_changed notifications owed, sent once per burst
	life        lifespan
	mounted     mounted // the MCP endpoints ServeHTTP serves
	sealer      *sealedstate.Sealer
	stores      storesState    // the shared stores: SharedStores or the RedisURL setting
	level       *slog.LevelVar // the default logger's level (Settings.LogLevel)
	elicitTypes sync.Map       // reflect.Type → *schema.Type: elicitation forms, built once per type
	authOnce    sync.Once      // builds auth and authErr, when HTTP is first served
	auth        *authState     // the Auth option built; nil without it or before
	authErr     error          // why the Auth option could not be built: HTTP is not served

	bus         busState        // the shared bus (Stores.Bus): announcements shared with other replicas
	busRun      busRunner       // the bus's code; set with bus.bus, nil without a bus
	taskRun     taskRunner      // the task runtime; nil until the first tool registered with TaskSupport (taskRun.enable); s.mu
	sharedTasks store.TaskStore // the shared stores' task store, for the task manager; s.mu

	noTokenWarning sync.Once // logs once that a RequireScopes feature was asked for without a token

	proxy    serverlink.Backend           // what a proxy (package proxy) forwards to; nil for other servers
	mounting mountState                   // the servers mounted on this one and those it is mounted on
	mounts   atomic.Pointer[[]*mountLink] // mount.children, read without s.mu
}

// New returns a server that identifies itself to clients by name and
// version.
func New(name, version string, opts ...Option) *Server {
	var cfg serverConfig
	for _, o := range opts {
		o.applyServer(&cfg)
	}
	if cfg.pageSize <= 0 {
		cfg.pageSize = 1000
	}
	level := new(slog.LevelVar)
	level.Set(cfg.settings.LogLevel)
	logger := cfg.logger
	if logger == nil {
		// On a logsink.Writer: package fastmcptest routes it to the log
		// of the test that connects a client.
		logger = slog.New(logsink.NewHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	}
	info := protocol.Implementation{
		Name: name, Version: version, Title: cfg.title,
		Description: cfg.description, WebsiteURL: cfg.websiteURL, Icons: cfg.icons,
	}
	if cfg.taskRun != nil {
		cfg.taskRun.checkSettings(cfg.tasks) // a Tasks option was given
	}
	s := &Server{
		ll: lowlevel.NewServer(info, &lowlevel.Options{
			Instructions:   cfg.instructions,
			Logger:         logger,
			MaxConcurrency: cfg.maxConcurrency,
			CallTimeout:    cfg.callTimeout,
			CacheTTL:       cacheTTL(cfg.cache),
			CacheScope:     cacheScope(cfg.cache),
		}),
		cfg:    cfg,
		logger: logger,
		sealer: sealedstate.New(cfg.stateKeys, cfg.stateSecret, cfg.stateTTL),
		level:  level,
	}
	s.tools.switches, s.prompts.reg.switches = &s.switches, &s.switches
	s.resources.static.switches, s.resources.templates.switches = &s.switches, &s.switches
	if cfg.stores != nil { // SharedStores: nothing to open
		s.useStores(cfg.stores, cfg.busRun)
		s.stores.opened = true
	}
	s.life.ready = make(chan struct{})
	s.ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) { c.Logging = &protocol.Capability{} })
	s.installListen()
	return s
}

// Lowlevel returns the low-level server underneath: its method table holds
// the handlers the registrations installed, and it takes middleware.
func (s *Server) Lowlevel() *lowlevel.Server { return s.ll }

// Logger returns the server's logger.
func (s *Server) Logger() *slog.Logger { return s.logger }

// PageSize returns how many items a list result carries per page (the
// PageSize option; default 1000), for a feature that serves a list method
// of its own, such as the skills package's skills/list.
func (s *Server) PageSize() int { return s.cfg.pageSize }

// principal identifies the client a modern request comes from, so that a
// requestState cannot be replayed by another client.
func (s *Server) principal(req *session.Request) string {
	if s.cfg.principal != nil {
		return s.cfg.principal(req)
	}
	return defaultPrincipal(req)
}

// Serve serves one client over conn until the client goes away or ctx is
// done. When ctx is done, requests in flight may finish within the
// ShutdownTimeout setting before the connection is closed. It returns nil
// when the client closed the connection or ctx was cancelled. Serve may
// serve several connections at once, beside Run, ServeStdio or ServeHTTP,
// while the server lives; after Shutdown it returns ErrServerReused.
func (s *Server) Serve(ctx context.Context, conn transport.Conn) error {
	if err := s.Start(ctx); err != nil {
		conn.Close()
		return err
	}
	set, err := s.Settings()
	if err != nil {
		set.ShutdownTimeout = 10 * time.Second
	}
	return s.serve(ctx, conn, set.ShutdownTimeout)
}

func (s *Server) serve(ctx context.Context, conn transport.Conn, drain time.Duration) error {
	// When the client ends its input, the requests it sent are answered
	// within the same bound as at shutdown (zero: not waited for).
	eof := drain
	if eof <= 0 {
		eof = -1
	}
	sess := s.ll.NewSession(conn, lowlevel.DrainTimeout(eof))
	stop := context.AfterFunc(ctx, func() {
		sctx, cancel := context.WithTimeout(context.Background(), drain)
		defer cancel()
		defer s.stopSessionListeners(sess)() // listens would hold the drain
		sess.Shutdown(sctx)
	})
	err := sess.Wait()
	if !stop() {
		// Shutdown is running: wait for it to close the session.
		<-sess.Done()
	}
	sess.Close()
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// ServeStdio serves one client over the process's standard input and output
// until stdin is closed or ctx is done, then runs the Lifespan cleanup.
// Nothing else may write to os.Stdout meanwhile: log to os.Stderr (the
// default logger does). A Server serves once: ServeStdio fails with
// ErrServerReused when Run, ServeStdio or ServeHTTP already served it or
// still does.
func (s *Server) ServeStdio(ctx context.Context) error {
	if err := s.claim(); err != nil {
		return err
	}
	set, err := s.stdioSettings()
	if err != nil {
		return err
	}
	return s.serveStdio(ctx, set)
}
