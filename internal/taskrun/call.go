package taskrun

import (
	"context"
	"errors"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
)

// Call is a tools/call of a tool registered with fastmcp.TaskSupport, as
// Manager.Call runs it.
type Call struct {
	// Principal is who makes the call: the task is theirs.
	Principal string
	// Tool is the tool's name, kept in the task's record.
	Tool string
	// Required says the tool runs only as a task (fastmcp.TaskRequired):
	// at the bound on running tasks the call is refused, not run plain.
	Required bool
	// After delays the task: the call becomes one only if Run has not
	// returned after it (fastmcp.TaskOption.After).
	After time.Duration

	// Bind is called once, before Run, with the context the handler runs
	// with (cancelled by tasks/cancel, at Shutdown, by a lapsed lease, and
	// by the request's end until the call became a task) and the task.
	Bind func(ctx context.Context, t *Task)
	// Run runs the handler, on a goroutine the Manager owns (waited for at
	// Shutdown). Its result, when the call became a task, is stored as
	// the task's result (encoded with protocol.Marshal).
	Run func() (any, error)
	// Plain returns the answer of a call that ended before it became a
	// task, from what Run returned; it is called on Run's goroutine.
	Plain func(res any, err error) (any, error)
}

// callOutcome is how a call that did not become a task ended.
type callOutcome struct {
	res any
	err error
}

// Call serves a tools/call of a tool registered with TaskSupport, from a client
// that declared the tasks extension: it answers with the task created (a
// *protocol.TaskCreatedResult), or, for a call that ended within
// call.After, with call.Plain's answer. handled is false when the call is
// to run as a plain call instead (the bound on running tasks is reached,
// and the tool does not require a task).
func (m *Manager) Call(reqCtx context.Context, call Call) (res any, err error, handled bool) {
	if ok, err := m.reserve(call.Required); !ok {
		return nil, err, err != nil // without an error: served as a plain call
	}
	tctx, cancel := context.WithCancelCause(context.WithoutCancel(reqCtx))
	stopShutdown := context.AfterFunc(m.ctx, func() { cancel(context.Cause(m.ctx)) })
	t := &Task{m: m, cancel: cancel}
	call.Bind(tctx, t)
	// Until the call becomes a task, the request's end cancels it.
	stopReq := context.AfterFunc(reqCtx, func() {
		t.lockCreated()
		defer t.mu.Unlock()
		if !t.created {
			cancel(context.Cause(reqCtx))
		}
	})

	var rec *store.TaskRecord
	if call.After == 0 {
		if rec, err = t.create(reqCtx, call.Principal, call.Tool); err != nil {
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
		res, err := call.Run()
		t.lockCreated()
		t.finished = true
		created := t.created
		t.mu.Unlock()
		if !created {
			stopReq()
			res, err := call.Plain(res, err)
			outcome <- callOutcome{res, err}
			return
		}
		t.finish(tctx, res, err)
	}()
	if rec == nil {
		var o callOutcome
		if rec, o = t.createAfter(reqCtx, call, outcome); rec == nil {
			return o.res, o.err, true
		}
	}
	stopReq()
	return taskCreated(rec), nil, true
}

// createAfter makes the call a task once call.After has passed, unless it
// ended before. It returns the new task's record, or, without one, the
// call's answer.
func (t *Task) createAfter(reqCtx context.Context, call Call, outcome <-chan callOutcome) (*store.TaskRecord, callOutcome) {
	timer := time.NewTimer(call.After)
	defer timer.Stop()
	select {
	case o := <-outcome:
		return nil, o
	case <-timer.C:
	}
	rec, err := t.create(reqCtx, call.Principal, call.Tool)
	if err != nil {
		// Finished meanwhile, or the store failed: wait for the plain outcome.
		if errors.Is(err, errFinished) {
			return nil, <-outcome
		}
		t.cancel(err)
		<-outcome
		return nil, callOutcome{nil, err}
	}
	return rec, callOutcome{}
}
