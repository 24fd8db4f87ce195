package taskrun

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// Task is the in-process state of one call that runs, or may come to run,
// as a task. The handler reaches it through the methods ID, SetStatus and
// Ask, which are safe for concurrent use.
type Task struct {
	m      *Manager
	cancel context.CancelCauseFunc

	// mu guards the fields below. Nothing does I/O under it: the task
	// store, the lease store, the bus and notify are called outside it
	// (see create and changeLocked), so a stalled store or bus holds up
	// only the goroutines that wait for that write, never one that merely
	// needs the lock (ctx.Log's ID, tasks/update, tasks/cancel, the bus
	// worker). Lock order: mu, then Manager.mu; never the other way round.
	mu      sync.Mutex
	id      string // set when the task is created
	created bool
	// creating is set while create stores the new task, and closed when
	// it is done (see lockCreated).
	creating chan struct{}
	// endControl ends the subscription to the requests passed on by other
	// replicas; set when the task is created.
	endControl func()
	finished   bool
	pending    map[string]*pendingInput
	// writes are the changes to the stored record not written yet, in the
	// order they were made; writing says a goroutine is writing them.
	writes  []*taskWrite
	writing bool
}

// taskWrite is one change to a task's stored record; done is closed once
// it is written (or dropped: see write).
type taskWrite struct {
	fn   func(*store.TaskRecord)
	done chan struct{}
}

type pendingInput struct {
	req    protocol.InputRequest
	answer chan jsontext.Value // buffered: one answer
}

var errFinished = errors.New("fastmcp: the call finished before it became a task")

// lockCreated locks t.mu once no creation is under way: create stores
// the task outside the lock, and whoever needs its outcome waits here.
func (t *Task) lockCreated() {
	t.mu.Lock()
	for t.creating != nil {
		ch := t.creating
		t.mu.Unlock()
		<-ch
		t.mu.Lock()
	}
}

// create turns the call into a task: the record is stored before the
// tools/call result announces it. The bus subscription, the lease and the
// record are written outside t.mu, with t.creating set meanwhile.
func (t *Task) create(ctx context.Context, principal, tool string) (*store.TaskRecord, error) {
	t.lockCreated()
	if t.finished {
		t.mu.Unlock()
		return nil, errFinished
	}
	settled := make(chan struct{})
	t.creating = settled
	t.mu.Unlock()
	rec, endControl, err := t.m.createRecord(ctx, principal, tool)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.creating = nil
	close(settled)
	if err != nil {
		return nil, err
	}
	t.id, t.created, t.endControl = rec.ID, true, endControl
	t.m.mu.Lock()
	t.m.running[rec.ID] = t
	t.m.mu.Unlock()
	return rec, nil
}

// createRecord creates a task's record: it subscribes to the task's requests on
// the bus, takes its lease and stores it. endControl ends the
// subscription.
func (m *Manager) createRecord(ctx context.Context, principal, tool string) (rec *store.TaskRecord, endControl func(), err error) {
	now := m.now()
	rec = &store.TaskRecord{
		ID: newTaskID(), Principal: principal, Tool: tool, Status: protocol.TaskWorking,
		CreatedAt: now, UpdatedAt: now, TTL: m.ttl, PollInterval: m.poll, Runner: m.replica,
	}
	// Subscribed before the task is announced, so that a tasks/update or
	// tasks/cancel reaching another replica at once is passed on.
	if endControl, err = m.subscribeControl(ctx, rec.ID); err != nil {
		return nil, nil, m.unavailable("subscribing to the new task's requests on the bus", err, "tool", tool)
	}
	// The lease first: a stored task with a runner and no lease is taken
	// for one whose replica died.
	if err := m.lease(context.WithoutCancel(ctx), rec.ID); err != nil {
		endControl()
		return nil, nil, m.unavailable("taking the new task's lease", err, "tool", tool)
	}
	if err := m.store.Create(context.WithoutCancel(ctx), rec); err != nil {
		endControl()
		return nil, nil, m.unavailable("storing a new task", err, "tool", tool)
	}
	return rec, endControl, nil
}

