package redisurl_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	_ "github.com/fastmcp-go/fastmcp/store/redisstore/redisurl"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// lines records log records as "LEVEL msg component=…".
type lines struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestGoRedisLogsToServerLogger: a server whose stores come from the
// RedisURL setting gets go-redis's own lines in its logger, at Warn, with
// component=go-redis: here the pool's failure to dial a real redis-server
// stopped mid-way. The start-up line names the Redis stores.
func TestGoRedisLogsToServerLogger(t *testing.T) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("redis-server is not installed")
		}
		t.Skip("redis-server is not installed (Debian: apt-get install redis-server)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	_, port, _ := net.SplitHostPort(addr)
	rds := exec.Command(bin, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", t.TempDir())
	if err := rds.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			_ = rds.Process.Kill()
			_ = rds.Wait()
		}
	}
	t.Cleanup(stop)

	var logs lines
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := fastmcp.New("redis-logs", "1.0.0", fastmcp.Logger(slog.New(slog.NewTextHandler(&logs, nil))), fastmcp.Listener(ln),
		fastmcp.RedisURL(fmt.Sprintf("redis://%s/0?dial_timeout=200ms&max_retries=-1", addr)))
	s.Tool("wait", func(*fastmcp.Context, struct{}) (string, error) { return "done", nil }, fastmcp.TaskSupport(fastmcp.TaskRequired))
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-served })
	for deadline := time.Now().Add(30 * time.Second); !s.Ready(); time.Sleep(10 * time.Millisecond) { // poll, not an assertion
		if time.Now().After(deadline) {
			t.Fatalf("the server did not start (is redis-server up?); logged:\n%s", logs.String())
		}
	}
	if !strings.Contains(logs.String(), `msg="stores in use" events=redisstore sessions=redisstore tasks=redisstore request_state_keys=redisstore bus=redisstore`) {
		t.Errorf("no start-up line naming the Redis stores; logged:\n%s", logs.String())
	}

	stop()
	c, err := client.ConnectHTTP(ctx, "http://"+ln.Addr().String()+"/mcp", client.WithLogger(slog.New(slog.DiscardHandler)))
	if err == nil {
		// Reads the task store: the pool dials, fails, and go-redis logs it.
		var res map[string]any
		_ = c.Call(ctx, "tasks/get", map[string]any{"taskId": "t1"}, &res)
		c.Close()
	}
	want := "level=WARN msg=\"connection pool: failed to dial"
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(logs.String(), want); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("go-redis's pool line did not reach the server's logger; logged:\n%s", logs.String())
		}
	}
	if got := logs.String(); !strings.Contains(got, "component=go-redis") {
		t.Errorf("go-redis's line lacks component=go-redis:\n%s", got)
	}
}
