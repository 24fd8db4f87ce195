package fastmcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/taskrun"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// taskCode is the taskRunner the TaskSupport tool option installs: the one way
// the rest of the server reaches the task runtime (see hooks.go), whose
// code is package internal/taskrun. The options install it without a
// manager; enable installs it on the server with one.
type taskCode struct{ m *taskrun.Manager }

func (taskCode) checkSettings(set TaskSettings) {
	taskrun.LeaseSettings(set.LeasePeriod, set.LeaseTimeout)
}

// check reports a misconfigured TaskOption at registration.
func (taskCode) check(o *taskSpec, tool string) error {
	if o.mode != TaskOptional && o.mode != TaskRequired {
		return fmt.Errorf("fastmcp: tool %q: TaskSupport needs fastmcp.TaskOptional or fastmcp.TaskRequired, got %d", tool, o.mode)
	}
	if o.after < 0 {
		return fmt.Errorf("fastmcp: tool %q: TaskSupport(...).After needs a duration >= 0, got %v", tool, o.after)
	}
	return nil
}

// enable makes s run tasks, once: it makes the task manager, declares the
// tasks extension and serves tasks/get, tasks/update and tasks/cancel;
// s.mu held. tasks/result and tasks/list, which the extension dropped,
// stay unknown methods.
func (taskCode) enable(s *Server) {
	if s.taskRun != nil {
		return
	}
	set := s.cfg.tasks
	if set.Store == nil {
		set.Store = s.sharedTasks // the shared stores', when opened already
	}
	m := taskrun.New(taskrun.Config{
		Store: set.Store, TTL: set.TTL, PollInterval: set.PollInterval, MaxRunning: set.MaxRunning,
		LeasePeriod: set.LeasePeriod, LeaseTimeout: set.LeaseTimeout,
		Logger: s.logger, Principal: s.principal, Bus: func() store.Bus { return s.bus.bus }, Enqueue: s.enqueue,
		Broadcast: func(id string, params any) {
			s.listen.send(protocol.NotificationTasks, params,
				func(f *protocol.SubscriptionFilter) bool { return slices.Contains(f.TaskIDs, id) })
		},
	})
	s.taskRun = taskCode{m}
	s.ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) {
		if c.Extensions == nil {
			c.Extensions = map[string]json.RawMessage{}
		}
		c.Extensions[protocol.ExtensionTasks] = json.RawMessage("{}")
	})
	s.ll.Handle(protocol.MethodTasksGet, lowlevel.HandlerFunc(m.Get))
	s.ll.Handle(protocol.MethodTasksUpdate, lowlevel.HandlerFunc(m.Update))
	s.ll.Handle(protocol.MethodTasksCancel, lowlevel.HandlerFunc(m.Cancel))
}

func (tc taskCode) useStore(st store.TaskStore) { tc.m.SetStore(st) }

// call serves a tools/call of a tool registered with TaskSupport. handled is
// false when the call runs as a plain call (the client did not declare the
// extension and the tool does not require it, or the bound on running
// tasks is reached).
func (taskCode) call(s *Server, c *Context, t *tool, args jsontext.Value) (res any, err error, handled bool) {
	if !c.req.Era.TasksExtension() || !declaresTasks(c.req.ClientCapabilities()) {
		if t.task.mode == TaskRequired {
			return nil, missingTasksExtension("tool " + strconv.Quote(t.def.Name) + " runs only as a task"), true
		}
		return nil, nil, false
	}
	m := s.taskRuntime().(taskCode).m
	return m.Call(c.Context, taskrun.Call{
		Principal: s.principal(c.req), Tool: t.def.Name, Required: t.task.mode == TaskRequired, After: t.task.after,
		Bind: func(ctx context.Context, task *taskrun.Task) { c.Context, c.task = ctx, runningCall{task} },
		Run:  func() (any, error) { return s.runTool(c, t, args) },
		Plain: func(res any, err error) (any, error) {
			// Ended before it became a task: its input_required result
			// when it asked for input, else what it returned.
			if ir, ierr := c.inputRequired(); ierr != nil || ir != nil {
				if ierr != nil {
					return nil, ierr
				}
				return ir, nil
			}
			return res, err
		},
	})
}

func (tc taskCode) listen(ctx context.Context, _ *Server, req *lowlevel.Request, ids []string) ([]string, error) {
	return tc.m.Listen(ctx, req, ids)
}

func (tc taskCode) follow(ctx context.Context, _ *Server, ln *listener) (func(), error) {
	return tc.m.Follow(ctx, ln.filter.TaskIDs, func(raw json.RawMessage) { ln.send(protocol.NotificationTasks, raw) })
}

func (tc taskCode) checkLeases(ctx context.Context, _ *Server, ids []string) ([]string, time.Duration) {
	return tc.m.CheckLeases(ctx, ids)
}

func (tc taskCode) shutdown(ctx context.Context, _ *Server) error { return tc.m.Shutdown(ctx) }

// runningCall is the taskCall of a call run as a task.
type runningCall struct{ t *taskrun.Task }

func (r runningCall) taskID() (string, bool)        { return r.t.ID() }
func (r runningCall) setStatus(message string) bool { return r.t.SetStatus(message) }

// askClient asks the client for input through the task, once the call
// became one: an answer the request carried already (inputResponses of
// the call's multi round-trip start) is taken from it.
func (r runningCall) askClient(c *Context, kind, key, method string, params, result any) (bool, error) {
	if _, ok := r.t.ID(); !ok {
		return false, nil
	}
	c.in.n++
	if key == "" {
		key = kind + "-" + strconv.Itoa(c.in.n)
	}
	raw, ok := c.in.answers[key]
	if !ok {
		var err error
		if raw, err = r.t.Ask(c, key, method, params); err != nil {
			return true, err
		}
	}
	if err := protocol.Unmarshal(raw, result); err != nil {
		return true, fmt.Errorf("%w: inputResponses[%q]: %v", protocol.ErrInvalidParams, key, err)
	}
	return true, nil
}
