package fastmcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// Inside a task, ctx.Log and ctx.Progress send nothing to the client (the
// tasks extension carries neither, SEP-2663): the log message and the
// progress go to the server's logger with the task's id, and the progress
// message becomes the task's status message. A plain call on the same
// session, with the same log level and a progress token, does send them.
// The server's output is read in the order it was written: a message sent
// inside the task would come before the tasks/get answer that shows the
// task completed.
func TestTaskLogAndProgressGoToServerLog(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	s := fastmcp.New("test", "1.0.0",
		fastmcp.Logger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	work := func(ctx *fastmcp.Context, in struct {
		Say string `json:"say"`
	}) (string, error) {
		ctx.Info(in.Say+" log", "step", 1)
		if err := ctx.Progress(1, 2, in.Say+" progress"); err != nil {
			return "", err
		}
		return "done", nil
	}
	s.Tool("plain", work)
	s.Tool("job", work, fastmcp.TaskSupport(fastmcp.TaskRequired))

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, transport.NewStream(inR, outW, nil)) }()
	t.Cleanup(func() { cancel(); <-served })
	msgs := make(chan string, 16)
	go func() { // ends when outR is closed
		defer close(msgs)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			msgs <- sc.Text()
		}
	}()
	send := func(id int, method, params string) {
		meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
			`"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}},` +
			`"io.modelcontextprotocol/logLevel":"debug","progressToken":"p` + strconv.Itoa(id) + `"}`
		line := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method + `","params":{` + params + `,` + meta + `}}` + "\n"
		if _, err := io.WriteString(inW, line); err != nil {
			t.Fatal(err)
		}
	}
	var wire []string // everything the server wrote, in order
	nextReply := func(id int) map[string]json.RawMessage {
		t.Helper()
		for {
			line := recvT(t, msgs)
			wire = append(wire, line)
			var m map[string]json.RawMessage
			if json.Unmarshal([]byte(line), &m) == nil && string(m["id"]) == strconv.Itoa(id) {
				return m
			}
		}
	}

	send(1, "tools/call", `"name":"plain","arguments":{"say":"plain"}`)
	nextReply(1)
	plain := strings.Join(wire, "\n")
	if !strings.Contains(plain, `"plain log"`) || !strings.Contains(plain, `"message":"plain progress"`) {
		t.Fatalf("a plain call did not send its log message and progress:\n%s", plain)
	}

	wire = nil
	send(2, "tools/call", `"name":"job","arguments":{"say":"task"}`)
	var created protocol.TaskCreatedResult
	if err := json.Unmarshal(nextReply(2)["result"], &created); err != nil || created.TaskID == "" {
		t.Fatalf("tools/call answered %v", wire)
	}
	for id := 3; ; id++ {
		send(id, "tasks/get", `"taskId":"`+created.TaskID+`"`)
		var task protocol.DetailedTask
		if err := json.Unmarshal(nextReply(id)["result"], &task); err != nil {
			t.Fatalf("tasks/get: %v in %v", err, wire)
		}
		if task.Status == protocol.TaskCompleted {
			if task.StatusMessage != "task progress" {
				t.Errorf("status message %q, want the progress message", task.StatusMessage)
			}
			break
		}
	}
	for _, line := range wire {
		if strings.Contains(line, protocol.NotificationMessage) || strings.Contains(line, protocol.NotificationProgress) {
			t.Errorf("the server sent from inside the task: %s", line)
		}
	}

	out := logs.String()
	for _, want := range []string{`msg="task log" tool=job`, `msg=progress tool=job`, `message="task progress"`} {
		if !strings.Contains(out, want) {
			t.Errorf("server log lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "task log") || strings.Contains(line, "task progress") {
			if !strings.Contains(line, "task="+created.TaskID) {
				t.Errorf("log line without the task id %s: %s", created.TaskID, line)
			}
		}
	}
}
