package redisstore_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
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
	}, fastmcp.TaskSupport(fastmcp.TaskRequired))
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_ = s.Shutdown(ctx)
	})
	return ts.URL + "/mcp"
}

// call sends one 2026-07-28 request (callRaw) and returns its result,
// failing the test on an error.
func call(t *testing.T, url, method string, params map[string]any) map[string]any {
	t.Helper()
	res, rpcErr := callRaw(t, url, method, params)
	if rpcErr != nil {
		t.Fatalf("%s: %d %s", method, rpcErr.Code, rpcErr.Message)
	}
	return res
}

// TestOptionsTwoReplicas: a task created on one replica is seen, and its
// result read, on another, through the Redis task store; SharedSecret
// (deprecated, no longer used by Options) gives every caller one secret
// per prefix.
func TestOptionsTwoReplicas(t *testing.T) {
	rdb := startRedis(t).client(t)
	ctx := context.Background()
	release := make(chan struct{})
	optsA, err := options(ctx, rdb, nil)
	if err != nil {
		t.Fatal(err)
	}
	optsB, err := options(ctx, rdb, nil, fastmcp.TaskSettings{TTL: time.Hour})
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

// TestOpen: Open connects to the Redis a URL names and its stores' Close
// closes the client; a malformed URL or an unreachable Redis fails.
func TestOpen(t *testing.T) {
	srv := startRedis(t)
	ctx := context.Background()
	for _, tt := range []struct {
		name, url string
		wantErr   error
		anyErr    bool
	}{
		{name: "reachable", url: "redis://" + srv.addr + "/0"},
		{name: "malformed", url: "http://x", anyErr: true},
		{name: "unreachable", url: "redis://127.0.0.1:1/0", wantErr: redisstore.ErrRedis},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st, err := redisstore.Open(ctx, tt.url, nil)
			switch {
			case tt.anyErr:
				if err == nil {
					t.Error("a malformed URL was accepted")
				}
			case !errors.Is(err, tt.wantErr):
				t.Errorf("Open = %v, want %v", err, tt.wantErr)
			case err == nil:
				if st.Events == nil || st.Sessions == nil || st.Tasks == nil || st.Keys == nil || st.Bus == nil {
					t.Errorf("Open = %+v, want every store", st)
				}
				// The server calls Close at Shutdown; the package's
				// goroutine check finds nothing left.
				if err := st.Close(); err != nil {
					t.Errorf("Close = %v", err)
				}
			}
		})
	}
}
