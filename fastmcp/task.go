package fastmcp

import (
	"time"

	"github.com/fastmcp-go/fastmcp/internal/taskrun"
	"github.com/fastmcp-go/fastmcp/store"
)

// TaskMode says how a tool takes part in the tasks extension
// (io.modelcontextprotocol/tasks, SEP-2663).
type TaskMode int

const (
	// TaskOptional: the call runs as a task when the client declared the
	// tasks extension, and as a plain call otherwise.
	TaskOptional TaskMode = iota + 1
	// TaskRequired: the call only runs as a task; a client that did not
	// declare the extension gets MissingRequiredClientCapability (-32021).
	TaskRequired
)

// TaskOption makes a tool run as a task (see TaskSupport).
type TaskOption struct{ taskSpec }

// taskSpec is what a TaskOption says, as a registered tool keeps it. It
// has no methods on purpose: every registered tool is held in an interface
// (registry), so the linker keeps the methods of the types its fields point
// to, and a *TaskOption there would keep applyTool and with it the task
// runtime in every server (see hooks.go).
type taskSpec struct {
	mode  TaskMode
	after time.Duration
}

// TaskSupport is the tool option that makes a tool's calls run as tasks
// (the spec's execution.taskSupport of a tool; Tasks is the server option
// that configures where all tasks are kept). On 2026-07-28 requests whose
// client declared the tasks extension, tools/call is answered at once with
// a task the client polls with tasks/get, and the handler, still a plain
// function, runs on in the background. Inside it ctx.Elicit, ctx.Sample and
// ctx.ListRoots park the task in input_required until the client answers
// with tasks/update, ctx.Progress sets the task's status message, ctx.Log
// writes to the server's logger only (the extension carries no log or
// progress notifications), and ctx is cancelled by tasks/cancel and at
// server Shutdown.
//
//	s.Tool("build", build, fastmcp.TaskSupport(fastmcp.TaskOptional))
func TaskSupport(mode TaskMode) TaskOption { return TaskOption{taskSpec{mode: mode}} }

// After delays the decision: the call starts as a plain call and becomes a
// task only if the handler is still running after d. A handler that
// finishes sooner answers directly, and input it asks for before then goes
// through the multi round-trip input_required result, so a tool can gather
// input first and go on as a task afterwards.
func (o TaskOption) After(d time.Duration) TaskOption {
	o.after = d
	return o
}

func (o TaskOption) applyTool(c *toolConfig) { c.task, c.taskRun = &o.taskSpec, taskCode{} }

func (o TaskOption) applyTransform(c *transformConfig) { o.applyTool(&c.tool) }

// TaskSettings configure the tasks of a server (see Tasks). The zero value
// works: tasks kept in memory for an hour, polled every second.
type TaskSettings struct {
	// Store keeps the tasks' state. Default: store.NewMemoryTaskStore().
	Store store.TaskStore
	// TTL is how long a task is kept after it was created; after that
	// tasks/get no longer finds it. Default: one hour.
	TTL time.Duration
	// PollInterval is the polling interval suggested to clients (rounded to
	// whole milliseconds). Default: one second.
	PollInterval time.Duration
	// MaxRunning bounds the tasks whose handlers run at once in this
	// process. At the bound, a tool registered with TaskOptional runs as
	// a plain call (the server decides when a call becomes a task), and a
	// TaskRequired one is refused with an error saying to try again later.
	// Default: DefaultMaxRunningTasks; negative: no bound.
	MaxRunning int
	// LeasePeriod is how often the replica running tasks renews their
	// leases, with a Store that keeps them (store.TaskLeaseStore, as
	// redisstore's does). Default: DefaultTaskLeasePeriod (10 s).
	LeasePeriod time.Duration
	// LeaseTimeout is how long after its last renewal a task's lease
	// lapses: the other replicas then report the task failed, its replica
	// taken for dead. It must be longer than LeasePeriod. Default:
	// DefaultTaskLeaseTimeout (30 s), or three LeasePeriods if longer.
	LeaseTimeout time.Duration
}

// DefaultMaxRunningTasks is how many task handlers run at once when
// TaskSettings.MaxRunning is zero.
const DefaultMaxRunningTasks = taskrun.DefaultMaxRunning

// Tasks configures the server's tasks: where their state is stored and for
// how long (TaskSupport is the tool option that makes a tool's calls tasks). Without it, tasks are kept in memory for an hour. Several Tasks
// options add up: each sets the fields it gives (those not zero), so an
// option that sets the TTL keeps the Store another option (a shared store's
// package, say) set.
func Tasks(set TaskSettings) Option {
	return serverOption(func(c *serverConfig) {
		c.taskRun = taskCode{} // New checks the settings (see hooks.go)
		if set.Store != nil {
			c.tasks.Store = set.Store
		}
		if set.TTL != 0 {
			c.tasks.TTL = set.TTL
		}
		if set.PollInterval != 0 {
			c.tasks.PollInterval = set.PollInterval
		}
		if set.MaxRunning != 0 {
			c.tasks.MaxRunning = set.MaxRunning
		}
		if set.LeasePeriod != 0 {
			c.tasks.LeasePeriod = set.LeasePeriod
		}
		if set.LeaseTimeout != 0 {
			c.tasks.LeaseTimeout = set.LeaseTimeout
		}
	})
}

// Defaults of TaskSettings.LeasePeriod and LeaseTimeout.
const (
	DefaultTaskLeasePeriod  = taskrun.DefaultLeasePeriod
	DefaultTaskLeaseTimeout = taskrun.DefaultLeaseTimeout
)

// TaskLapsedMessage is the status message, and the error message, of a
// task reported failed because the replica running it stopped renewing its
// lease (see store.TaskLeaseStore).
const TaskLapsedMessage = taskrun.LapsedMessage

// ErrTaskStoreUnavailable is wrapped by the error a request that needs the
// task store (a tools/call run as a task, tasks/get, tasks/update,
// tasks/cancel) fails with when the store fails: a shared store whose
// Redis is down, say. The client gets a JSON-RPC internal error saying the
// task store is unavailable; the store's own error, which may name
// internal hosts, goes to the server's log only.
var ErrTaskStoreUnavailable = taskrun.ErrStoreUnavailable
