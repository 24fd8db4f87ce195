package fastmcp

import (
	"context"
	"encoding/json"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
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

// taskRunner is the task runtime (task*.go) as the rest of the server
// reaches it. The Task tool option installs it (TaskOption.applyTool);
// registering the first such tool enables it on the server (Server.taskRun).
// The Tasks option installs it too, for New to check its settings.
type taskRunner interface {
	// checkSettings panics on settings that cannot work, saying how to
	// fix them.
	checkSettings(set TaskSettings)
	// check reports what is wrong with a tool's Task option.
	check(o *taskSpec, tool string) error
	// enable makes s run tasks, once: its task manager and the tasks
	// methods; s.mu held.
	enable(s *Server)
	// call serves a tools/call of t, a tool registered with Task (see
	// Server.callAsTask).
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
// registered with Task enabled it.
func (s *Server) taskRuntime() taskRunner {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.taskRun
}

// taskCall is the task a call runs as (a runningCall), as Context reaches
// it; nil for a call that is not a task. Its methods are named unlike
// runningTask's: the task manager, a field of every Server, holds
// runningTasks, so the linker would keep runningTask's methods of the same
// name and type in every server.
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
// extension. It and missingTasksExtension serve every server (mount
// forwarding, subscriptions/listen), not only those that run tasks.
func declaresTasks(caps *protocol.ClientCapabilities) bool {
	if caps == nil {
		return false
	}
	_, ok := caps.Extensions[protocol.ExtensionTasks]
	return ok
}

// missingTasksExtension is the -32021 error naming the tasks extension.
func missingTasksExtension(why string) *protocol.Error {
	return protocol.NewError(protocol.CodeMissingRequiredClientCapability,
		"Missing required client capability: "+protocol.ExtensionTasks+" ("+why+")").
		WithData(protocol.MissingRequiredClientCapabilityData{RequiredCapabilities: protocol.ClientCapabilities{
			Extensions: map[string]json.RawMessage{protocol.ExtensionTasks: json.RawMessage("{}")},
		}})
}
