package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// taskManager runs the server's tasks: it owns their goroutines (ended and
// waited for at Shutdown) and the in-process state of the running ones (their
// cancel functions and the input they wait for).
type taskManager struct {
	store store.TaskStore
	ttl   time.Duration
	poll  time.Duration
	now   func() time.Time
	// notify sends a task's new state to the listen streams following it.
	notify func(*store.TaskRecord)
	// logger receives the store's failures to record a task's new state.
	logger *slog.Logger
	// subscribeControl subscribes to the requests other replicas pass on
	// for a task created here (see Bus); nil: none.
	subscribeControl func(ctx context.Context, id string) (unsubscribe func(), err error)

	ctx    context.Context // cancelled at shutdown
	cancel context.CancelCauseFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	running map[string]*runningTask
	closed  bool
	active  int // task handlers running (bounded by max)
	max     int // TaskSettings.MaxRunning; 0: no bound

	// Leases (a store.TaskLeaseStore): this replica's name in the records of
	// the tasks it runs, and the renewals' settings; renewing says the
	// goroutine renewing them runs.
	replica                   string
	leasePeriod, leaseTimeout time.Duration
	renewing                  bool
}

func newTaskManager(set TaskSettings) *taskManager {
	m := &taskManager{store: set.Store, ttl: set.TTL, poll: set.PollInterval, now: time.Now,
		running: map[string]*runningTask{}, logger: slog.New(slog.DiscardHandler), replica: newReplicaID()}
	m.leasePeriod, m.leaseTimeout = leaseSettings(set)
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
	case set.MaxRunning == 0:
		m.max = DefaultMaxRunningTasks
	case set.MaxRunning > 0:
		m.max = set.MaxRunning
	}
	m.ctx, m.cancel = context.WithCancelCause(context.Background())
	return m
}

// shutdown cancels the running tasks and waits for their goroutines until
// ctx is done.
func (m *taskManager) shutdown(ctx context.Context) error {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.cancel(errTaskShutdown)
	done := make(chan struct{})
	go func() { m.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("fastmcp: tasks still running at shutdown: %w", ctx.Err())
	}
}

// done records that a task handler counted by callAsTask has returned.
func (m *taskManager) done() {
	m.mu.Lock()
	m.active--
	m.mu.Unlock()
	m.wg.Done()
}

// runningTask is the in-process state of one call that runs, or may come
// to run, as a task.
type runningTask struct {
	m      *taskManager
	cancel context.CancelCauseFunc

	// mu guards the fields below. Nothing does I/O under it: the task
	// store, the lease store, the bus and notify are called outside it
	// (see create and change), so a stalled store or bus holds up only
	// the goroutines that wait for that write, never one that merely
	// needs the lock (ctx.Log's createdID, tasks/update, tasks/cancel,
	// the bus worker). Lock order: mu, then taskManager.mu; never the
	// other way round.
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

// callOutcome is how a call that did not become a task ended.
type callOutcome struct {
	res any
	err error
}

// callAsTask serves a tools/call of a tool registered with Task. handled is
// false when the call runs as a plain call (the client did not declare the
// extension and the tool does not require it).
func (s *Server) callAsTask(c *Context, t *tool, args jsontext.Value) (res any, err error, handled bool) {
	if !c.req.Era.TasksExtension() || !declaresTasks(c.req.ClientCapabilities()) {
		if t.task.mode == TaskRequired {
			return nil, missingTasksExtension("tool " + strconv.Quote(t.def.Name) + " runs only as a task"), true
		}
		return nil, nil, false
	}
	m := s.tasks
	if ok, err := m.reserve(t); !ok {
		return nil, err, err != nil // without an error: served as a plain call
	}

	reqCtx := c.Context
	tctx, cancel := context.WithCancelCause(context.WithoutCancel(reqCtx))
	stopShutdown := context.AfterFunc(m.ctx, func() { cancel(context.Cause(m.ctx)) })
	rt := &runningTask{m: m, cancel: cancel}
	c.Context, c.task = tctx, runningCall{rt}
	// Until the call becomes a task, the request's end cancels it.
	stopReq := context.AfterFunc(reqCtx, func() {
		rt.lockCreated()
		defer rt.mu.Unlock()
		if !rt.created {
			cancel(context.Cause(reqCtx))
		}
	})
	princ := s.principal(c.req)

	var rec *store.TaskRecord
	if t.task.after == 0 {
		if rec, err = rt.create(reqCtx, princ, t.def.Name); err != nil {
			stopReq()
			stopShutdown()
			cancel(err)
			m.done()
			return nil, err, true
		}
	}
	outcome := make(chan callOutcome, 1)
	go func() {
		defer m.done()
		defer stopShutdown()
		defer cancel(nil)
		res, err := s.runTool(c, t, args)
		rt.lockCreated()
		rt.finished = true
		created := rt.created
		rt.mu.Unlock()
		if !created {
			stopReq()
			outcome <- plainOutcome(c, res, err)
			return
		}
		rt.finish(tctx, res, err)
	}()
	if rec != nil {
		stopReq()
		return taskCreated(rec), nil, true
	}
	timer := time.NewTimer(t.task.after)
	defer timer.Stop()
	select {
	case o := <-outcome:
		return o.res, o.err, true
	case <-timer.C:
	}
	rec, err = rt.create(reqCtx, princ, t.def.Name)
	if err != nil {
		// Finished meanwhile, or the store failed: wait for the plain outcome.
		if errors.Is(err, errTaskFinished) {
			o := <-outcome
			return o.res, o.err, true
		}
		cancel(err)
		<-outcome
		return nil, err, true
	}
	stopReq()
	return taskCreated(rec), nil, true
}

// reserve counts a new task of tool t in. It returns false and an error
// when the call fails (the server is shutting down, or the bound on running
// tasks is reached and t runs only as a task), and false without one when
// the call is to run as a plain call (the bound is reached).
func (m *taskManager) reserve(t *tool) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return false, protocol.Errorf(protocol.CodeInternalError, "the server is shutting down")
	}
	if m.max > 0 && m.active >= m.max {
		if t.task.mode == TaskRequired {
			return false, protocol.Errorf(protocol.CodeInternalError, "too many tasks are running (%d, the server's bound): try again later", m.max)
		}
		return false, nil
	}
	m.active++
	m.wg.Add(1)
	return true, nil
}

