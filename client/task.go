package client

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/callopt"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
)

// ErrTaskCancelled is returned by CallTool (and Call) when the server ran
// the call as a task and the task ended cancelled.
var ErrTaskCancelled error = &sentinel{"client: the task was cancelled"}

// taskPollFloor bounds how often a task is polled, whatever the server
// suggests.
const taskPollFloor = 10 * time.Millisecond

// WithTaskStarted calls fn when the server answers the call with a task,
// before CallTool follows it: a host can show the task (its id, status and
// suggested polling interval) and call GetTask or CancelTask meanwhile. fn
// runs on the calling goroutine and must not block. Only the Client's
// tool calls (CallTool, StartTool) act on it; session.Session.Call ignores
// it.
func WithTaskStarted(fn func(*StartedTask)) CallOption {
	return func(c *callopt.Config) { c.OnTask = fn }
}

// taskStartedKey carries the WithTaskStarted function of a call to awaitTask.
type taskStartedKey struct{}

// startOnlyKey carries, from StartTool to call, where to put the task the
// server answers with instead of following it.
type startOnlyKey struct{}

// StartTool calls a tool like CallTool but does not follow a task: when the
// server answers with a task (tasks extension, protocol 2026-07-28), it
// returns the task (its id, status and suggested polling interval) at once
// and a nil result, for a host that shows tasks and drives them itself with
// GetTask, UpdateTask and CancelTask; otherwise it returns the tool's
// result and a nil task, as CallTool would. Input the server asks for
// before it makes a task is answered with the client's handlers, as in
// CallTool.
func (c *Client) StartTool(ctx context.Context, name string, args any, opts ...CallOption) (*ToolResult, *StartedTask, error) {
	var task protocol.TaskCreatedResult
	res, err := c.CallTool(context.WithValue(ctx, startOnlyKey{}, &task), name, args, opts...)
	switch {
	case err != nil:
		return nil, nil, err
	case task.TaskID != "":
		return nil, &task, nil
	}
	return res, nil, nil
}

// startedTask decodes the task a request was answered with into started,
// and leaves result empty.
func startedTask(method string, created json.RawMessage, started *protocol.TaskCreatedResult, result any) error {
	if err := protocol.Unmarshal(created, started); err != nil || started.TaskID == "" {
		return fmt.Errorf("client: %s: bad task result: %s", method, created)
	}
	resetResult(result)
	return nil
}

