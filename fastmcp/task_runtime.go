package fastmcp

import (
	"context"
	"fmt"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/lowlevel"
)

// taskCode is the taskRunner the Task tool option installs: the one way
// the rest of the server reaches the task runtime (see hooks.go).
type taskCode struct{}

func (taskCode) checkSettings(set TaskSettings) { leaseSettings(set) }

// check reports a misconfigured TaskOption at registration.
func (taskCode) check(o *taskSpec, tool string) error {
	if o.mode != TaskOptional && o.mode != TaskRequired {
		return fmt.Errorf("fastmcp: tool %q: Task needs fastmcp.TaskOptional or fastmcp.TaskRequired, got %d", tool, o.mode)
	}
	if o.after < 0 {
		return fmt.Errorf("fastmcp: tool %q: Task(...).After needs a duration >= 0, got %v", tool, o.after)
	}
	return nil
}

func (taskCode) enable(s *Server) {
	if s.taskRun != nil {
		return
	}
	set := s.cfg.tasks
	if set.Store == nil {
		set.Store = s.sharedTasks // the shared stores', when opened already
	}
	m := newTaskManager(set)
	m.notify = s.notifyTask
	m.subscribeControl = s.subscribeTaskControl
	m.logger = s.logger
	s.tasks, s.taskRun = m, taskCode{}
	s.installTaskHandlers()
}

func (taskCode) call(s *Server, c *Context, t *tool, args jsontext.Value) (any, error, bool) {
	return s.callAsTask(c, t, args)
}

func (taskCode) listen(ctx context.Context, s *Server, req *lowlevel.Request, ids []string) ([]string, error) {
	return s.listenTasks(ctx, req, ids)
}

func (taskCode) follow(ctx context.Context, s *Server, ln *listener) (func(), error) {
	unfollow, err := s.followTasks(ctx, ln)
	if err != nil {
		return nil, s.tasks.unavailable("subscribing to the status of the tasks followed", err)
	}
	return unfollow, nil
}

func (taskCode) checkLeases(ctx context.Context, s *Server, ids []string) ([]string, time.Duration) {
	return s.checkListenedLeases(ctx, ids), s.tasks.leaseTimeout
}

func (taskCode) shutdown(ctx context.Context, s *Server) error { return s.tasks.shutdown(ctx) }

// runningCall is the taskCall of a call run by callAsTask.
type runningCall struct{ rt *runningTask }

func (r runningCall) taskID() (string, bool)        { return r.rt.createdID() }
func (r runningCall) setStatus(message string) bool { return r.rt.status(message) }
func (r runningCall) askClient(c *Context, kind, key, method string, params, result any) (bool, error) {
	return r.rt.ask(c, kind, key, method, params, result)
}
