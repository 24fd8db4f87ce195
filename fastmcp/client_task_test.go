package fastmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// CallTool follows a task to its end: it polls, answers the task's input
// requests with the client's handlers, and returns the inlined result.
func TestClientCallToolFollowsTask(t *testing.T) {
	t.Parallel()
	s, url := taskServer(t, fastmcp.Tasks(fastmcp.TaskSettings{PollInterval: 10 * time.Millisecond}))
	s.Tool("ask", func(ctx *fastmcp.Context) (string, error) {
		var w taskWho
		if _, err := ctx.Elicit("Who?", &w, fastmcp.InputKey("who")); err != nil {
			return "", err
		}
		return "hi " + w.Username, nil
	}, fastmcp.TaskSupport(fastmcp.TaskRequired))
	s.Tool("broken", func() (string, error) {
		return "", protocol.NewError(protocol.CodeInternalError, "crashed")
	}, fastmcp.TaskSupport(fastmcp.TaskRequired))
	// The client cancels once it polls the blocked task: it knows the
	// task's id by then.
	polled := make(chan struct{})
	var once sync.Once
	s.Lowlevel().Use(func(next lowlevel.Handler) lowlevel.Handler {
		return lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
			if req.Method == protocol.MethodTasksGet {
				defer once.Do(func() { close(polled) })
			}
			return next.Handle(ctx, req)
		})
	})
	ended := make(chan error, 1)
	s.Tool("block", func(ctx *fastmcp.Context) (string, error) {
		<-ctx.Done()
		ended <- context.Cause(ctx)
		return "", ctx.Err()
	}, fastmcp.TaskSupport(fastmcp.TaskRequired))

	c, err := client.ConnectHTTP(ctxT(t), url, client.WithLogger(quietLogger),
		client.WithElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
			return &client.ElicitResult{Action: "accept", Content: json.RawMessage(`{"username":"ada"}`)}, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	var started *protocol.TaskCreatedResult
	res, err := c.CallTool(ctxT(t), "ask", nil, client.WithTaskStarted(func(tc *protocol.TaskCreatedResult) { started = tc }))
	if err != nil || textOf(t, res) != "hi ada" {
		t.Fatalf("CallTool(ask) = %v, %v", res, err)
	}
	if started == nil || started.TaskID == "" || started.PollIntervalMs != 10 {
		t.Fatalf("WithTaskStarted got %+v", started)
	}
	if got, err := c.GetTask(ctxT(t), started.TaskID); err != nil || got.Status != protocol.TaskCompleted || len(got.Result) == 0 {
		t.Errorf("GetTask after the call = %+v, %v", got, err)
	}
	if err := c.CancelTask(ctxT(t), started.TaskID); err != nil {
		t.Errorf("CancelTask of an ended task = %v", err)
	}
	_, err = c.CallTool(ctxT(t), "broken", nil)
	if perr, ok := errors.AsType[*protocol.Error](err); !ok || perr.Code != protocol.CodeInternalError {
		t.Errorf("CallTool(broken) error = %v, want the task's -32603", err)
	}

	polled = make(chan struct{})
	once = sync.Once{}
	ctx, cancel := context.WithCancel(ctxT(t))
	go func() { <-polled; cancel() }()
	if _, err := c.CallTool(ctx, "block", nil); !errors.Is(err, context.Canceled) {
		t.Errorf("CallTool(block) cancelled = %v", err)
	}
	if cause := recvT(t, ended); cause == nil || cause.Error() != "fastmcp: the client cancelled the task" {
		t.Errorf("the task's handler ended with %v, want the client's tasks/cancel", cause)
	}
}

// StartTool returns the task the server answers with, without following
// it, and the plain result of a call that is not a task; the host then
// drives the task with GetTask, UpdateTask and CancelTask.
func TestClientStartTool(t *testing.T) {
	t.Parallel()
	s, url := taskServer(t)
	s.Tool("ask", func(ctx *fastmcp.Context) (string, error) {
		var w taskWho
		if _, err := ctx.Elicit("Who?", &w, fastmcp.InputKey("who")); err != nil {
			return "", err
		}
		return "hi " + w.Username, nil
	}, fastmcp.TaskSupport(fastmcp.TaskRequired))
	s.Tool("plain", func() (string, error) { return "plain", nil })
	// The client can elicit (the task asks), but its handler must not be
	// the one that answers: the host does, through UpdateTask.
	c, err := client.ConnectHTTP(ctxT(t), url, client.WithLogger(quietLogger),
		client.WithElicitation(func(context.Context, *client.ElicitRequest) (*client.ElicitResult, error) {
			t.Error("StartTool answered the task's input with the client's handler")
			return nil, errors.New("not here")
		}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	res, task, err := c.StartTool(ctxT(t), "plain", nil)
	if err != nil || task != nil || textOf(t, res) != "plain" {
		t.Fatalf("StartTool(plain) = %v, %+v, %v", res, task, err)
	}
	res, task, err = c.StartTool(ctxT(t), "ask", nil)
	if err != nil || res != nil || task == nil || task.TaskID == "" {
		t.Fatalf("StartTool(ask) = %v, %+v, %v", res, task, err)
	}
	ctx := ctxT(t)
	await := func(want protocol.TaskStatus) *protocol.DetailedTask {
		t.Helper()
		for {
			d, err := c.GetTask(ctx, task.TaskID)
			if err != nil {
				t.Fatalf("waiting for %s: %v", want, err)
			}
			switch {
			case d.Status == want:
				return d
			case d.Status == protocol.TaskFailed || d.Status == protocol.TaskCancelled:
				t.Fatalf("waiting for %s, the task ended: %+v", want, d)
			}
			select {
			case <-ctx.Done():
				t.Fatalf("the task never reached %s: %+v", want, d)
			case <-time.After(5 * time.Millisecond):
			}
		}
	}
	await(protocol.TaskInputRequired)
	if err := c.UpdateTask(ctx, task.TaskID, protocol.InputResponses{"who": json.RawMessage(`{"action":"accept","content":{"username":"ada"}}`)}); err != nil {
		t.Fatal(err)
	}
	if d := await(protocol.TaskCompleted); !strings.Contains(string(d.Result), "hi ada") {
		t.Errorf("task result = %s", d.Result)
	}
}
