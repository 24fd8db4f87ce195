package fastmcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/proxy"
	"github.com/fastmcp-go/fastmcp/store"
)

// taskRPC speaks the 2026-07-28 wire by hand to a server's /mcp endpoint,
// declaring the tasks extension or not, as one caller (Authorization).
type taskRPC struct {
	t      *testing.T
	url    string
	tasks  bool   // declare io.modelcontextprotocol/tasks
	caller string // Authorization header: the principal
	id     atomic.Int64
}

type rpcReply struct {
	Result map[string]any  `json:"result"`
	Error  *protocol.Error `json:"error"`
}

func (r *taskRPC) call(method string, params map[string]any) rpcReply {
	r.t.Helper()
	caps := map[string]any{"elicitation": map[string]any{}}
	if r.tasks {
		caps["extensions"] = map[string]any{protocol.ExtensionTasks: map[string]any{}}
	}
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    protocol.Version20260728,
		"io.modelcontextprotocol/clientCapabilities": caps,
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": r.id.Add(1), "method": method, "params": params})
	req, _ := http.NewRequestWithContext(ctxT(r.t), "POST", r.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", protocol.Version20260728)
	req.Header.Set("Mcp-Method", method)
	if n, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", n)
	}
	if id, ok := params["taskId"].(string); ok {
		req.Header.Set("Mcp-Name", id)
	}
	if r.caller != "" {
		req.Header.Set("Authorization", "Bearer "+r.caller)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var rep rpcReply
	if err := json.Unmarshal(raw, &rep); err != nil {
		r.t.Fatalf("%s: %v in %s", method, err, raw)
	}
	return rep
}

func (r *taskRPC) result(method string, params map[string]any) map[string]any {
	r.t.Helper()
	rep := r.call(method, params)
	if rep.Error != nil {
		r.t.Fatalf("%s: error %d %s", method, rep.Error.Code, rep.Error.Message)
	}
	return rep.Result
}

func (r *taskRPC) callTool(name string, args map[string]any) map[string]any {
	r.t.Helper()
	return r.result("tools/call", map[string]any{"name": name, "arguments": args})
}

// await polls tasks/get until the task has status want or has ended.
func (r *taskRPC) await(id string, want protocol.TaskStatus) map[string]any {
	r.t.Helper()
	for {
		got := r.result("tasks/get", map[string]any{"taskId": id})
		switch got["status"] {
		case string(want), "completed", "failed", "cancelled":
			return got
		}
		select {
		case <-ctxT(r.t).Done():
			r.t.Fatalf("task %s never reached %s", id, want)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func taskServer(t *testing.T, opts ...fastmcp.Option) (*fastmcp.Server, string) {
	t.Helper()
	s := newServer(opts...)
	ts := httptest.NewServer(s)
	t.Cleanup(func() { closeNow(s); ts.Close() })
	return s, ts.URL + "/mcp"
}

func firstText(t *testing.T, result any) string {
	t.Helper()
	m, _ := result.(map[string]any)
	content, _ := m["content"].([]any)
	if len(content) == 0 {
		t.Fatalf("no content in %v", result)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	return text
}

func TestTaskLifecycle(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	s, url := taskServer(t)
	s.Tool("work", func(ctx *fastmcp.Context, in greetArgs) (string, error) {
		ctx.Progress(1, 2, "halfway")
		select {
		case <-release:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		switch in.Name {
		case "tool-error":
			return "", errors.New("it broke")
		case "protocol-error":
			return "", protocol.NewError(protocol.CodeInternalError, "crashed")
		}
		return "done " + in.Name, nil
	}, fastmcp.TaskSupport(fastmcp.TaskOptional))
	c := &taskRPC{t: t, url: url, tasks: true}

	disc := c.result("server/discover", nil)
	if ext, _ := disc["capabilities"].(map[string]any)["extensions"].(map[string]any); ext[protocol.ExtensionTasks] == nil {
		t.Errorf("server/discover does not declare the tasks extension: %v", disc["capabilities"])
	}

	created := c.callTool("work", map[string]any{"name": "x"})
	id, _ := created["taskId"].(string)
	if created["resultType"] != "task" || id == "" || created["status"] != "working" || created["task"] != nil {
		t.Fatalf("tools/call = %v, want a flat task", created)
	}
	if ttl, ok := created["ttlMs"].(float64); !ok || ttl != float64(time.Hour.Milliseconds()) || created["pollIntervalMs"] != float64(1000) {
		t.Errorf("ttlMs, pollIntervalMs = %v, %v", created["ttlMs"], created["pollIntervalMs"])
	}
	for _, k := range []string{"requestState", "result", "error", "ttl", "pollInterval"} {
		if _, ok := created[k]; ok {
			t.Errorf("tools/call result carries %q: %v", k, created)
		}
	}
	got := c.await(id, "working")
	if got["status"] != "working" || got["result"] != nil || got["resultType"] != "complete" {
		t.Fatalf("tasks/get while working = %v", got)
	}
	for got["statusMessage"] != "halfway" {
		got = c.await(id, "working")
	}
	close(release)
	got = c.await(id, "completed")
	if got["status"] != "completed" || firstText(t, got["result"]) != "done x" {
		t.Fatalf("tasks/get when done = %v", got)
	}

	for _, tc := range []struct{ name, status string }{{"tool-error", "completed"}, {"protocol-error", "failed"}} {
		id := c.callTool("work", map[string]any{"name": tc.name})["taskId"].(string)
		got := c.await(id, "completed")
		if got["status"] != tc.status {
			t.Fatalf("%s: status %v", tc.name, got)
		}
		if tc.status == "completed" {
			if res, _ := got["result"].(map[string]any); res["isError"] != true {
				t.Errorf("%s: result %v, want isError", tc.name, got["result"])
			}
		} else if e, _ := got["error"].(map[string]any); e["code"] != float64(protocol.CodeInternalError) || got["result"] != nil {
			t.Errorf("%s: %v, want error -32603 and no result", tc.name, got)
		}
	}

	for _, m := range []string{"tasks/result", "tasks/list"} {
		if rep := c.call(m, map[string]any{"taskId": id}); rep.Error == nil || rep.Error.Code != protocol.CodeMethodNotFound {
			t.Errorf("%s = %+v, want -32601", m, rep)
		}
	}
	if rep := c.call("tasks/get", map[string]any{"taskId": "nope"}); rep.Error == nil || rep.Error.Code != protocol.CodeInvalidParams {
		t.Errorf("tasks/get of an unknown task = %+v, want -32602", rep)
	}
}

func TestTaskNegotiation(t *testing.T) {
	t.Parallel()
	s, url := taskServer(t)
	s.Tool("maybe", func() string { return "sync" }, fastmcp.TaskSupport(fastmcp.TaskOptional))
	s.Tool("only_task", func() string { return "never" }, fastmcp.TaskSupport(fastmcp.TaskRequired))
	c := &taskRPC{t: t, url: url}

	if res := c.callTool("maybe", nil); res["resultType"] != "complete" || firstText(t, res) != "sync" {
		t.Errorf("optional tool without the extension = %v, want a plain result", res)
	}
	rep := c.call("tools/call", map[string]any{"name": "only_task"})
	if rep.Error == nil || rep.Error.Code != protocol.CodeMissingRequiredClientCapability {
		t.Fatalf("required tool without the extension = %+v, want -32021", rep)
	}
	var data protocol.MissingRequiredClientCapabilityData
	if err := json.Unmarshal(rep.Error.Data, &data); err != nil || data.RequiredCapabilities.Extensions[protocol.ExtensionTasks] == nil {
		t.Errorf("-32021 data = %s, want requiredCapabilities.extensions[tasks]", rep.Error.Data)
	}
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		if rep := c.call(m, map[string]any{"taskId": "x", "inputResponses": map[string]any{}}); rep.Error == nil || rep.Error.Code != protocol.CodeMissingRequiredClientCapability {
			t.Errorf("%s without the extension = %+v, want -32021", m, rep)
		}
	}
}

func TestTaskInputAndCancel(t *testing.T) {
	t.Parallel()
	s, url := taskServer(t)
	cancelled := make(chan error, 1)
	s.Tool("ask", func(ctx *fastmcp.Context) (string, error) {
		var p taskWho
		if _, err := ctx.Elicit("Who?", &p, fastmcp.InputKey("who")); err != nil {
			return "", err
		}
		return "hi " + p.Username, nil
	}, fastmcp.TaskSupport(fastmcp.TaskOptional))
	s.Tool("wait", func(ctx *fastmcp.Context) (string, error) {
		<-ctx.Done()
		cancelled <- context.Cause(ctx)
		return "", ctx.Err()
	}, fastmcp.TaskSupport(fastmcp.TaskOptional))
	c := &taskRPC{t: t, url: url, tasks: true}

	id := c.callTool("ask", nil)["taskId"].(string)
	got := c.await(id, "input_required")
	reqs, _ := got["inputRequests"].(map[string]any)
	if got["status"] != "input_required" || reqs["who"].(map[string]any)["method"] != "elicitation/create" {
		t.Fatalf("tasks/get = %v, want input_required with the elicitation", got)
	}
	ack := c.result("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
		"who":   map[string]any{"action": "accept", "content": map[string]any{"username": "ada"}},
		"other": map[string]any{"ignored": true},
	}})
	if len(ack) != 2 || ack["resultType"] != "complete" { // resultType and _meta
		t.Errorf("tasks/update ack = %v", ack)
	}
	if got := c.await(id, "completed"); firstText(t, got["result"]) != "hi ada" {
		t.Fatalf("after tasks/update: %v", got)
	}

	id = c.callTool("wait", nil)["taskId"].(string)
	if ack := c.result("tasks/cancel", map[string]any{"taskId": id}); ack["resultType"] != "complete" || ack["status"] != nil {
		t.Errorf("tasks/cancel ack = %v", ack)
	}
	if cause := recvT(t, cancelled); cause == nil || !strings.Contains(cause.Error(), "cancelled the task") {
		t.Errorf("the handler's context ended with %v", cause)
	}
	if got := c.await(id, "cancelled"); got["status"] != "cancelled" {
		t.Errorf("after tasks/cancel: %v", got)
	}
	if ack := c.result("tasks/cancel", map[string]any{"taskId": id}); ack["resultType"] != "complete" {
		t.Errorf("second tasks/cancel = %v", ack)
	}
}

// TestTaskBoundToPrincipal: a task is its creator's; another principal's
// tasks/get, tasks/cancel and tasks/update are answered as for an unknown
// task, by the server and by a Proxy in front of it (the backend sees one
// client, the proxy: the proxy binds each task to its own caller).
func TestTaskBoundToPrincipal(t *testing.T) {
	t.Parallel()
	for _, proxied := range []bool{false, true} {
		t.Run(map[bool]string{false: "server", true: "proxy"}[proxied], func(t *testing.T) {
			t.Parallel()
			s, url := taskServer(t)
			s.Tool("mine", func() string { return "secret" }, fastmcp.TaskSupport(fastmcp.TaskRequired))
			if proxied {
				url = proxyTo(t, url)
			}
			alice := &taskRPC{t: t, url: url, tasks: true, caller: "alice"}
			bob := &taskRPC{t: t, url: url, tasks: true, caller: "bob"}
			id := alice.callTool("mine", nil)["taskId"].(string)
			alice.await(id, "completed")
			for _, m := range []string{"tasks/get", "tasks/cancel", "tasks/update"} {
				if rep := bob.call(m, map[string]any{"taskId": id, "inputResponses": map[string]any{}}); rep.Error == nil || rep.Error.Code != protocol.CodeInvalidParams {
					t.Errorf("%s from another caller = %+v, want -32602 (not found)", m, rep)
				}
			}
			if got := alice.await(id, "completed"); firstText(t, got["result"]) != "secret" {
				t.Errorf("owner's tasks/get = %v", got)
			}
		})
	}
}

// proxyTo serves, over HTTP, a Proxy in front of the server at url (spoken
// to in 2026-07-28), and returns the proxy's URL.
func proxyTo(t *testing.T, url string) string {
	t.Helper()
	c, err := client.ConnectHTTP(ctxT(t), url, client.WithRequestForwarding())
	if err != nil {
		t.Fatal(err)
	}
	p := proxy.New(c)
	ts := httptest.NewServer(p)
	t.Cleanup(func() { closeNow(p); ts.Close(); c.Close() })
	return ts.URL + "/mcp"
}

// A tool with TaskSupport(...).After(d) gathers input through the multi
// round-trip result first and only then becomes a task.
func TestTaskAfterInput(t *testing.T) {
	t.Parallel()
	s, url := taskServer(t)
	release := make(chan struct{})
	s.Tool("later", func(ctx *fastmcp.Context) (string, error) {
		var p taskWho
		if _, err := ctx.Elicit("Who?", &p, fastmcp.InputKey("who")); err != nil {
			return "", err
		}
		select {
		case <-release:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		return "hello " + p.Username, nil
	}, fastmcp.TaskSupport(fastmcp.TaskRequired).After(500*time.Millisecond))
	c := &taskRPC{t: t, url: url, tasks: true}
	round1 := c.callTool("later", nil)
	if round1["resultType"] != "input_required" || round1["taskId"] != nil {
		t.Fatalf("round 1 = %v, want input_required", round1)
	}
	round2 := c.result("tools/call", map[string]any{"name": "later", "arguments": nil, "requestState": round1["requestState"],
		"inputResponses": map[string]any{"who": map[string]any{"action": "accept", "content": map[string]any{"username": "ada"}}}})
	id, _ := round2["taskId"].(string)
	if round2["resultType"] != "task" || id == "" || round2["requestState"] != nil {
		t.Fatalf("round 2 = %v, want a task", round2)
	}
	close(release)
	if got := c.await(id, "completed"); firstText(t, got["result"]) != "hello ada" {
		t.Errorf("task = %v", got)
	}
}

func TestTaskEndsAtShutdown(t *testing.T) {
	t.Parallel()
	tasks := store.NewMemoryTaskStore()
	s := newServer(fastmcp.Tasks(fastmcp.TaskSettings{Store: tasks}))
	ts := httptest.NewServer(s)
	defer ts.Close()
	started := make(chan struct{})
	s.Tool("forever", func(ctx *fastmcp.Context) (string, error) {
		close(started)
		<-ctx.Done()
		return "", ctx.Err()
	}, fastmcp.TaskSupport(fastmcp.TaskOptional))
	c := &taskRPC{t: t, url: ts.URL + "/mcp", tasks: true}
	id := c.callTool("forever", nil)["taskId"].(string)
	recvT(t, started)
	if err := s.Shutdown(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	rec, err := tasks.Get(ctxT(t), id)
	if err != nil || rec.Status != protocol.TaskFailed || rec.Error == nil || !strings.Contains(rec.Error.Message, "shut down") {
		t.Fatalf("after Shutdown: %+v %v, want failed (server shut down)", rec, err)
	}
}

func TestTaskRegistrationErrors(t *testing.T) {
	t.Parallel()
	s := newServer()
	for _, opt := range []fastmcp.TaskOption{fastmcp.TaskSupport(0), fastmcp.TaskSupport(fastmcp.TaskOptional).After(-time.Second)} {
		if err := registerErr(t, func() { s.Tool("bad", func() string { return "" }, opt) }); err == nil || !strings.Contains(err.Error(), "TaskSupport") {
			t.Errorf("Tool with %+v panicked with %v, want an error naming TaskSupport", opt, err)
		}
	}
}

type taskWho struct {
	Username string `json:"username" jsonschema:"description=who you are"`
}

// Over Streamable HTTP, tasks/get, tasks/update and tasks/cancel carry the
// task id in Mcp-Name: a header naming another task is -32020.
func TestTaskMcpNameHeader(t *testing.T) {
	t.Parallel()
	s, url := taskServer(t)
	s.Tool("quick", func() string { return "ok" }, fastmcp.TaskSupport(fastmcp.TaskOptional))
	c := &taskRPC{t: t, url: url, tasks: true}
	id := c.callTool("quick", nil)["taskId"].(string)
	body := `{"jsonrpc":"2.0","id":9,"method":"tasks/get","params":{"taskId":"` + id + `","_meta":{` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}`
	for _, tc := range []struct {
		name   string
		header string
		status int
	}{
		{"matching", id, http.StatusOK},
		{"other task", "not-" + id, http.StatusBadRequest},
	} {
		status, reply := post(t, url, body, map[string]string{
			"Mcp-Method": "tasks/get", "Mcp-Name": tc.header, "MCP-Protocol-Version": protocol.Version20260728,
		})
		if status != tc.status || (tc.status == http.StatusBadRequest && !strings.Contains(reply, "-32020")) {
			t.Errorf("%s: HTTP %d %s, want %d", tc.name, status, reply, tc.status)
		}
	}
}

// TestTaskMaxRunning checks the bound on running tasks: at the bound a
// TaskOptional tool answers as a plain call and a TaskRequired one is
// refused; once a task ends, calls become tasks again.
func TestTaskMaxRunning(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	s, url := taskServer(t, fastmcp.Tasks(fastmcp.TaskSettings{MaxRunning: 1}))
	s.Tool("hold", func(ctx *fastmcp.Context) (string, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return "held", nil
	}, fastmcp.TaskSupport(fastmcp.TaskOptional))
	s.Tool("quick", func(ctx *fastmcp.Context) (string, error) { return "quick", nil }, fastmcp.TaskSupport(fastmcp.TaskOptional))
	s.Tool("must", func(ctx *fastmcp.Context) (string, error) { return "must", nil }, fastmcp.TaskSupport(fastmcp.TaskRequired))
	c := &taskRPC{t: t, url: url, tasks: true}

	held := c.callTool("hold", nil)
	id, _ := held["taskId"].(string)
	if held["resultType"] != "task" || id == "" {
		t.Fatalf("first call = %v, want a task", held)
	}
	if got := c.callTool("quick", nil); got["resultType"] == "task" || firstText(t, got) != "quick" {
		t.Errorf("at the bound, TaskOptional = %v, want the plain result", got)
	}
	if rep := c.call("tools/call", map[string]any{"name": "must"}); rep.Error == nil || !strings.Contains(rep.Error.Message, "too many tasks") {
		t.Errorf("at the bound, TaskRequired = %+v, want refused", rep)
	}
	close(release)
	if got := c.await(id, "completed"); firstText(t, got["result"]) != "held" {
		t.Fatalf("held task: %v", got)
	}
	// The handler's goroutine ends just after the task's state is stored:
	// wait until the bound lets a task start again.
	for {
		got := c.callTool("quick", nil)
		if got["resultType"] == "task" {
			break
		}
		select {
		case <-ctxT(t).Done():
			t.Fatal("calls never became tasks again after the running task ended")
		case <-time.After(5 * time.Millisecond):
		}
	}
}
