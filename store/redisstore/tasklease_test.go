package redisstore_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// startLeaseReplica starts a replica on its own Redis client, which it
// returns (closing it cuts the replica off from Redis), with short task
// leases.
func startLeaseReplica(t *testing.T, srv *redisServer) (busReplica, *redis.Client) {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: srv.addr, ContextTimeoutEnabled: true, MaxRetries: -1})
	t.Cleanup(func() { rdb.Close() })
	bus := redisstore.NewBus(rdb, &redisstore.BusOptions{Logger: quietSlog})
	t.Cleanup(func() { bus.Close() }) // after the server's shutdown below
	opts, err := options(context.Background(), rdb, &redisstore.Config{Bus: bus}, fastmcp.TaskSettings{PollInterval: time.Millisecond, LeasePeriod: 20 * time.Millisecond, LeaseTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	s := fastmcp.New("replica", "1.0.0", append(opts, fastmcp.Logger(quietSlog))...)
	s.Tool("hold", func(ctx *fastmcp.Context) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}, fastmcp.TaskSupport(fastmcp.TaskRequired))
	s.Resource("x://marker", func() string { return "m" })
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
	return busReplica{s, ts.URL + "/mcp"}, rdb
}

// TestTaskLeaseLapses: a task runs on replica A, followed by listen
// streams on B and C; A is cut off from Redis (as if it died): it renews
// the task's lease no more, and once the lease lapsed, tasks/get on B and
// on C report the task failed, "the server replica running this task
// stopped", and each listen stream is told once (the marker, an update
// announced after both reads, comes after any second notice). A listen
// stream following a task no client reads learns it too.
func TestTaskLeaseLapses(t *testing.T) {
	srv := startRedis(t)
	a, rdbA := startLeaseReplica(t, srv)
	b, _ := startLeaseReplica(t, srv)
	c, _ := startLeaseReplica(t, srv)
	id := call(t, a.url, "tools/call", map[string]any{"name": "hold", "arguments": map[string]any{}})["taskId"].(string)
	filter := map[string]any{"taskIds": []string{id}, "resourceSubscriptions": []string{"x://marker"}}
	listens := []<-chan map[string]json.RawMessage{listenSSE(t, b.url, filter), listenSSE(t, c.url, filter)}
	// A second task, which no client reads: the listen stream following
	// it learns that it failed all the same.
	quiet := call(t, a.url, "tools/call", map[string]any{"name": "hold", "arguments": map[string]any{}})["taskId"].(string)
	follower := listenSSE(t, b.url, map[string]any{"taskIds": []string{quiet}})
	// The lease is renewed: the task stays working well past its timeout.
	for range 3 {
		awaitStatus(t, b.url, id, "working")
		time.Sleep(400 * time.Millisecond)
	}

	rdbA.Close()
	for _, url := range []string{b.url, c.url} {
		got := awaitStatus(t, url, id, "failed")
		if got["statusMessage"] != fastmcp.TaskLapsedMessage {
			t.Errorf("statusMessage %v, want %q", got["statusMessage"], fastmcp.TaskLapsedMessage)
		}
		if e, _ := got["error"].(map[string]any); e == nil || e["message"] != fastmcp.TaskLapsedMessage {
			t.Errorf("error %v, want the message %q", got["error"], fastmcp.TaskLapsedMessage)
		}
	}
	for {
		var task struct {
			TaskID, Status, StatusMessage string
		}
		m := next(t, follower)
		if json.Unmarshal(m["params"], &task) != nil || task.TaskID != quiet {
			t.Fatalf("the follower of the quiet task got %v", m)
		}
		if task.Status == "failed" {
			if task.StatusMessage != fastmcp.TaskLapsedMessage {
				t.Errorf("quiet task: statusMessage %q, want %q", task.StatusMessage, fastmcp.TaskLapsedMessage)
			}
			break
		}
	}
	if err := b.s.NotifyResourceUpdated(context.Background(), "x://marker"); err != nil {
		t.Fatal(err)
	}
	for i, l := range listens {
		failed := 0
		for {
			m := next(t, l)
			method := string(m["method"])
			if strings.Contains(method, "resources/updated") {
				break
			}
			var task struct {
				Status string `json:"status"`
			}
			if strings.Contains(method, "notifications/tasks") && json.Unmarshal(m["params"], &task) == nil && task.Status == "failed" {
				failed++
			}
		}
		if failed != 1 {
			t.Errorf("listen %d: told %d times that the task failed, want once", i, failed)
		}
	}
}
