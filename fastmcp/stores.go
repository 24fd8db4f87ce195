package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/transport"
)

// SharedStores gives the server the state it shares with its replicas (see
// store.Stores): the one way to give a server an event store, a session
// store or a bus, and the way to give it the rest with them (a task store
// and a key ring). The other route is the RedisURL setting, which opens
// such stores from a registered backend; with SharedStores the setting is
// not used. A Tasks option's Store and RequestStateKeys or
// RequestStateSecret win over the task store and the key ring given here.
// The server subscribes to the bus when it starts and unsubscribes at
// Shutdown, and calls the stores' Close at Shutdown. A later SharedStores
// replaces an earlier one.
func SharedStores(st *store.Stores) Option {
	return serverOption(func(c *serverConfig) { c.stores, c.busRun = st, busCode{} })
}

// A StoreBackend opens the stores a URL names, for the RedisURL setting.
// Package store/redisstore/redisurl registers one named "redis" when it is
// linked.
type StoreBackend func(ctx context.Context, p StoreParams) (*store.Stores, error)

// StoreParams is what a StoreBackend gets from the server.
type StoreParams struct {
	// URL is the setting's value.
	URL string
	// RequestStateTTL is the server's RequestStateTTL: how long a key
	// ring must keep a key after it stopped sealing.
	RequestStateTTL time.Duration
	// Logger is the server's logger.
	Logger *slog.Logger
}

var backends struct {
	sync.Mutex
	m      map[string]StoreBackend
	busRun busRunner // the bus's code, for the bus of the stores a backend opens
}

// RegisterStoreBackend makes open the backend named name. The RedisURL
// setting uses the backend named "redis", which package
// store/redisstore/redisurl registers when it is linked (import _
// "github.com/fastmcp-go/fastmcp/store/redisstore/redisurl"). It panics
// when name is registered twice or open is nil.
//
// The registry is here, not in package store, because registering is what
// links the code that runs a shared bus (bus.go): a backend's stores may
// carry one, and a server that links no backend and no SharedStores must
// not pay for it (TestMinimalServerLinks). A backend package that does not
// import fastmcp cannot link that code; its bridge package (such as
// redisurl) calls RegisterStoreBackend.
func RegisterStoreBackend(name string, open StoreBackend) {
	backends.Lock()
	defer backends.Unlock()
	if open == nil {
		panic("fastmcp.RegisterStoreBackend: backend " + name + " is nil")
	}
	backends.busRun = busCode{} // the stores it opens may hold a bus
	if _, dup := backends.m[name]; dup {
		panic("fastmcp.RegisterStoreBackend: backend " + name + " registered twice")
	}
	if backends.m == nil {
		backends.m = map[string]StoreBackend{}
	}
	backends.m[name] = open
}

// ErrNoStoreBackend is wrapped by the error a server fails to start with
// when the RedisURL setting is given but no Redis backend is linked into
// the program.
var ErrNoStoreBackend = errors.New("fastmcp: no store backend linked")

// storesState is the server's shared stores, opened once.
type storesState struct {
	mu     sync.Mutex
	opened bool
	st     *store.Stores // nil: the in-memory defaults
	stdio  bool          // serving stdio: FASTMCP_REDIS_URL is not read (see stdioSettings)
}

// redisURLEnv is the variable of the RedisURL setting.
const redisURLEnv = "FASTMCP_REDIS_URL"

// stdioSettings is Settings for a server that serves stdio: there the
// environment's FASTMCP_REDIS_URL is not read, so that one inherited from
// a shell or a host's environment (set for the HTTP replicas of another
// server, or mistyped) neither stops nor slows a server that serves one
// client, where shared stores share nothing. The RedisURL option and the
// -redis-url flag, given for this server, still apply.
func (s *Server) stdioSettings() (Settings, error) {
	set, err := s.settingsHiding(redisURLEnv)
	if err == nil {
		s.servingStdio(set)
	}
	return set, err
}

// servingStdio records that s serves stdio with set, resolved without
// FASTMCP_REDIS_URL (stdioSettings), and logs at Info that the variable
// was left unused.
func (s *Server) servingStdio(set Settings) {
	s.stores.mu.Lock()
	s.stores.stdio = true
	s.stores.mu.Unlock()
	if v, ok := os.LookupEnv(redisURLEnv); ok && v != "" && set.RedisURL == "" {
		s.logger.Info(redisURLEnv + " is not used over stdio: a stdio server serves one client, and shared stores are for HTTP replicas (give -redis-url or the RedisURL option to use them anyway)")
	}
}

// settingsHiding is Settings with the environment variable name unset.
func (s *Server) settingsHiding(name string) (Settings, error) {
	out := s.cfg.settings
	err := settingsTable.Resolve(&out, s.cfg.set, s.cfg.flags, func(k string) (string, bool) {
		if k == name {
			return "", false
		}
		return os.LookupEnv(k)
	})
	return out, err
}

