package fastmcp

import (
	"context"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/taskext"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/store"
)

// The seams where optional features plug into the server. The code of a
// task, a bus or a proxy (package proxy, through Server.proxy, a
// serverlink.Backend) is reached only through an interface below, which
// the option or registration that uses the feature installs: the linker
// then leaves the feature's code out of servers that do not use it (issue
// 30, "link only what is used"; TestMinimalServerLinks lists what a
// minimal server links). Do not replace these by direct calls: one direct
// call from code every server links (New, Start, Shutdown, tools/call,
// subscriptions/listen) links the whole feature into every server.

// taskRunner is the task runtime (package internal/taskrun, through the
// adapter in task_runtime.go) as the rest of the server reaches it. The TaskSupport tool option installs it (TaskOption.applyTool);
// registering the first such tool enables it on the server (Server.taskRun).
// The Tasks option installs it too, for New to check its settings.
type taskRunner interface {
	// checkSettings panics on settings that cannot work, saying how to
	// fix them.
	checkSettings(set TaskSettings)
	// check reports what is wrong with a tool's TaskSupport option.
	check(o *taskSpec, tool string) error
	// enable makes s run tasks, once: its task manager and the tasks
	// methods; s.mu held.
	enable(s *Server)
	// useStore makes the tasks of the server it was enabled on stored in
	// st (the shared stores, opened after the first tool registered with
	// TaskSupport); s.mu held.
	useStore(st store.TaskStore)
	// call serves a tools/call of t, a tool registered with TaskSupport.
	call(s *Server, c *Context, t *tool, args jsontext.Value) (res any, err error, handled bool)
	// listen returns the tasks of a subscriptions/listen request the
	// caller may follow; follow subscribes ln to their status through the
	// bus; checkLeases returns those still running on a live replica, and
	// how often to check them again.
	listen(ctx context.Context, s *Server, req *lowlevel.Request, ids []string) ([]string, error)
	follow(ctx context.Context, s *Server, ln *listener) (unfollow func(), err error)
	checkLeases(ctx context.Context, s *Server, ids []string) (open []string, every time.Duration)
	// shutdown cancels the running tasks and waits for them until ctx is
	// done.
	shutdown(ctx context.Context, s *Server) error
}

// taskRuntime returns the server's task runtime: nil until a tool
// registered with TaskSupport enabled it.
func (s *Server) taskRuntime() taskRunner {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.taskRun
}

// taskCall is the task a call runs as (a runningCall), as Context reaches
// it; nil for a call that is not a task.
type taskCall interface {
	// taskID returns the task's id once the call became a task.
	taskID() (string, bool)
	// setStatus sets the task's status message; false before the call
	// became a task.
	setStatus(message string) bool
	// askClient passes a request for input to the client through the
	// task; handled is false before the call became a task.
	askClient(c *Context, kind, key, method string, params, result any) (handled bool, err error)
}

// busRunner is the bus's code (bus.go) as Start, Shutdown and the
// announcements reach it. Only what can give a server a bus installs it:
// the SharedStores option, and RegisterStoreBackend for the
// RedisURL setting. It is indirect on purpose: a direct call of the bus's
// code from Start would link it, and package pubsub, into every server
// (issue 30; TestMinimalServerLinks checks it).
type busRunner interface {
	start(ctx context.Context, s *Server) error
	stop(s *Server)
	announce(ctx context.Context, s *Server, n busNotice) error
}

// declaresTasks reports whether the client capabilities declare the tasks
// extension, and missingTasksExtension is the -32021 error naming it. They
// serve every server (mount forwarding, subscriptions/listen), not only
// those that run tasks; the task runtime makes the same checks.
var (
	declaresTasks         = taskext.Declared
	missingTasksExtension = taskext.Missing
)

// transforms is the tool transformations of a server (TransformTool,
// transform.go), as the rest of the server reaches them: registering or
// removing a tool brings the derived tools in step. TransformTool installs
// it (Server.xf).
type transforms interface {
	// apply brings the derived tools in step with their sources and
	// reports whether the tools changed; s.mu held.
	apply(s *Server) bool
	// drop forgets the transformation deriving the tool name; s.mu held.
	drop(name string)
}

// applyTransforms brings the derived tools (TransformTool) in step with
// their sources after the tools changed, and reports whether that changed
// the tools; s.mu held.
func (s *Server) applyTransforms() bool { return s.xf != nil && s.xf.apply(s) }

// derivedRun is the run of a derived tool's calls (TransformTool):
// (*derivedTool).run.
type derivedRun interface {
	run(cl *call) (any, error)
}
