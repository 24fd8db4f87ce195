package fastmcp_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// Inside a task, ctx.Log and ctx.Progress send nothing to the client (the
// tasks extension carries neither, SEP-2663): the log message and the
// progress go to the server's logger with the task's id, and the progress
// message becomes the task's status message. Before the call became a
// task they go to the client as in any call.
func TestTaskLogAndProgressGoToServerLog(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	s := fastmcp.New("test", "1.0.0",
		fastmcp.Logger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
		fastmcp.Tasks(fastmcp.TaskSettings{PollInterval: time.Millisecond}))
	t.Cleanup(func() { closeNow(s) })
	ids, created := make(chan string, 1), make(chan struct{})
	s.Tool("job", func(ctx *fastmcp.Context) (string, error) {
		ctx.Info("before the task", "step", 0)
		ctx.Progress(0, 2, "starting")
		<-created // the call was answered with the task
		ctx.Info("inside the task", "step", 1)
		if err := ctx.Progress(1, 2, "halfway"); err != nil {
			return "", err
		}
		return "done", nil
	}, fastmcp.Task(fastmcp.TaskOptional).After(time.Millisecond))
	s.Lowlevel().Use(func(next lowlevel.Handler) lowlevel.Handler {
		return lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
			res, err := next.Handle(ctx, req)
			if tc, ok := res.(*protocol.TaskCreatedResult); ok {
				ids <- tc.TaskID
				close(created)
			}
			return res, err
		})
	})

	var (
		mu        sync.Mutex
		clientGot []string
	)
	record := func(what string) {
		mu.Lock()
		clientGot = append(clientGot, what)
		mu.Unlock()
	}
	c := connect(t, s, fastmcp.WithProtocolVersion(protocol.Version20260728),
		fastmcp.WithLogHandler(func(p *protocol.LoggingMessageParams) { record("log " + string(p.Data)) }))
	res, err := c.CallTool(ctxT(t), "job", nil, fastmcp.WithProgress(func(p *protocol.ProgressParams) { record("progress " + p.Message) }))
	if err != nil || res.IsError {
		t.Fatalf("CallTool = %v, %v", res, err)
	}
	id := recvT(t, ids)
	mu.Lock()
	got := strings.Join(clientGot, "\n")
	mu.Unlock()
	if strings.Contains(got, "inside the task") || strings.Contains(got, "halfway") {
		t.Errorf("the client got messages sent inside the task:\n%s", got)
	}
	// The log message sent before the call became a task did reach the
	// client: the client would have shown the later ones had they come.
	if !strings.Contains(got, "before the task") {
		t.Errorf("the client did not get the message sent before the call became a task:\n%s", got)
	}
	out := logs.String()
	for _, want := range []string{
		`msg="inside the task" tool=job`,
		`msg=progress tool=job`,
		`message=halfway`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("server log lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if (strings.Contains(line, "inside the task") || strings.Contains(line, "halfway")) && !strings.Contains(line, "task="+id) {
			t.Errorf("log line without the task id %s: %s", id, line)
		}
	}
}
