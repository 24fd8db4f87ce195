package redisstore_test

import (
	"log/slog"
	"strings"
	"testing"
)

// TestRedisOutage: a server on Redis keeps serving what does not need it
// while Redis is down, fails the requests that need it with a JSON-RPC
// error that says the store is unavailable and a log line, and serves
// them again once Redis is back, without a restart.
func TestRedisOutage(t *testing.T) {
	srv := startRedis(t)
	t.Setenv("FASTMCP_REDIS_URL", "redis://"+srv.addr+"/0?dial_timeout=200ms&max_retries=-1")
	logs := &syncHandler{}
	release := make(chan struct{})
	close(release)
	url, _ := settingReplica(t, release, slog.New(logs))

	echo := func() string {
		res, rpcErr := callRaw(t, url, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"Text": "hi"}})
		if rpcErr != nil {
			return rpcErr.Message
		}
		return res["content"].([]any)[0].(map[string]any)["text"].(string)
	}
	task := func() (string, *rpcError) {
		res, rpcErr := callRaw(t, url, "tools/call", map[string]any{"name": "wait", "arguments": map[string]any{}})
		id, _ := res["taskId"].(string)
		return id, rpcErr
	}
	if id, rpcErr := task(); id == "" {
		t.Fatalf("task with Redis up: %v", rpcErr)
	}

	srv.stop()
	if got := echo(); got != "hi" {
		t.Fatalf("plain tool with Redis down: %q", got)
	}
	_, rpcErr := task()
	if rpcErr == nil {
		t.Fatal("a task was created with Redis down")
	}
	if rpcErr.Code != -32603 || !strings.Contains(rpcErr.Message, "task store unavailable") || strings.Contains(rpcErr.Message, srv.addr) {
		t.Errorf("task with Redis down: %d %q, want an internal error saying the task store is unavailable, without Redis's address", rpcErr.Code, rpcErr.Message)
	}
	_, getErr := callRaw(t, url, "tasks/get", map[string]any{"taskId": "any"})
	if getErr == nil || !strings.Contains(getErr.Message, "task store unavailable") {
		t.Errorf("tasks/get with Redis down: %v, want it to say the task store is unavailable", getErr)
	}
	if logs.count("task store failed while") == 0 {
		t.Errorf("no log line about the task store; logged: %q", logs.msgs)
	}
	if got := greetAnswerOK(t, url); !got {
		t.Error("multi round-trip with Redis down failed")
	}

	srv.restart(t)
	if id, rpcErr := task(); id == "" {
		t.Fatalf("task after Redis came back: %v", rpcErr)
	}
	if got := echo(); got != "hi" {
		t.Fatalf("plain tool after Redis came back: %q", got)
	}
}

// greetAnswerOK runs both rounds of greet on url.
func greetAnswerOK(t *testing.T, url string) bool {
	text, _ := greetAnswer(t, url, greetState(t, url))
	return text == "hello ada"
}
