package fastmcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// A subscriptions/listen stream that names a task in taskIds gets
// notifications/tasks with the task's state as it changes; a client
// without the extension gets -32021.
func TestTaskStatusNotifications(t *testing.T) {
	t.Parallel()
	s := newServer()
	release := make(chan struct{})
	s.Tool("job", func(ctx *fastmcp.Context) (string, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		return "job done", nil
	}, fastmcp.TaskSupport(fastmcp.TaskOptional))
	send, next := modernPipe(t, s)

	send(1, "tools/call", `"name":"job"`, true)
	var created struct {
		Result protocol.TaskCreatedResult `json:"result"`
	}
	m := next()
	raw, _ := json.Marshal(m)
	if err := json.Unmarshal(raw, &created); err != nil || created.Result.TaskID == "" {
		t.Fatalf("tools/call answered %s", raw)
	}
	id := created.Result.TaskID

	send(2, "subscriptions/listen", `"notifications":{"taskIds":["`+id+`","someone-elses"]}`, false)
	var e protocol.Error
	if m := next(); string(m["id"]) != "2" || json.Unmarshal(m["error"], &e) != nil || e.Code != protocol.CodeMissingRequiredClientCapability {
		t.Fatalf("listen without the extension answered %v, want -32021", m)
	}

	send(3, "subscriptions/listen", `"notifications":{"taskIds":["`+id+`","someone-elses"]}`, true)
	var ack struct {
		Params protocol.SubscriptionsAcknowledgedParams `json:"params"`
	}
	m = next()
	raw, _ = json.Marshal(m)
	if json.Unmarshal(raw, &ack) != nil || string(m["method"]) != `"`+protocol.NotificationSubscriptionsAcknowledged+`"` ||
		len(ack.Params.Notifications.TaskIDs) != 1 || ack.Params.Notifications.TaskIDs[0] != id {
		t.Fatalf("listen acknowledged %s, want taskIds [%s]", raw, id)
	}
	close(release)
	var note struct {
		Params protocol.DetailedTask `json:"params"`
	}
	m = next()
	raw, _ = json.Marshal(m)
	if json.Unmarshal(raw, &note) != nil || string(m["method"]) != `"`+protocol.NotificationTasks+`"` ||
		note.Params.TaskID != id || note.Params.Status != protocol.TaskCompleted || len(note.Params.Result) == 0 {
		t.Fatalf("got %s, want notifications/tasks with the completed task", raw)
	}
}

// modernPipe serves s over pipes; send sends a 2026-07-28 request (its
// client declaring the tasks extension or not), next returns the server's
// next message.
func modernPipe(t *testing.T, s *fastmcp.Server) (send func(id int, method, params string, tasks bool), next func() map[string]json.RawMessage) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, transport.NewStream(inR, outW, nil)) }()
	t.Cleanup(func() { cancel(); <-served })
	msgs := make(chan map[string]json.RawMessage, 16)
	go func() { // ends when outR is closed
		defer close(msgs)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			var m map[string]json.RawMessage
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				msgs <- m
			}
		}
	}()
	send = func(id int, method, params string, tasks bool) {
		caps := `{}`
		if tasks {
			caps = `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`
		}
		meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
		line := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method + `","params":{` + params + `,` + meta + `}}` + "\n"
		if _, err := io.WriteString(inW, line); err != nil {
			t.Fatal(err)
		}
	}
	next = func() map[string]json.RawMessage {
		t.Helper()
		m, ok := <-msgs
		if !ok {
			t.Fatal("the server's output ended")
		}
		return m
	}

	return send, next
}

// A server with no tool registered with TaskSupport (no task runtime) answers a
// subscriptions/listen naming tasks as one with tasks does: -32021 for a
// client without the extension, no task followed for one with it.
func TestListenTasksWithoutTaskTools(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("plain", func(ctx *fastmcp.Context) (string, error) { return "ok", nil })
	send, next := modernPipe(t, s)

	send(1, "subscriptions/listen", `"notifications":{"taskIds":["nope"]}`, false)
	var e protocol.Error
	if m := next(); string(m["id"]) != "1" || json.Unmarshal(m["error"], &e) != nil || e.Code != protocol.CodeMissingRequiredClientCapability {
		raw, _ := json.Marshal(m)
		t.Fatalf("listen without the extension answered %s, want -32021", raw)
	}
	send(2, "subscriptions/listen", `"notifications":{"taskIds":["nope"],"toolsListChanged":true}`, true)
	var ack struct {
		Params protocol.SubscriptionsAcknowledgedParams `json:"params"`
	}
	m := next()
	raw, _ := json.Marshal(m)
	if json.Unmarshal(raw, &ack) != nil || string(m["method"]) != `"`+protocol.NotificationSubscriptionsAcknowledged+`"` ||
		len(ack.Params.Notifications.TaskIDs) != 0 || !ack.Params.Notifications.ToolsListChanged {
		t.Fatalf("listen acknowledged %s, want no taskIds and toolsListChanged", raw)
	}
}

// The first tool registered with TaskSupport may come while the server serves:
// the task runtime is made then, and the tool's calls run as tasks.
func TestTaskToolRegisteredWhileServing(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("plain", func(ctx *fastmcp.Context) (string, error) { return "ok", nil })
	send, next := modernPipe(t, s)
	send(1, "tools/list", `"cursor":null`, true) // the server serves
	if m := next(); string(m["id"]) != "1" || m["result"] == nil {
		raw, _ := json.Marshal(m)
		t.Fatalf("tools/list answered %s", raw)
	}
	s.Tool("job", func(ctx *fastmcp.Context) (string, error) { return "job done", nil }, fastmcp.TaskSupport(fastmcp.TaskRequired))
	var m map[string]json.RawMessage
	send(2, "tools/call", `"name":"job"`, true)
	for m = next(); string(m["id"]) != "2"; m = next() { // skip list_changed
	}
	var created struct {
		Result protocol.TaskCreatedResult `json:"result"`
	}
	raw, _ := json.Marshal(m)
	if err := json.Unmarshal(raw, &created); err != nil || created.Result.TaskID == "" {
		t.Fatalf("tools/call answered %s, want a task", raw)
	}
	for {
		send(3, "tasks/get", `"taskId":"`+created.Result.TaskID+`"`, true)
		for m = next(); string(m["id"]) != "3"; m = next() {
		}
		var got struct {
			Result protocol.DetailedTask `json:"result"`
		}
		raw, _ = json.Marshal(m)
		if err := json.Unmarshal(raw, &got); err != nil || got.Result.TaskID != created.Result.TaskID {
			t.Fatalf("tasks/get answered %s", raw)
		}
		if got.Result.Status == protocol.TaskCompleted {
			return
		}
		if got.Result.Status != protocol.TaskWorking {
			t.Fatalf("tasks/get answered %s, want working or completed", raw)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
