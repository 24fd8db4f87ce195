package fastmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
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
	return serverOption(func(c *serverConfig) { c.stores, c.busRun = st, busCode{} })
}

// TaskRecord and its methods live here, with the stores, not in task*.go:
// every server's Stores and TaskSettings name TaskStore, so validator's
// MethodByName keeps TaskRecord's exported methods in every binary; here
// they do not pull the task runtime's file set in (see hooks.go).

// TaskRecord is what a TaskStore keeps of one task. Every field is plain
// data so that a store may serialise it (encoding/json works).
type TaskRecord struct {
	// ID identifies the task; the server mints it.
	ID string `json:"id"`
	// Principal is the caller that created the task; only the same
	// principal may see it.
	Principal string `json:"principal"`
	// Tool is the name of the tool the task runs.
	Tool string `json:"tool"`
	// Status is the task's state.
	Status protocol.TaskStatus `json:"status"`
	// StatusMessage describes the state.
	StatusMessage string `json:"statusMessage,omitempty"`
	// CreatedAt and UpdatedAt are the creation and last change times.
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	// TTL is how long after CreatedAt the task is kept; 0 keeps it until
	// the store is closed.
	TTL time.Duration `json:"ttl"`
	// PollInterval is the polling interval suggested to the client.
	PollInterval time.Duration `json:"pollInterval"`
	// Result is the tool's result once completed.
	Result json.RawMessage `json:"result,omitempty"`
	// Error is the JSON-RPC error once failed.
	Error *protocol.Error `json:"error,omitempty"`
	// InputRequests are the pending requests for client input while
	// input_required.
	InputRequests protocol.InputRequests `json:"inputRequests,omitempty"`
	// Runner names the replica (the server process) that runs the task;
	// with a TaskLeaseStore, it holds the task's lease.
	Runner string `json:"runner,omitempty"`
}

// Terminal reports whether the task has ended (completed, failed or
// cancelled): its state no longer changes.
func (r *TaskRecord) Terminal() bool {
	switch r.Status {
	case protocol.TaskCompleted, protocol.TaskFailed, protocol.TaskCancelled:
		return true
	}
	return false
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
	m      map[string]StoreBackend
	busRun busRunner // the bus's code, for the bus of the stores a backend opens
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
	st, busRun := s.cfg.stores, s.cfg.busRun // SharedStores wins over the setting
	if st == nil && set.RedisURL != "" {
		backends.Lock()
		open := backends.m["redis"]
		busRun = backends.busRun
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
			s.mu.Lock()
			s.sharedTasks = st.Tasks
			if s.tasks != nil { // a tool registered with Task made it already
				s.tasks.store = st.Tasks
			}
			s.mu.Unlock()
		}
		if st.Keys != nil && s.cfg.stateKeys == nil && s.cfg.stateSecret == nil {
			s.sealer.ring = st.Keys
		}
		if st.Bus != nil && s.cfg.bus == nil {
			s.bus.bus, s.busRun = st.Bus, busRun // before startBus, which the serving methods call after this
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
