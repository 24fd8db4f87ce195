package redisstore_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// busReplica is one server of TestBusReplicas: its own Redis client and
// Bus, as a process of its own would have.
type busReplica struct {
	s   *fastmcp.Server
	url string
}

func startBusReplica(t *testing.T, srv *redisServer, setup func(*fastmcp.Server)) busReplica {
	t.Helper()
	rdb := srv.client(t)
	bus := redisstore.NewBus(rdb, nil)
	t.Cleanup(func() { bus.Close() }) // after the server's shutdown below
	opts, err := options(context.Background(), rdb, &redisstore.Config{Bus: bus}, fastmcp.TaskSettings{PollInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s := fastmcp.New("replica", "1.0.0", append(opts, fastmcp.Logger(slog.New(slog.DiscardHandler)))...)
	setup(s)
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_ = s.Shutdown(ctx)
	})
	return busReplica{s, ts.URL + "/mcp"}
}

// modernMeta is the _meta of a 2026-07-28 request from a client declaring
// elicitation and the tasks extension.
func modernMeta() map[string]any {
	return map[string]any{
		"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{
			"elicitation": map[string]any{},
			"extensions":  map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}},
		},
	}
}

// listenSSE opens a subscriptions/listen stream with filter and returns
// the notifications after the acknowledgment, which it checks names
// every task of the filter. The stream ends with the test.
func listenSSE(t *testing.T, url string, filter map[string]any) <-chan map[string]json.RawMessage {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen",
		"params": map[string]any{"notifications": filter, "_meta": modernMeta()}})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	out := make(chan map[string]json.RawMessage, 16)
	var wg sync.WaitGroup
	wg.Go(func() { // ends when the body is closed
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var m map[string]json.RawMessage
				if json.Unmarshal([]byte(data), &m) == nil {
					out <- m
				}
			}
		}
	})
	t.Cleanup(func() { cancel(); resp.Body.Close(); wg.Wait() })
	ack := next(t, out)
	var p struct {
		Notifications struct {
			TaskIDs []string `json:"taskIds"`
		} `json:"notifications"`
	}
	if json.Unmarshal(ack["params"], &p) != nil || !strings.Contains(string(ack["method"]), "acknowledged") {
		t.Fatalf("listen answered %v", ack)
	}
	if ids, _ := filter["taskIds"].([]string); len(p.Notifications.TaskIDs) != len(ids) {
		t.Fatalf("listen follows %v, want %v", p.Notifications.TaskIDs, ids)
	}
	return out
}

// next returns the next message, failing after a generous time (a hang,
// not a timing assertion).
func next(t *testing.T, ch <-chan map[string]json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	select {
	case m, ok := <-ch:
		if !ok {
			t.Fatal("the stream ended")
		}
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("nothing received within 10s")
		return nil
	}
}

// awaitStatus polls tasks/get on url until the task has status want.
func awaitStatus(t *testing.T, url, id, want string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second) // a hang, not an assertion
	for {
		got := call(t, url, "tasks/get", map[string]any{"taskId": id})
		if got["status"] == want {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s: %v, never %s", id, got["status"], want)
		}
		time.Sleep(5 * time.Millisecond) // poll interval
	}
}

// TestBusReplicas: two replicas on one Redis, each with its own client and
// Bus. A list change announced on A reaches a listener on B; a task
// running on A is followed from B, gets its input through B and is
// cancelled through B.
func TestBusReplicas(t *testing.T) {
	srv := startRedis(t)
	release := make(chan struct{})
	cancelled := make(chan error, 1)
	setup := func(s *fastmcp.Server) {
		s.Tool("ask", func(ctx *fastmcp.Context) (string, error) {
			var who struct {
				Username string `json:"username"`
			}
			if _, err := ctx.Elicit("Who?", &who, fastmcp.InputKey("who")); err != nil {
				return "", err
			}
			<-release
			return "hi " + who.Username, nil
		}, fastmcp.TaskSupport(fastmcp.TaskRequired))
		s.Tool("wait", func(ctx *fastmcp.Context) (string, error) {
			<-ctx.Done()
			cancelled <- context.Cause(ctx)
			return "", ctx.Err()
		}, fastmcp.TaskSupport(fastmcp.TaskRequired))
	}
	a, b := startBusReplica(t, srv, setup), startBusReplica(t, srv, setup)

	lists := listenSSE(t, b.url, map[string]any{"toolsListChanged": true})
	a.s.NotifyToolsChanged()
	if m := next(t, lists); !strings.Contains(string(m["method"]), "tools/list_changed") {
		t.Fatalf("listener on B got %v", m)
	}

	id := call(t, a.url, "tools/call", map[string]any{"name": "ask", "arguments": map[string]any{}})["taskId"].(string)
	notes := listenSSE(t, b.url, map[string]any{"taskIds": []string{id}})
	awaitStatus(t, b.url, id, "input_required")
	call(t, b.url, "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
		"who": map[string]any{"action": "accept", "content": map[string]any{"username": "ada"}},
	}})
	awaitStatus(t, b.url, id, "working")
	close(release)
	for {
		var task struct {
			TaskID string          `json:"taskId"`
			Status string          `json:"status"`
			Result json.RawMessage `json:"result"`
		}
		m := next(t, notes)
		if err := json.Unmarshal(m["params"], &task); err != nil || task.TaskID != id {
			t.Fatalf("listener on B got %v", m)
		}
		if task.Status == "completed" {
			if !strings.Contains(string(task.Result), "hi ada") {
				t.Fatalf("completed with %s", task.Result)
			}
			break
		}
	}

	id = call(t, a.url, "tools/call", map[string]any{"name": "wait", "arguments": map[string]any{}})["taskId"].(string)
	call(t, b.url, "tasks/cancel", map[string]any{"taskId": id})
	select {
	case cause := <-cancelled:
		if cause == nil || !strings.Contains(cause.Error(), "cancelled the task") {
			t.Errorf("the handler on A ended with %v", cause)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the handler on A was not cancelled")
	}
	awaitStatus(t, a.url, id, "cancelled")
}
