package fastmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// installTaskHandlers declares the tasks extension and serves tasks/get,
// tasks/update and tasks/cancel; s.mu held. tasks/result and tasks/list,
// which the extension dropped, stay unknown methods.
func (s *Server) installTaskHandlers() {
	if s.tasksInstalled {
		return
	}
	s.tasksInstalled = true
	s.ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) {
		if c.Extensions == nil {
			c.Extensions = map[string]json.RawMessage{}
		}
		c.Extensions[protocol.ExtensionTasks] = json.RawMessage("{}")
	})
	s.ll.Handle(protocol.MethodTasksGet, lowlevel.HandlerFunc(s.getTask))
	s.ll.Handle(protocol.MethodTasksUpdate, lowlevel.HandlerFunc(s.updateTask))
	s.ll.Handle(protocol.MethodTasksCancel, lowlevel.HandlerFunc(s.cancelTask))
}

// ackResult is the empty result of tasks/update and tasks/cancel.
type ackResult struct{}

// lookupTask checks that the request may use the tasks extension and
// returns the caller's task: another principal's task is not found.
func (s *Server) lookupTask(ctx context.Context, req *lowlevel.Request, params any) (*store.TaskRecord, error) {
	if !req.Era.TasksExtension() {
		return nil, fmt.Errorf("%w: %s belongs to the tasks extension of protocol 2026-07-28", protocol.ErrMethodNotFound, req.Method)
	}
	if !declaresTasks(req.ClientCapabilities()) {
		return nil, missingTasksExtension(req.Method + " needs it")
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
	rec, err := s.tasks.store.Get(ctx, id)
	if errors.Is(err, store.ErrTaskNotFound) || (err == nil && rec.Principal != s.principal(req)) {
		return nil, fmt.Errorf("%w: unknown task %q", protocol.ErrInvalidParams, id)
	}
	if err != nil {
		return nil, s.tasks.unavailable("reading the task", err, "task", id)
	}
	if rec, err = s.checkLease(ctx, rec); err != nil {
		return nil, s.tasks.unavailable("checking the lease of the task", err, "task", id)
	}
	return rec, nil
}

// getTask serves tasks/get.
func (s *Server) getTask(ctx context.Context, req *lowlevel.Request) (any, error) {
	rec, err := s.lookupTask(ctx, req, new(protocol.TaskParams))
	if err != nil {
		return nil, err
	}
	return taskWire(rec), nil
}

// updateTask serves tasks/update: answers to input requests of a task
// running in this process are handed to it, those of a task running on
// another replica are sent there through the bus; unknown or already
// answered keys are ignored.
func (s *Server) updateTask(ctx context.Context, req *lowlevel.Request) (any, error) {
	var p protocol.TaskUpdateParams
	rec, err := s.lookupTask(ctx, req, &p)
	if err != nil {
		return nil, err
	}
	if len(p.InputResponses) == 0 {
		return ackResult{}, nil
	}
	s.tasks.mu.Lock()
	rt := s.tasks.running[rec.ID]
	s.tasks.mu.Unlock()
	if rt != nil {
		rt.answer(p.InputResponses, true)
		return ackResult{}, nil
	}
	if s.bus.bus != nil && !rec.Terminal() {
		if err := s.sendTaskControl(ctx, rec.ID, busControl{InputResponses: p.InputResponses}); err != nil {
			return nil, s.tasks.unavailable("passing the input on to the replica running the task", err, "task", rec.ID)
		}
	}
	return ackResult{}, nil
}

// answer hands the client's answers to the input requests the task waits
// for; unknown or already answered keys are ignored. With wait it returns
// once the task's new state is stored (see changeLocked).
func (rt *runningTask) answer(responses protocol.InputResponses, wait bool) {
	rt.mu.Lock()
	answered := false
	for k, v := range responses {
		pi, ok := rt.pending[k]
		if !ok {
			continue
		}
		delete(rt.pending, k)
		pi.answer <- jsontext.Value(v)
		answered = true
	}
	if !answered {
		rt.mu.Unlock()
		return
	}
	flush := rt.syncInputsLocked()
	rt.mu.Unlock()
	flush(wait)
}

// cancelTask serves tasks/cancel: a task not yet ended is marked cancelled
// and its handler's context is cancelled (through the bus when it runs on
// another replica). Cancelling an ended task is acknowledged and changes
// nothing.
func (s *Server) cancelTask(ctx context.Context, req *lowlevel.Request) (any, error) {
	rec, err := s.lookupTask(ctx, req, new(protocol.TaskParams))
	if err != nil {
		return nil, err
	}
	if rec.Terminal() {
		return ackResult{}, nil
	}
	s.tasks.mu.Lock()
	rt := s.tasks.running[rec.ID]
	s.tasks.mu.Unlock()
	if rt != nil {
		rt.cancelByClient(true)
		return ackResult{}, nil
	}
	// Running elsewhere (a shared store): record the cancellation, and
	// tell the replica running it to stop its handler.
	rec.Status, rec.StatusMessage, rec.InputRequests, rec.UpdatedAt = protocol.TaskCancelled, "cancelled by the client", nil, s.tasks.now()
	if err := s.tasks.store.Update(ctx, rec); err != nil {
		if errors.Is(err, store.ErrTaskNotFound) || errors.Is(err, store.ErrTaskEnded) {
			return ackResult{}, nil // ended meanwhile: that stands
		}
		return nil, s.tasks.unavailable("recording the cancellation", err, "task", rec.ID)
	}
	s.notifyTask(rec)
	if s.bus.bus != nil {
		if err := s.sendTaskControl(ctx, rec.ID, busControl{Cancel: true}); err != nil {
			// Recorded as cancelled: the handler's outcome will not be.
			s.logger.Warn("the replica running a cancelled task could not be told to stop it", "task", rec.ID, "error", err)
		}
	}
	return ackResult{}, nil
}

// cancelByClient marks the task cancelled and cancels its handler's
// context (tasks/cancel). With wait it returns once the cancellation is
// stored; without, it may return before (the handler's outcome, queued
// after it, cannot overwrite it: see taskManager.write).
func (rt *runningTask) cancelByClient(wait bool) {
	rt.mu.Lock()
	flush := rt.changeLocked(func(r *store.TaskRecord) {
		r.Status, r.StatusMessage, r.InputRequests = protocol.TaskCancelled, "cancelled by the client", nil
	})
	rt.mu.Unlock()
	flush(wait)
	rt.cancel(errTaskCancelled)
}

// listenTasks returns the tasks of a subscriptions/listen request's taskIds
// that the caller may follow: its own, still stored. A client that did not
// declare the tasks extension gets -32021.
func (s *Server) listenTasks(ctx context.Context, req *lowlevel.Request, ids []string) ([]string, error) {
	if !declaresTasks(req.ClientCapabilities()) {
		return nil, missingTasksExtension("notifications/tasks need it")
	}
	var ok []string
	for _, id := range ids {
		rec, err := s.tasks.store.Get(ctx, id)
		switch {
		case err == nil && rec.Principal == s.principal(req):
			ok = append(ok, id)
		case err != nil && !errors.Is(err, store.ErrTaskNotFound):
			return nil, s.tasks.unavailable("reading a task to follow", err, "task", id)
		}
	}
	return ok, nil
}

// checkListenedLeases checks the leases of the tasks ids a listen stream
// follows (see checkLease): one whose replica died is reported failed,
// and the stream, following it, is told. It returns the tasks still
// running elsewhere, to check again later; none without a store.TaskLeaseStore.
func (s *Server) checkListenedLeases(ctx context.Context, ids []string) []string {
	if s.tasks.leases() == nil {
		return nil
	}
	var open []string
	for _, id := range ids {
		rec, err := s.tasks.store.Get(ctx, id)
		if err == nil {
			rec, err = s.checkLease(ctx, rec)
		}
		switch {
		case err == nil:
			if !rec.Terminal() {
				open = append(open, id)
			}
		case !errors.Is(err, store.ErrTaskNotFound):
			open = append(open, id) // try again
			s.logger.Warn("task store: checking the lease of a task followed failed", "task", id, "error", err)
		}
	}
	return open
}

// notifyTask sends notifications/tasks with the task's state to the
// listen streams that follow it: with a bus, on every replica (each
// listener subscribed to the task's status, see serveListen).
func (s *Server) notifyTask(rec *store.TaskRecord) {
	if s.bus.bus != nil {
		s.publishTaskStatus(rec)
		return
	}
	s.listen.send(protocol.NotificationTasks, taskWire(rec),
		func(f *protocol.SubscriptionFilter) bool { return slices.Contains(f.TaskIDs, rec.ID) })
}
