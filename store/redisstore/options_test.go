package redisstore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// replica starts a server with the Redis options on a loopback socket and
// a "wait" tool, run as a task, that returns when release is closed.
func replica(t *testing.T, opts []fastmcp.Option, release <-chan struct{}) string {
	t.Helper()
	s := fastmcp.New("replica", "1.0.0", append(opts, fastmcp.Logger(slog.New(slog.DiscardHandler)))...)
	s.Tool("wait", func(ctx *fastmcp.Context, _ struct{}) (string, error) {
		select {
		case <-release:
			return "released", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}, fastmcp.Task(fastmcp.TaskRequired))
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_ = s.Shutdown(ctx)
	})
	return ts.URL + "/mcp"
}

// call sends one 2026-07-28 request declaring the tasks extension and
// returns its result.
func call(t *testing.T, url, method string, params map[string]any) map[string]any {
	t.Helper()
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{
			"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}},
		},
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	for _, k := range []string{"name", "taskId"} {
		if v, ok := params[k].(string); ok {
			req.Header.Set("Mcp-Name", v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reply struct {
		Result map[string]any  `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil || reply.Result == nil {
		t.Fatalf("%s: %s %v (HTTP %d)", method, reply.Error, err, resp.StatusCode)
	}
	return reply.Result
}

// TestOptionsTwoReplicas: a task created on one replica is seen, and its
// result read, on another, through the Redis task store; SharedSecret
// (deprecated, no longer used by Options) gives every caller one secret
// per prefix.
func TestOptionsTwoReplicas(t *testing.T) {
	rdb := startRedis(t).client(t)
	ctx := context.Background()
	release := make(chan struct{})
	optsA, err := redisstore.Options(ctx, rdb, nil)
	if err != nil {
		t.Fatal(err)
	}
	optsB, err := redisstore.Options(ctx, rdb, &redisstore.Config{Tasks: fastmcp.TaskSettings{TTL: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	a, b := replica(t, optsA, release), replica(t, optsB, release)

	created := call(t, a, "tools/call", map[string]any{"name": "wait", "arguments": map[string]any{}})
	id, _ := created["taskId"].(string)
	if created["status"] != "working" || id == "" {
		t.Fatalf("tools/call on A = %v", created)
	}
	if got := call(t, b, "tasks/get", map[string]any{"taskId": id}); got["status"] != "working" {
		t.Fatalf("tasks/get on B = %v", got)
	}
	close(release)
	for {
		got := call(t, b, "tasks/get", map[string]any{"taskId": id})
		if got["status"] == "completed" {
			if text := got["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]; text != "released" {
				t.Errorf("result on B = %v", got["result"])
			}
			break
		}
		if got["status"] != "working" {
			t.Fatalf("tasks/get on B = %v", got)
		}
		time.Sleep(5 * time.Millisecond) // poll interval, not an assertion
	}

	s1, err := redisstore.SharedSecret(ctx, rdb, "")
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := redisstore.SharedSecret(ctx, rdb, "")
	if len(s1) != 32 || !bytes.Equal(s1, s2) {
		t.Errorf("SharedSecret differs between calls: %x %x", s1, s2)
	}
	if s3, _ := redisstore.SharedSecret(ctx, rdb, "other:"); bytes.Equal(s1, s3) {
		t.Error("another prefix got the same secret")
	}
}

// TestFromEnv: without FASTMCP_REDIS_URL the server keeps its defaults;
// with it, FromEnv connects; with an unreachable Redis it fails.
func TestFromEnv(t *testing.T) {
	srv := startRedis(t)
	ctx := context.Background()
	for _, tt := range []struct {
		name, url string
		wantOpts  bool
		wantErr   error
		anyErr    bool
	}{
		{name: "unset"},
		{name: "set", url: "redis://" + srv.addr + "/0", wantOpts: true},
		{name: "malformed", url: "http://x", anyErr: true},
		{name: "unreachable", url: "redis://127.0.0.1:1/0", wantErr: redisstore.ErrRedis},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(redisstore.EnvURL, tt.url)
			opts, rdb, err := redisstore.FromEnv(ctx, nil)
			if rdb != nil {
				defer rdb.Close()
			}
			// The server closes the stores' key ring at Shutdown.
			defer fastmcp.New("x", "1", opts...).Shutdown(ctx) //nolint:errcheck
			switch {
			case tt.anyErr:
				if err == nil {
					t.Error("a malformed URL was accepted")
				}
			case !errors.Is(err, tt.wantErr):
				t.Errorf("FromEnv = %v, want %v", err, tt.wantErr)
			case (len(opts) > 0) != tt.wantOpts || (rdb != nil) != tt.wantOpts:
				t.Errorf("FromEnv = %d options, client %v", len(opts), rdb)
			}
		})
	}
}