// openStores opens the stores the RedisURL setting names, once, and
// installs them where no option chose otherwise; New installed those of
// SharedStores already, so that a server not yet started announces on
// their bus and finds their sessions. The serving methods call
// it before they build their endpoints, with the resolved settings; a
// failure stops start-up and is tried again by the next call.
func (s *Server) openStores(ctx context.Context, set Settings) error {
	ss := &s.stores
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.opened {
		return nil
	}
	st, busRun := s.cfg.stores, s.cfg.busRun // SharedStores wins over the setting
	if st == nil && set.RedisURL != "" {
		backends.Lock()
		open := backends.m["redis"]
		busRun = backends.busRun
		backends.Unlock()
		if open == nil {
			return fmt.Errorf(`%w: the RedisURL setting (FASTMCP_REDIS_URL, -redis-url) is set, but the program does not link the Redis stores: add import _ "github.com/fastmcp-go/fastmcp/store/redisstore/redisurl"`, ErrNoStoreBackend)
		}
		var err error
		st, err = open(ctx, StoreParams{URL: set.RedisURL, RequestStateTTL: s.sealer.TTL(), Logger: s.logger})
		if err != nil {
			return fmt.Errorf("fastmcp: opening the stores of the RedisURL setting: %w", err)
		}
	}
	s.useStores(st, busRun)
	ss.opened = true
	s.logStores(st)
	return nil
}

// logStores says, at Info, once when serving starts, where the state the
// server could share is kept: "memory" (this process only), or the package
// of the store in use ("redisstore"), per kind; bus "none" when there is
// none. A Tasks option's Store and a RequestStateKeys or RequestStateSecret
// option win over st's task store and key ring.
func (s *Server) logStores(st *store.Stores) {
	if !s.logger.Enabled(context.Background(), slog.LevelInfo) {
		return
	}
	var all store.Stores
	if st != nil {
		all = *st
	}
	kind := func(v any, none string) string {
		if v == nil {
			return none
		}
		name := strings.TrimLeft(fmt.Sprintf("%T", v), "*")
		pkg, _, _ := strings.Cut(name, ".")
		return pkg
	}
	var tasks any = all.Tasks
	if s.cfg.tasks.Store != nil {
		tasks = s.cfg.tasks.Store
	}
	keys := kind(all.Keys, "memory")
	if s.cfg.stateKeys != nil || s.cfg.stateSecret != nil {
		keys = "option"
	}
	s.logger.Info("stores in use", "events", kind(all.Events, "memory"), "sessions", kind(all.Sessions, "memory"),
		"tasks", kind(tasks, "memory"), "request_state_keys", keys, "bus", kind(all.Bus, "none"))
}

// useStores installs st where no option chose otherwise, and busRun with
// its bus; s.stores.mu held, or s not yet shared (New). st may be nil.
func (s *Server) useStores(st *store.Stores, busRun busRunner) {
	s.stores.st = st
	if st == nil {
		return
	}
	if st.Tasks != nil && s.cfg.tasks.Store == nil {
		s.mu.Lock()
		s.sharedTasks = st.Tasks
		if s.taskRun != nil { // a tool registered with TaskSupport made it already
			s.taskRun.useStore(st.Tasks)
		}
		s.mu.Unlock()
	}
	if st.Keys != nil && s.cfg.stateKeys == nil && s.cfg.stateSecret == nil {
		s.sealer.UseRing(st.Keys)
	}
	if st.Bus != nil {
		s.bus.bus, s.busRun = st.Bus, busRun // before startBus, which the serving methods call after this
	}
}

// sharedHTTP gives the Streamable HTTP options the shared stores and the
// bus (SharedStores or the RedisURL setting), the one source of both.
func (s *Server) sharedHTTP(so *transport.HTTPOptions) {
	s.stores.mu.Lock()
	st := s.stores.st
	s.stores.mu.Unlock()
	so.EventStore, so.Sessions, so.Bus = nil, nil, s.bus.bus
	if st != nil {
		so.EventStore, so.Sessions = st.Events, st.Sessions
	}
}

// closeStores closes the shared stores, at Shutdown.
func (s *Server) closeStores() error {
	s.stores.mu.Lock()
	st := s.stores.st
	if !s.stores.opened {
		st = s.cfg.stores
	}
	s.stores.st, s.stores.opened = nil, true
	s.stores.mu.Unlock()
	if st == nil || st.Close == nil {
		return nil
	}
	return st.Close()
}

// checkStoreURL reports what is wrong with the RedisURL setting, without
// repeating it: it may hold a password.
func checkStoreURL(v string) string {
	u, err := url.Parse(v)
	switch {
	case err != nil:
		return "it is not a URL"
	case u.Scheme != "redis" && u.Scheme != "rediss" && u.Scheme != "unix":
		return fmt.Sprintf("its scheme is %q", u.Scheme)
	case u.Scheme != "unix" && u.Host == "":
		return "it names no host"
	}
	return ""
}

// startStores opens the shared stores at Start, for the serving methods
// that did not open them before (Serve, ServeStdio, Start itself). It
// reports whether it opened them.
func (s *Server) startStores(ctx context.Context) (bool, error) {
	s.stores.mu.Lock()
	opened, stdio := s.stores.opened, s.stores.stdio
	s.stores.mu.Unlock()
	if opened {
		return false, nil
	}
	set, err := s.Settings()
	if stdio {
		set, err = s.settingsHiding(redisURLEnv)
	}
	if err != nil && set.RedisURL != "" {
		return false, err // the serving methods reported the other settings' errors before
	}
	return true, s.openStores(ctx, set)
}

// abandonStores closes the stores a start that failed opened, so that the
// next start opens them again; an error closing them is logged. The
// stores of SharedStores stay for the next start; Shutdown closes them.
func (s *Server) abandonStores() {
	s.stores.mu.Lock()
	st := s.stores.st
	if st != nil && st == s.cfg.stores {
		s.stores.mu.Unlock()
		return
	}
	s.stores.st, s.stores.opened = nil, false
	s.stores.mu.Unlock()
	if st == nil || st.Close == nil {
		return
	}
	if err := st.Close(); err != nil {
		s.logger.Error("closing the shared stores failed", "error", err)
	}
}