// changeLocked queues fn, a change to the stored record, after the
// changes made before it; t.mu held. fn must not read what t.mu guards
// (it runs without the lock): take a copy first. The returned function,
// called once t.mu is released, writes the queued changes in order,
// unless another goroutine is at it already; with wait it returns once fn
// is written. So the store sees a task's states in the order they were
// made, and whoever does not wait (the bus worker) is never held up by a
// stalled store.
func (t *Task) changeLocked(fn func(*store.TaskRecord)) (flush func(wait bool)) {
	w := &taskWrite{fn: fn, done: make(chan struct{})}
	t.writes = append(t.writes, w)
	return func(wait bool) {
		t.drain()
		if wait {
			<-w.done
		}
	}
}

// drain writes the queued changes, unless another goroutine is at it.
func (t *Task) drain() {
	t.mu.Lock()
	if t.writing {
		t.mu.Unlock()
		return
	}
	t.writing = true
	for len(t.writes) > 0 {
		w := t.writes[0]
		t.writes[0] = nil
		t.writes = t.writes[1:]
		id := t.id
		t.mu.Unlock()
		t.m.write(id, w.fn)
		close(w.done)
		t.mu.Lock()
	}
	t.writes = nil
	t.writing = false
	t.mu.Unlock()
}

// write changes the stored record of task id with fn unless it is
// terminal, and notifies the task's followers of the new state. A store
// that fails or stalls (storeTimeout) loses the change, with a log line:
// clients keep seeing the task's last stored state. A terminal state
// stored meanwhile (cancelled, or failed elsewhere) stands: the store
// refuses to change it (store.ErrTaskEnded).
func (m *Manager) write(id string, fn func(*store.TaskRecord)) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	rec, err := m.store.Get(ctx, id)
	if err != nil {
		if !errors.Is(err, store.ErrTaskNotFound) {
			m.logger.Error("task store: reading the task to record its new state", "task", id, "error", err)
		}
		return
	}
	if rec.Terminal() {
		return
	}
	fn(rec)
	rec.UpdatedAt = m.now()
	if err := m.store.Update(ctx, rec); err != nil {
		if errors.Is(err, store.ErrTaskEnded) {
			// Ended meanwhile elsewhere (cancelled, or reported failed
			// after a lapsed lease): that outcome stands.
			m.logger.Info("task store: the task ended elsewhere; its new state here is dropped", "task", id, "status", rec.Status)
		} else if !errors.Is(err, store.ErrTaskNotFound) {
			m.logger.Error("task store: recording the task's new state", "task", id, "status", rec.Status, "error", err)
		}
		return
	}
	m.notify(rec)
}

// storeTimeout bounds each task-store operation the running tasks make.
const storeTimeout = 10 * time.Second

// syncInputsLocked queues the write of the pending input requests (and
// the status they imply); t.mu held. See changeLocked.
func (t *Task) syncInputsLocked() (flush func(wait bool)) {
	status, reqs := protocol.TaskWorking, protocol.InputRequests(nil)
	if len(t.pending) > 0 {
		status = protocol.TaskInputRequired
		reqs = make(protocol.InputRequests, len(t.pending))
		for k, p := range t.pending {
			reqs[k] = p.req
		}
	}
	return t.changeLocked(func(r *store.TaskRecord) { r.Status, r.InputRequests = status, reqs })
}

// finish stores the outcome of the handler of a task, and returns once it
// is written.
func (t *Task) finish(ctx context.Context, res any, err error) {
	t.mu.Lock()
	t.m.mu.Lock()
	delete(t.m.running, t.id)
	t.m.mu.Unlock()
	endControl := t.endControl
	var (
		raw  []byte
		perr *protocol.Error
	)
	if err == nil {
		if raw, err = protocol.Marshal(res); err != nil {
			err = fmt.Errorf("fastmcp: encoding the task's result: %w", err)
		}
	}
	if err != nil {
		if pe, ok := errors.AsType[*protocol.Error](err); ok {
			perr = pe
		} else {
			if cause := context.Cause(ctx); cause != nil && errors.Is(err, ctx.Err()) {
				err = cause
			}
			perr = protocol.NewError(protocol.CodeInternalError, err.Error())
		}
	}
	t.pending = nil
	flush := t.changeLocked(func(r *store.TaskRecord) {
		r.InputRequests = nil
		if perr != nil {
			r.Status, r.Error = protocol.TaskFailed, perr
			return
		}
		r.Status, r.Result = protocol.TaskCompleted, raw
	})
	t.mu.Unlock()
	endControl()
	flush(true)
}

