package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

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

// ErrTaskNotFound is returned by a TaskStore for a task it does not hold
// (never created, or expired).
var ErrTaskNotFound = errors.New("store: task not found")

// ErrTaskEnded is returned by TaskStore.Update for a task whose stored
// status is already final (completed, failed or cancelled): that status
// is never overwritten, so that an outcome that comes late (a replica
// declared dead finishing its task after all, a cancellation racing with
// the completion) cannot change what clients were told. Nothing is
// written; the stored record is the task's outcome.
var ErrTaskEnded = errors.New("store: task already ended")

// expired reports whether the record's TTL has passed at now.
func (r *TaskRecord) expired(now time.Time) bool {
	return r.TTL > 0 && !now.Before(r.CreatedAt.Add(r.TTL))
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
		return errors.New("store: task id " + rec.ID + " already exists")
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

// A TaskLeaseStore is a TaskStore shared between replicas that also keeps
// a lease for each task a replica runs, so that a task whose replica died
// does not stay working until its TTL. The replica running a task renews
// its lease every fastmcp.TaskSettings.LeasePeriod; once it has not for
// fastmcp.TaskSettings.LeaseTimeout, any replica reading the task (tasks/get,
// tasks/update, tasks/cancel, a subscriptions/listen following it, which
// looks every LeaseTimeout) finds
// the lease lapsed and reports the task failed ("the server replica running
// this task stopped"); the first to find it records that in the store and
// publishes the change, once.
//
// redisstore.TaskStore implements it. NewMemoryTaskStore does not need to:
// its tasks end with the process that runs them and holds the store.
type TaskLeaseStore interface {
	TaskStore
	// RenewLeases sets the leases of the tasks ids to end timeout from
	// now. A lease already found lapsed (LeaseLapsed) is not renewed:
	// the task has been reported failed, and its id is returned in
	// lapsed, so that the replica running it stops its handler.
	RenewLeases(ctx context.Context, ids []string, timeout time.Duration) (lapsed []string, err error)
	// LeaseLapsed reports whether the lease of the task rec, set by
	// RenewLeases before the task was created, has ended. The first call
	// that finds it ended gets first = true (its caller records the
	// task's end); later ones get lapsed = true, first = false.
	LeaseLapsed(ctx context.Context, rec *TaskRecord) (lapsed, first bool, err error)
}