// GetTask returns the state of a task (tasks/get, tasks extension): its
// result, error or pending input requests by status. The result of a
// completed tool call is typed by its ToolResult method, the
// *ToolResult CallTool returns; the value also decodes with
// encoding/json.
func (c *Client) GetTask(ctx context.Context, taskID string) (*TaskState, error) {
	var d protocol.DetailedTask
	if err := c.call(ctx, protocol.MethodTasksGet, &protocol.TaskParams{TaskID: taskID}, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// UpdateTask answers some of a task's input requests (tasks/update).
func (c *Client) UpdateTask(ctx context.Context, taskID string, responses InputResponses) error {
	return c.call(ctx, protocol.MethodTasksUpdate, &protocol.TaskUpdateParams{TaskID: taskID, InputResponses: responses}, nil)
}

// CancelTask asks the server to cancel a task (tasks/cancel). Cancellation
// is cooperative: GetTask tells how the task ended.
func (c *Client) CancelTask(ctx context.Context, taskID string) error {
	return c.call(ctx, protocol.MethodTasksCancel, &protocol.TaskParams{TaskID: taskID}, nil)
}

// awaitTask follows a task the server created for a request until it ends:
// it polls tasks/get at the interval the server suggests, answers input
// requests with the client's handlers through tasks/update, and decodes the
// inlined result into result. When ctx ends first the task is cancelled.
// Each change of the task's status message, and of its status while it
// runs, goes to the call's WithProgress function (see taskProgress).
func (c *Client) awaitTask(ctx context.Context, method string, created json.RawMessage, result any, progress *taskProgress) error {
	var tc protocol.TaskCreatedResult
	if err := protocol.Unmarshal(created, &tc); err != nil || tc.TaskID == "" {
		return fmt.Errorf("client: %s: bad task result: %s", method, created)
	}
	resetResult(result)
	if fn, ok := ctx.Value(taskStartedKey{}).(func(*protocol.TaskCreatedResult)); ok {
		fn(&tc)
	}
	progress.status(tc.Status, tc.StatusMessage)
	interval := max(time.Duration(tc.PollIntervalMs)*time.Millisecond, taskPollFloor)
	if tc.PollIntervalMs == 0 {
		interval = time.Second
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			if err := c.CancelTask(cctx, tc.TaskID); err != nil {
				c.cfg.logger.Debug("cancelling the task failed", "task", tc.TaskID, "error", err)
			}
			cancel()
			return ctx.Err()
		case <-timer.C:
		}
		d, err := c.GetTask(ctx, tc.TaskID)
		if err != nil {
			if ctx.Err() != nil {
				continue // cancel the task above
			}
			return fmt.Errorf("client: %s: polling task %s: %w", method, tc.TaskID, err)
		}
		progress.status(d.Status, d.StatusMessage)
		if d.PollIntervalMs > 0 {
			interval = max(time.Duration(d.PollIntervalMs)*time.Millisecond, taskPollFloor)
		}
		switch d.Status {
		case protocol.TaskCompleted:
			return session.DecodeResult(method, d.Result, result)
		case protocol.TaskFailed:
			if d.Error == nil {
				return fmt.Errorf("client: %s: task %s failed without an error", method, tc.TaskID)
			}
			return d.Error
		case protocol.TaskCancelled:
			return fmt.Errorf("%w: %s (task %s)", ErrTaskCancelled, method, tc.TaskID)
		case protocol.TaskInputRequired:
			answers, err := c.answerInputs(ctx, method, d.InputRequests)
			if err != nil {
				return err
			}
			if len(answers) > 0 {
				if err := c.UpdateTask(ctx, tc.TaskID, answers); err != nil {
					return fmt.Errorf("client: %s: answering task %s: %w", method, tc.TaskID, err)
				}
				timer.Reset(0)
				continue
			}
		}
		timer.Reset(interval)
	}
}

// taskProgress passes a call's progress to its WithProgress function, also
// once the call has become a task. A task carries no notifications/progress
// (SEP-2663: the server's ctx.Progress sets the task's status message), so
// while the client follows the task, each status message it sees when it
// polls becomes a progress notification: Message is the status message (or
// the status, "input_required" or "working", when the task has none),
// Progress goes on by one from the last value passed (a notification the
// server sent before the call became a task included), Total is 0
// (unknown), and ProgressToken is the call's. A final status message (one
// that comes with the task's end) is passed on too. Messages set between
// two polls are not seen: the client sees the latest.
type taskProgress struct {
	fn func(*protocol.ProgressParams)

	mu         sync.Mutex
	token      protocol.ProgressToken
	last       float64
	lastStatus protocol.TaskStatus
	lastMsg    string
}

// withTaskProgress returns the relay of the call's progress function and
// the call's options routing it through the relay; a nil relay and opts as
// they are when the call has no progress function.
func withTaskProgress(opts []session.CallOption) (*taskProgress, []session.CallOption) {
	if len(opts) == 0 {
		return nil, opts
	}
	cfg := callopt.Apply(callopt.Config{}, opts)
	if cfg.Progress == nil {
		return nil, opts
	}
	p := &taskProgress{fn: cfg.Progress}
	return p, append(opts[:len(opts):len(opts)], p.option)
}

// option routes the call's progress notifications through p and tells p
// the call's id, its progress token.
func (p *taskProgress) option(c *callopt.Config) {
	c.Progress = p.notified
	onID := c.OnID
	c.OnID = func(id protocol.ID) {
		p.mu.Lock()
		p.token = id
		p.mu.Unlock()
		if onID != nil {
			onID(id)
		}
	}
}

// notified passes on a notifications/progress of the call.
func (p *taskProgress) notified(n *protocol.ProgressParams) {
	p.mu.Lock()
	p.last = max(p.last, n.Progress)
	p.mu.Unlock()
	p.fn(n)
}

// status passes on a task state the client polled, when it changed.
func (p *taskProgress) status(st protocol.TaskStatus, msg string) {
	if p == nil {
		return
	}
	ended := st == protocol.TaskCompleted || st == protocol.TaskFailed || st == protocol.TaskCancelled
	switch {
	case msg != "":
	case ended:
		return
	default:
		msg = string(st)
	}
	p.mu.Lock()
	if msg == p.lastMsg && (ended || st == p.lastStatus) {
		p.mu.Unlock()
		return
	}
	p.last++
	p.lastStatus, p.lastMsg = st, msg
	n := &protocol.ProgressParams{ProgressToken: p.token, Progress: p.last, Message: msg}
	p.mu.Unlock()
	p.fn(n)
}
