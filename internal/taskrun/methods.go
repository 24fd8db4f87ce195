package taskrun

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/internal/taskext"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/store"
)

// ackResult is the empty result of tasks/update and tasks/cancel.
type ackResult struct{}

// lookupRecord checks that the request may use the tasks extension and
// returns the caller's task: another principal's task is not found.
func (m *Manager) lookupRecord(ctx context.Context, req *session.Request, params any) (*store.TaskRecord, error) {
	if !req.Era.TasksExtension() {
		return nil, fmt.Errorf("%w: %s belongs to the tasks extension of protocol 2026-07-28", protocol.ErrMethodNotFound, req.Method)
	}
	if !taskext.Declared(req.ClientCapabilities()) {
		return nil, taskext.Missing(req.Method + " needs it")
	}
	if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), params); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", protocol.ErrInvalidParams, req.Method, err)
	}
	var id string
	switch p := params.(type) {
	case *protocol.TaskParams:
		id = p.TaskID
	case *protocol.TaskUpdateParams:
		id = p.TaskID
	}
	if id == "" {
		return nil, fmt.Errorf("%w: %s: missing taskId", protocol.ErrInvalidParams, req.Method)
	}
	rec, err := m.store.Get(ctx, id)
	if errors.Is(err, store.ErrTaskNotFound) || (err == nil && rec.Principal != m.principal(req)) {
		return nil, fmt.Errorf("%w: unknown task %q", protocol.ErrInvalidParams, id)
	}
	if err != nil {
		return nil, m.unavailable("reading the task", err, "task", id)
	}
	if rec, err = m.checkLease(ctx, rec); err != nil {
		return nil, m.unavailable("checking the lease of the task", err, "task", id)
	}
	return rec, nil
}

// Get serves tasks/get.
func (m *Manager) Get(ctx context.Context, req *session.Request) (any, error) {
	rec, err := m.lookupRecord(ctx, req, new(protocol.TaskParams))
	if err != nil {
		return nil, err
	}
	return taskWire(rec), nil
}

// Update serves tasks/update: answers to input requests of a task
// running in this process are handed to it, those of a task running on
// another replica are sent there through the bus; unknown or already
// answered keys are ignored.
func (m *Manager) Update(ctx context.Context, req *session.Request) (any, error) {
	var p protocol.TaskUpdateParams
	rec, err := m.lookupRecord(ctx, req, &p)
	if err != nil {
		return nil, err
	}
	if len(p.InputResponses) == 0 {
		return ackResult{}, nil
	}
	if t := m.lookup(rec.ID); t != nil {
		t.answer(p.InputResponses, true)
		return ackResult{}, nil
	}
	if m.bus() != nil && !rec.Terminal() {
		if err := m.sendControl(ctx, rec.ID, control{InputResponses: p.InputResponses}); err != nil {
			return nil, m.unavailable("passing the input on to the replica running the task", err, "task", rec.ID)
		}
	}
	return ackResult{}, nil
}

// Cancel serves tasks/cancel: a task not yet ended is marked cancelled
// and its handler's context is cancelled (through the bus when it runs on
// another replica). Cancelling an ended task is acknowledged and changes
// nothing.
func (m *Manager) Cancel(ctx context.Context, req *session.Request) (any, error) {
	rec, err := m.lookupRecord(ctx, req, new(protocol.TaskParams))
	if err != nil {
		return nil, err
	}
	if rec.Terminal() {
		return ackResult{}, nil
	}
	if t := m.lookup(rec.ID); t != nil {
		t.cancelByClient(true)
		return ackResult{}, nil
	}
	// Running elsewhere (a shared store): record the cancellation, and
	// tell the replica running it to stop its handler.
	rec.Status, rec.StatusMessage, rec.InputRequests, rec.UpdatedAt = protocol.TaskCancelled, "cancelled by the client", nil, m.now()
	if err := m.store.Update(ctx, rec); err != nil {
		if errors.Is(err, store.ErrTaskNotFound) || errors.Is(err, store.ErrTaskEnded) {
			return ackResult{}, nil // ended meanwhile: that stands
		}
		return nil, m.unavailable("recording the cancellation", err, "task", rec.ID)
	}
	m.notify(rec)
	if m.bus() != nil {
		if err := m.sendControl(ctx, rec.ID, control{Cancel: true}); err != nil {
			// Recorded as cancelled: the handler's outcome will not be.
			m.logger.Warn("the replica running a cancelled task could not be told to stop it", "task", rec.ID, "error", err)
		}
	}
	return ackResult{}, nil
}

// Listen returns the tasks of a subscriptions/listen request's taskIds
// that the caller may follow: its own, still stored. A client that did not
// declare the tasks extension gets -32021.
func (m *Manager) Listen(ctx context.Context, req *session.Request, ids []string) ([]string, error) {
	if !taskext.Declared(req.ClientCapabilities()) {
		return nil, taskext.Missing("notifications/tasks need it")
	}
	var ok []string
	for _, id := range ids {
		rec, err := m.store.Get(ctx, id)
		switch {
		case err == nil && rec.Principal == m.principal(req):
			ok = append(ok, id)
		case err != nil && !errors.Is(err, store.ErrTaskNotFound):
			return nil, m.unavailable("reading a task to follow", err, "task", id)
		}
	}
	return ok, nil
}

// CheckLeases checks the leases of the tasks ids a listen stream follows
// (see checkLease): one whose replica died is reported failed, and the
// stream, following it, is told. It returns the tasks still running
// elsewhere, to check again every lease timeout; none without a
// store.TaskLeaseStore.
func (m *Manager) CheckLeases(ctx context.Context, ids []string) (open []string, every time.Duration) {
	if m.leases() == nil {
		return nil, m.leaseTimeout
	}
	for _, id := range ids {
		rec, err := m.store.Get(ctx, id)
		if err == nil {
			rec, err = m.checkLease(ctx, rec)
		}
		switch {
		case err == nil:
			if !rec.Terminal() {
				open = append(open, id)
			}
		case !errors.Is(err, store.ErrTaskNotFound):
			open = append(open, id) // try again
			m.logger.Warn("task store: checking the lease of a task followed failed", "task", id, "error", err)
		}
	}
	return open, m.leaseTimeout
}

// notifyTask sends notifications/tasks with the task's state to the
// listen streams that follow it: with a bus, on every replica (each
// listener subscribed to the task's status, see Follow).
func (m *Manager) notifyTask(rec *store.TaskRecord) {
	if m.bus() != nil {
		m.publishStatus(rec)
		return
	}
	m.broadcast(rec.ID, taskWire(rec))
}

// broadcast sends notifications/tasks to this process's listen streams
// following task id.
func (m *Manager) broadcast(id string, params any) {
	if m.cfg.Broadcast != nil {
		m.cfg.Broadcast(id, params)
	}
}
