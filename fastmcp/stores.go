package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/pubsub"
	"github.com/fastmcp-go/fastmcp/transport"
)

// Stores are the state a server shares with its replicas, kept outside
// the process: the SSE event log of resumable streams, the records of
// legacy sessions, the tasks, the keys that seal requestState, and the bus
// that carries announcements and routed messages between replicas. A nil
// field keeps the server's in-memory default (no bus: nothing crosses to
// another replica). Package store/redisstore makes them on Redis.
type Stores struct {
	Events   transport.EventStore
	Sessions transport.SessionStore
	Tasks    TaskStore
	Keys     KeyRing
	Bus      pubsub.Bus
	// Close releases what the stores hold (a poller, a client); the
	// server calls it at Shutdown, after its last request. It may be nil.
	Close func() error
}

// SharedStores gives the server stores shared with its replicas. Each one
// fills in what no other option chose: an EventStore or SessionStore an
// HTTPEndpoints option set, a Tasks option's Store, a Bus option, and
// RequestStateKeys or
// RequestStateSecret win over it. With SharedStores the RedisURL setting
// is not used. The server closes the stores at Shutdown. A later
// SharedStores replaces an earlier one.
func SharedStores(st *Stores) Option {
	return serverOption(func(c *serverConfig) { c.stores = st })
}

// A StoreBackend opens the stores a URL names, for the RedisURL setting.
// Package store/redisstore registers one named "redis" when it is linked.
type StoreBackend func(ctx context.Context, p StoreParams) (*Stores, error)

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
	m map[string]StoreBackend
}

// RegisterStoreBackend makes open the backend named name. The RedisURL
// setting uses the backend named "redis", which package
// store/redisstore registers when it is linked (import _
// "github.com/fastmcp-go/fastmcp/store/redisstore"). It panics when name
// is registered twice or open is nil.
func RegisterStoreBackend(name string, open StoreBackend) {
	backends.Lock()
	defer backends.Unlock()
	if open == nil {
		panic("fastmcp.RegisterStoreBackend: backend " + name + " is nil")
	}
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
	st     *Stores // nil: the in-memory defaults
}

// openStores opens the stores the RedisURL setting names, once, and
// installs them where no option chose otherwise. The serving methods call
// it before they build their endpoints, with the resolved settings; a
// failure stops start-up and is tried again by the next call.
func (s *Server) openStores(ctx context.Context, set Settings) error {
	ss := &s.stores
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.opened {
		return nil
	}
	st := s.cfg.stores // SharedStores wins over the setting
	if st == nil && set.RedisURL != "" {
		backends.Lock()
		open := backends.m["redis"]
		backends.Unlock()
		if open == nil {
			return fmt.Errorf(`%w: the RedisURL setting (FASTMCP_REDIS_URL, -redis-url) is set, but the program does not link the Redis stores: add import _ "github.com/fastmcp-go/fastmcp/store/redisstore"`, ErrNoStoreBackend)
		}
		var err error
		st, err = open(ctx, StoreParams{URL: set.RedisURL, RequestStateTTL: s.sealer.ttl, Logger: s.logger})
		if err != nil {
			return fmt.Errorf("fastmcp: opening the stores of the RedisURL setting: %w", err)
		}
	}
	if st != nil {
		if st.Tasks != nil && s.cfg.tasks.Store == nil {
			s.tasks.store = st.Tasks
		}
		if st.Keys != nil && s.cfg.stateKeys == nil && s.cfg.stateSecret == nil {
			s.sealer.ring = st.Keys
		}
		if st.Bus != nil && s.cfg.bus == nil {
			s.bus.bus = st.Bus // before startBus, which the serving methods call after this
		}
	}
	ss.st, ss.opened = st, true
	return nil
}

// sharedHTTP fills in the Streamable HTTP options the shared stores and
// the bus give, where the HTTPEndpoints options chose nothing.
func (s *Server) sharedHTTP(so *transport.HTTPOptions) {
	s.stores.mu.Lock()
	st := s.stores.st
	s.stores.mu.Unlock()
	if st != nil {
		if so.EventStore == nil {
			so.EventStore = st.Events
		}
		if so.Sessions == nil {
			so.Sessions = st.Sessions
		}
	}
	if so.Bus == nil {
		so.Bus = s.bus.bus
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
	opened := s.stores.opened
	s.stores.mu.Unlock()
	if opened {
		return false, nil
	}
	set, err := s.Settings()
	if err != nil && set.RedisURL != "" {
		return false, err // the serving methods reported the other settings' errors before
	}
	return true, s.openStores(ctx, set)
}

// abandonStores closes the stores a start that failed opened, so that the
// next start opens them again; an error closing them is logged.
func (s *Server) abandonStores() {
	s.stores.mu.Lock()
	st := s.stores.st
	s.stores.st, s.stores.opened = nil, false
	s.stores.mu.Unlock()
	if st == nil || st.Close == nil || st == s.cfg.stores {
		return // SharedStores' stores stay for the next start; Shutdown closes them
	}
	if err := st.Close(); err != nil {
		s.logger.Error("closing the shared stores failed", "error", err)
	}
}