// plainOutcome is how a call that ended before it became a task is
// answered: with its input_required result when it asked for input, else
// with what it returned.
func plainOutcome(c *Context, res any, err error) callOutcome {
	ir, ierr := c.inputRequired()
	switch {
	case ierr != nil:
		return callOutcome{nil, ierr}
	case ir != nil:
		return callOutcome{ir, nil}
	}
	return callOutcome{res, err}
}

var errTaskFinished = errors.New("fastmcp: the call finished before it became a task")

// lockCreated locks rt.mu once no creation is under way: create stores
// the task outside the lock, and whoever needs its outcome waits here.
func (rt *runningTask) lockCreated() {
	rt.mu.Lock()
	for rt.creating != nil {
		ch := rt.creating
		rt.mu.Unlock()
		<-ch
		rt.mu.Lock()
	}
}

// create turns the call into a task: the record is stored before the
// tools/call result announces it. The bus subscription, the lease and the
// record are written outside rt.mu, with rt.creating set meanwhile.
func (rt *runningTask) create(ctx context.Context, principal, tool string) (*store.TaskRecord, error) {
	rt.lockCreated()
	if rt.finished {
		rt.mu.Unlock()
		return nil, errTaskFinished
	}
	settled := make(chan struct{})
	rt.creating = settled
	rt.mu.Unlock()
	rec, endControl, err := rt.m.createRecord(ctx, principal, tool)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.creating = nil
	close(settled)
	if err != nil {
		return nil, err
	}
	rt.id, rt.created, rt.endControl = rec.ID, true, endControl
	rt.m.mu.Lock()
	rt.m.running[rec.ID] = rt
	rt.m.mu.Unlock()
	return rec, nil
}

