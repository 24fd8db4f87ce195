package taskrun

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/store"
)

// Defaults of the Config's MaxRunning, LeasePeriod and LeaseTimeout
// (fastmcp.TaskSettings names them too).
const (
	DefaultMaxRunning   = 1000
	DefaultLeasePeriod  = 10 * time.Second
	DefaultLeaseTimeout = 30 * time.Second
)

// ErrStoreUnavailable is wrapped by the error a request that needs the
// task store fails with when the store fails (fastmcp.ErrTaskStoreUnavailable).
var ErrStoreUnavailable = errors.New("fastmcp: task store unavailable")

// Config is what a Manager runs with: fastmcp.TaskSettings, and the
// server's side of the seam. Zero fields take the defaults of
// fastmcp.TaskSettings; the functions may be nil.
type Config struct {
	// Store, TTL, PollInterval, MaxRunning, LeasePeriod and LeaseTimeout
	// are those of fastmcp.TaskSettings.
	Store                     store.TaskStore
	TTL, PollInterval         time.Duration
	MaxRunning                int
	LeasePeriod, LeaseTimeout time.Duration

	// Logger receives the store's and the bus's failures. Default: none.
	Logger *slog.Logger
	// Principal returns who makes a request: a task is found only by the
	// principal that created it. Default: "" for every request.
	Principal func(*session.Request) string
	// Bus returns the bus shared with other replicas, or nil without one;
	// it is asked at each use, since a server's bus is set when it starts.
	Bus func() store.Bus
	// Enqueue hands f, from a bus callback, to the server's bus worker,
	// which runs it in order (or drops it when the worker is stopped).
	Enqueue func(f func())
	// Broadcast sends notifications/tasks with params to this process's
	// listen streams that follow task id.
	Broadcast func(id string, params any)
}

// Manager runs a server's tasks: it owns their goroutines (ended and
// waited for at Shutdown) and the in-process state of the running ones.
// Its methods are safe for concurrent use.
type Manager struct {
	cfg   Config
	store store.TaskStore // see SetStore
	ttl   time.Duration
	poll  time.Duration
	now   func() time.Time
	// notify sends a task's new state to the listen streams following it
	// (publishing it on the bus when there is one); tests replace it.
	notify func(*store.TaskRecord)
	logger *slog.Logger

	ctx    context.Context // cancelled at shutdown
	cancel context.CancelCauseFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	running map[string]*Task
	closed  bool
	active  int // task handlers running (bounded by max)
	max     int // Config.MaxRunning; 0: no bound

	// Leases (a store.TaskLeaseStore): this replica's name in the records of
	// the tasks it runs, and the renewals' settings; renewing says the
	// goroutine renewing them runs.
	replica                   string
	leasePeriod, leaseTimeout time.Duration
	renewing                  bool
}

// New returns a Manager running tasks with cfg. It panics on lease
// settings that cannot work (see LeaseSettings).
func New(cfg Config) *Manager {
	m := &Manager{cfg: cfg, store: cfg.Store, ttl: cfg.TTL, poll: cfg.PollInterval, now: time.Now,
		running: map[string]*Task{}, logger: cfg.Logger, replica: rand.Text()[:10]}
	m.leasePeriod, m.leaseTimeout = LeaseSettings(cfg.LeasePeriod, cfg.LeaseTimeout)
	m.notify = m.notifyTask
	if m.logger == nil {
		m.logger = slog.New(slog.DiscardHandler)
	}
	if m.store == nil {
		m.store = store.NewMemoryTaskStore()
	}
	if m.ttl <= 0 {
		m.ttl = time.Hour
	}
	if m.poll < time.Millisecond {
		m.poll = time.Second
	}
	switch {
	case cfg.MaxRunning == 0:
		m.max = DefaultMaxRunning
	case cfg.MaxRunning > 0:
		m.max = cfg.MaxRunning
	}
	m.ctx, m.cancel = context.WithCancelCause(context.Background())
	return m
}

// SetStore makes the tasks stored in st from now on: a server's shared
// stores may open after its first tool registered with TaskSupport made the
// Manager. Call it before serving.
func (m *Manager) SetStore(st store.TaskStore) { m.store = st }

// Store returns where the tasks are stored.
func (m *Manager) Store() store.TaskStore { return m.store }

// errShutdown is the cause a task's context is cancelled with when the
// server shuts down.
var errShutdown = errors.New("fastmcp: the server shut down")

// Shutdown cancels the running tasks and waits for their goroutines until
// ctx is done.
func (m *Manager) Shutdown(ctx context.Context) error {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.cancel(errShutdown)
	done := make(chan struct{})
	go func() { m.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("fastmcp: tasks still running at shutdown: %w", ctx.Err())
	}
}

// reserve counts a new task in. It returns false and an error when the
// call fails (the server is shutting down, or the bound on running tasks
// is reached and the tool runs only as a task), and false without one when
// the call is to run as a plain call (the bound is reached).
func (m *Manager) reserve(required bool) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return false, protocol.Errorf(protocol.CodeInternalError, "the server is shutting down")
	}
	if m.max > 0 && m.active >= m.max {
		if required {
			return false, protocol.Errorf(protocol.CodeInternalError, "too many tasks are running (%d, the server's bound): try again later", m.max)
		}
		return false, nil
	}
	m.active++
	m.wg.Add(1)
	return true, nil
}

// done records that a task handler counted by reserve has returned.
func (m *Manager) done() {
	m.mu.Lock()
	m.active--
	m.mu.Unlock()
	m.wg.Done()
}

// lookup returns the task running here with id, or nil.
func (m *Manager) lookup(id string) *Task {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.running[id]
}

// unavailable logs the store's failure while doing something, and returns
// the error the request fails with: the client learns the task store is
// unavailable, the store's own error (which may name internal hosts) goes
// to the log only.
func (m *Manager) unavailable(doing string, err error, args ...any) error {
	m.logger.Error("task store failed while "+doing, append(args, "error", err)...)
	return fmt.Errorf("%w: %w", protocol.ErrInternal, storeUnavailable(doing))
}

// storeUnavailable is the error a request fails with when the task store
// fails while doing something: it matches ErrStoreUnavailable, and its text,
// sent to the client, names no package ("task store unavailable while
// reading the task; try again later").
type storeUnavailable string

func (e storeUnavailable) Error() string {
	return "task store unavailable while " + string(e) + "; try again later"
}

// Is makes errors.Is(err, ErrStoreUnavailable) hold.
func (e storeUnavailable) Is(target error) bool { return target == ErrStoreUnavailable }

// principal returns who makes req.
func (m *Manager) principal(req *session.Request) string {
	if m.cfg.Principal == nil {
		return ""
	}
	return m.cfg.Principal(req)
}

// bus returns the shared bus, or nil.
func (m *Manager) bus() store.Bus {
	if m.cfg.Bus == nil {
		return nil
	}
	return m.cfg.Bus()
}
