package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// ErrTaskNotFound is returned by a TaskStore for a task it does not hold
// (never created, or expired).
var ErrTaskNotFound = errors.New("fastmcp: task not found")

// ErrTaskEnded is returned by TaskStore.Update for a task whose stored
// status is already final (completed, failed or cancelled): that status
// is never overwritten, so that an outcome that comes late (a replica
// declared dead finishing its task after all, a cancellation racing with
// the completion) cannot change what clients were told. Nothing is
// written; the stored record is the task's outcome.
var ErrTaskEnded = errors.New("fastmcp: task already ended")

// expired reports whether the record's TTL has passed at now.
func (r *TaskRecord) expired(now time.Time) bool {
	return r.TTL > 0 && !now.Before(r.CreatedAt.Add(r.TTL))
}

// ErrTaskStoreUnavailable is wrapped by the error a request that needs the
// task store (a tools/call run as a task, tasks/get, tasks/update,
// tasks/cancel) fails with when the store fails: a shared store whose
// Redis is down, say. The client gets a JSON-RPC internal error saying the
// task store is unavailable; the store's own error, which may name
// internal hosts, goes to the server's log only.
var ErrTaskStoreUnavailable = errors.New("task store unavailable")

// unavailable logs the store's failure while doing something, and returns
// the error the request fails with.
func (m *taskManager) unavailable(doing string, err error, args ...any) error {
	m.logger.Error("task store failed while "+doing, append(args, "error", err)...)
	return fmt.Errorf("%w: %w while %s; try again later", protocol.ErrInternal, ErrTaskStoreUnavailable, doing)
}

// A TaskStore keeps the state of tasks (the tasks extension) for as long as
// their TTL. The server calls it from many goroutines at once; records
// passed in and returned are copies the callee may keep or change freely.
// The in-memory default is NewMemoryTaskStore; a store shared between
// replicas lets any replica answer tasks/get.
type TaskStore interface {
	// Create stores a new task. The record's ID is unique.
	Create(ctx context.Context, rec *TaskRecord) error
	// Get returns the task, or an error matching ErrTaskNotFound when the
	// store does not hold it or its TTL has passed.
	Get(ctx context.Context, id string) (*TaskRecord, error)
	// Update replaces the stored state of an existing task; a task whose
	// TTL has passed gives ErrTaskNotFound. A task whose stored status is
	// final (TaskRecord.Terminal) is left as it is and gives an error
	// matching ErrTaskEnded: the check and the write are one atomic step,
	// since replicas may race to record a task's end.
	Update(ctx context.Context, rec *TaskRecord) error
	// List returns the live tasks created by principal, oldest first.
	List(ctx context.Context, principal string) ([]*TaskRecord, error)
}

// MemoryTaskStore is a TaskStore in the process's memory: tasks are lost
// when it exits. Expired tasks are dropped as they are met and at every
// Create. Its zero value is not usable: call NewMemoryTaskStore.
type MemoryTaskStore struct {
	mu    sync.Mutex
	tasks map[string]*TaskRecord
	now   func() time.Time
}

// NewMemoryTaskStore returns an empty in-memory TaskStore.
func NewMemoryTaskStore() *MemoryTaskStore {
	return &MemoryTaskStore{tasks: map[string]*TaskRecord{}, now: time.Now}
}

func copyRecord(r *TaskRecord) *TaskRecord {
	c := *r
	c.Result = slices.Clone(r.Result)
	if r.Error != nil {
		e := *r.Error
		c.Error = &e
	}
	if r.InputRequests != nil {
		c.InputRequests = make(protocol.InputRequests, len(r.InputRequests))
		for k, v := range r.InputRequests {
			c.InputRequests[k] = v
		}
	}
	return &c
}

// Create implements TaskStore.
func (m *MemoryTaskStore) Create(_ context.Context, rec *TaskRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	for id, r := range m.tasks {
		if r.expired(now) {
			delete(m.tasks, id)
		}
	}
	if _, dup := m.tasks[rec.ID]; dup {
		return errors.New("fastmcp: task id " + rec.ID + " already exists")
	}
	m.tasks[rec.ID] = copyRecord(rec)
	return nil
}

// Get implements TaskStore.
func (m *MemoryTaskStore) Get(_ context.Context, id string) (*TaskRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.tasks[id]
	if !ok {
		return nil, ErrTaskNotFound
	}
	if r.expired(m.now()) {
		delete(m.tasks, id)
		return nil, ErrTaskNotFound
	}
	return copyRecord(r), nil
}

// Update implements TaskStore: a task already ended gives ErrTaskEnded.
func (m *MemoryTaskStore) Update(_ context.Context, rec *TaskRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.tasks[rec.ID]
	if !ok {
		return ErrTaskNotFound
	}
	if r.expired(m.now()) {
		delete(m.tasks, rec.ID)
		return ErrTaskNotFound
	}
	if r.Terminal() {
		return fmt.Errorf("%w: %q is %s", ErrTaskEnded, rec.ID, r.Status)
	}
	m.tasks[rec.ID] = copyRecord(rec)
	return nil
}

// List implements TaskStore.
func (m *MemoryTaskStore) List(_ context.Context, principal string) ([]*TaskRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	var out []*TaskRecord
	for id, r := range m.tasks {
		if r.expired(now) {
			delete(m.tasks, id)
			continue
		}
		if r.Principal == principal {
			out = append(out, copyRecord(r))
		}
	}
	slices.SortFunc(out, func(a, b *TaskRecord) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}