// createRecord creates a task's record: it subscribes to the task's requests on
// the bus, takes its lease and stores it. endControl ends the
// subscription.
func (m *taskManager) createRecord(ctx context.Context, principal, tool string) (rec *store.TaskRecord, endControl func(), err error) {
	now := m.now()
	rec = &store.TaskRecord{
		ID: newTaskID(), Principal: principal, Tool: tool, Status: protocol.TaskWorking,
		CreatedAt: now, UpdatedAt: now, TTL: m.ttl, PollInterval: m.poll, Runner: m.replica,
	}
	// Subscribed before the task is announced, so that a tasks/update or
	// tasks/cancel reaching another replica at once is passed on.
	endControl = func() {}
	if m.subscribeControl != nil {
		if endControl, err = m.subscribeControl(ctx, rec.ID); err != nil {
			return nil, nil, m.unavailable("subscribing to the new task's requests on the bus", err, "tool", tool)
		}
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
// changes made before it; rt.mu held. fn must not read what rt.mu guards
// (it runs without the lock): take a copy first. The returned function,
// called once rt.mu is released, writes the queued changes in order,
// unless another goroutine is at it already; with wait it returns once fn
// is written. So the store sees a task's states in the order they were
// made, and whoever does not wait (the bus worker) is never held up by a
// stalled store.
func (rt *runningTask) changeLocked(fn func(*store.TaskRecord)) (flush func(wait bool)) {
	w := &taskWrite{fn: fn, done: make(chan struct{})}
	rt.writes = append(rt.writes, w)
	return func(wait bool) {
		rt.drain()
		if wait {
			<-w.done
		}
	}
}

// drain writes the queued changes, unless another goroutine is at it.
func (rt *runningTask) drain() {
	rt.mu.Lock()
	if rt.writing {
		rt.mu.Unlock()
		return
	}
	rt.writing = true
	for len(rt.writes) > 0 {
		w := rt.writes[0]
		rt.writes[0] = nil
		rt.writes = rt.writes[1:]
		id := rt.id
		rt.mu.Unlock()
		rt.m.write(id, w.fn)
		close(w.done)
		rt.mu.Lock()
	}
	rt.writes = nil
	rt.writing = false
	rt.mu.Unlock()
}

// write changes the stored record of task id with fn unless it is
// terminal, and notifies the task's followers of the new state. A store
// that fails or stalls (storeTimeout) loses the change, with a log line:
// clients keep seeing the task's last stored state. A terminal state
// stored meanwhile (cancelled, or failed elsewhere) stands: the store
// refuses to change it (store.ErrTaskEnded).
func (m *taskManager) write(id string, fn func(*store.TaskRecord)) {
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
	if m.notify != nil {
		m.notify(rec)
	}
}

// storeTimeout bounds each task-store operation the running tasks make.
const storeTimeout = 10 * time.Second

// syncInputsLocked queues the write of the pending input requests (and
// the status they imply); rt.mu held. See changeLocked.
func (rt *runningTask) syncInputsLocked() (flush func(wait bool)) {
	status, reqs := protocol.TaskWorking, protocol.InputRequests(nil)
	if len(rt.pending) > 0 {
		status = protocol.TaskInputRequired
		reqs = make(protocol.InputRequests, len(rt.pending))
		for k, p := range rt.pending {
			reqs[k] = p.req
		}
	}
	return rt.changeLocked(func(r *store.TaskRecord) { r.Status, r.InputRequests = status, reqs })
}

// finish stores the outcome of the handler of a task, and returns once it
// is written.
func (rt *runningTask) finish(ctx context.Context, res *ToolResult, err error) {
	rt.mu.Lock()
	rt.m.mu.Lock()
	delete(rt.m.running, rt.id)
	rt.m.mu.Unlock()
	endControl := rt.endControl
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
	rt.pending = nil
	flush := rt.changeLocked(func(r *store.TaskRecord) {
		r.InputRequests = nil
		if perr != nil {
			r.Status, r.Error = protocol.TaskFailed, perr
			return
		}
		r.Status, r.Result = protocol.TaskCompleted, raw
	})
	rt.mu.Unlock()
	endControl()
	flush(true)
}

// ask asks the client for input from inside a task: the task goes to
// input_required until tasks/update answers. handled is false before the
// call became a task (the multi round-trip mechanism applies then).
func (rt *runningTask) ask(c *Context, kind, key, method string, params, result any) (handled bool, err error) {
	rt.lockCreated()
	if !rt.created {
		rt.mu.Unlock()
		return false, nil
	}
	c.in.n++
	if key == "" {
		key = kind + "-" + strconv.Itoa(c.in.n)
	}
	if raw, ok := c.in.answers[key]; ok {
		rt.mu.Unlock()
		return true, decodeAnswer(key, raw, result)
	}
	if _, dup := rt.pending[key]; dup {
		rt.mu.Unlock()
		return true, fmt.Errorf("fastmcp: input key %q is used twice in one task", key)
	}
	raw, err := protocol.Marshal(params)
	if err != nil {
		rt.mu.Unlock()
		return true, fmt.Errorf("fastmcp: encoding %s: %w", method, err)
	}
	p := &pendingInput{req: protocol.InputRequest{Method: method, Params: raw}, answer: make(chan jsontext.Value, 1)}
	if rt.pending == nil {
		rt.pending = map[string]*pendingInput{}
	}
	rt.pending[key] = p
	flush := rt.syncInputsLocked()
	rt.mu.Unlock()
	flush(true)
	select {
	case ans := <-p.answer:
		return true, decodeAnswer(key, ans, result)
	case <-c.Done():
		rt.mu.Lock()
		flush := func(bool) {}
		if rt.pending[key] == p {
			delete(rt.pending, key)
			flush = rt.syncInputsLocked()
		}
		rt.mu.Unlock()
		flush(true)
		return true, context.Cause(c)
	}
}

func decodeAnswer(key string, raw jsontext.Value, result any) error {
	if err := protocol.Unmarshal(raw, result); err != nil {
		return fmt.Errorf("%w: inputResponses[%q]: %v", protocol.ErrInvalidParams, key, err)
	}
	return nil
}

// status sets the task's status message (ctx.Progress inside a task);
// handled is false before the call became a task.
func (rt *runningTask) status(message string) bool {
	rt.lockCreated()
	if !rt.created {
		rt.mu.Unlock()
		return false
	}
	if message == "" {
		rt.mu.Unlock()
		return true
	}
	flush := rt.changeLocked(func(r *store.TaskRecord) { r.StatusMessage = message })
	rt.mu.Unlock()
	flush(true)
	return true
}

// createdID returns the task's id once the call became a task; rt may be
// nil (a call that is not a task).
func (rt *runningTask) createdID() (string, bool) {
	if rt == nil {
		return "", false
	}
	rt.lockCreated()
	defer rt.mu.Unlock()
	return rt.id, rt.created
}