// Ask asks the client for input from inside a task, under key: the task
// goes to input_required until tasks/update answers with key, and Ask
// returns the answer. It returns the cause of ctx when ctx ends first.
// Call it only once the call became a task (see ID).
func (t *Task) Ask(ctx context.Context, key, method string, params any) (jsontext.Value, error) {
	t.mu.Lock()
	if _, dup := t.pending[key]; dup {
		t.mu.Unlock()
		return nil, fmt.Errorf("fastmcp: input key %q is used twice in one task", key)
	}
	raw, err := protocol.Marshal(params)
	if err != nil {
		t.mu.Unlock()
		return nil, fmt.Errorf("fastmcp: encoding %s: %w", method, err)
	}
	p := &pendingInput{req: protocol.InputRequest{Method: method, Params: raw}, answer: make(chan jsontext.Value, 1)}
	if t.pending == nil {
		t.pending = map[string]*pendingInput{}
	}
	t.pending[key] = p
	flush := t.syncInputsLocked()
	t.mu.Unlock()
	flush(true)
	select {
	case ans := <-p.answer:
		return ans, nil
	case <-ctx.Done():
		t.mu.Lock()
		flush := func(bool) {}
		if t.pending[key] == p {
			delete(t.pending, key)
			flush = t.syncInputsLocked()
		}
		t.mu.Unlock()
		flush(true)
		return nil, context.Cause(ctx)
	}
}

// SetStatus sets the task's status message (ctx.Progress inside a task);
// an empty message changes nothing. It returns false, and does nothing,
// before the call became a task.
func (t *Task) SetStatus(message string) bool {
	t.lockCreated()
	if !t.created {
		t.mu.Unlock()
		return false
	}
	if message == "" {
		t.mu.Unlock()
		return true
	}
	flush := t.changeLocked(func(r *store.TaskRecord) { r.StatusMessage = message })
	t.mu.Unlock()
	flush(true)
	return true
}

// ID returns the task's id once the call became a task; until then ok is
// false.
func (t *Task) ID() (id string, ok bool) {
	t.lockCreated()
	defer t.mu.Unlock()
	return t.id, t.created
}

// answer hands the client's answers to the input requests the task waits
// for; unknown or already answered keys are ignored. With wait it returns
// once the task's new state is stored (see changeLocked).
func (t *Task) answer(responses protocol.InputResponses, wait bool) {
	t.mu.Lock()
	answered := false
	for k, v := range responses {
		pi, ok := t.pending[k]
		if !ok {
			continue
		}
		delete(t.pending, k)
		pi.answer <- jsontext.Value(v)
		answered = true
	}
	if !answered {
		t.mu.Unlock()
		return
	}
	flush := t.syncInputsLocked()
	t.mu.Unlock()
	flush(wait)
}

// errCancelled is the cause a task's context is cancelled with on
// tasks/cancel.
var errCancelled = errors.New("fastmcp: the client cancelled the task")

// cancelByClient marks the task cancelled and cancels its handler's
// context (tasks/cancel). With wait it returns once the cancellation is
// stored; without, it may return before (the handler's outcome, queued
// after it, cannot overwrite it: see Manager.write).
func (t *Task) cancelByClient(wait bool) {
	t.mu.Lock()
	flush := t.changeLocked(func(r *store.TaskRecord) {
		r.Status, r.StatusMessage, r.InputRequests = protocol.TaskCancelled, "cancelled by the client", nil
	})
	t.mu.Unlock()
	flush(wait)
	t.cancel(errCancelled)
}
