package redisstore_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// settingReplica runs, on a loopback socket (the Listener option), a server
// configured by nothing but the environment, with a "wait" task tool, a
// plain "echo" tool and the asking "greet" tool. It stops when the test
// ends.
func settingReplica(t *testing.T, release <-chan struct{}, logger *slog.Logger) (url string, s *fastmcp.Server) {
	t.Helper()
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s = fastmcp.New("replica", "1.0.0", fastmcp.Logger(logger), fastmcp.Listener(ln))
	s.Tool("wait", func(ctx *fastmcp.Context, _ struct{}) (string, error) {
		select {
		case <-release:
			return "released", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}, fastmcp.TaskSupport(fastmcp.TaskRequired))
	s.Tool("echo", func(_ *fastmcp.Context, in struct{ Text string }) (string, error) { return in.Text, nil })
	s.Tool("greet", func(ctx *fastmcp.Context, _ struct{}) (string, error) {
		var who struct {
			Name string `json:"name"`
		}
		if _, err := ctx.Elicit("Who?", &who); err != nil {
			return "", err
		}
		return "hello " + who.Name, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	eventually(t, "the server to start", s.Ready)
	return "http://" + ln.Addr().String() + "/mcp", s
}

// TestRedisURLSetting: two servers started with nothing but
// FASTMCP_REDIS_URL share their tasks and open each other's requestState.
func TestRedisURLSetting(t *testing.T) {
	srv := startRedis(t)
	t.Setenv("FASTMCP_REDIS_URL", "redis://"+srv.addr+"/0")
	release := make(chan struct{})
	a, _ := settingReplica(t, release, nil)
	b, _ := settingReplica(t, release, nil)

	created := call(t, a, "tools/call", map[string]any{"name": "wait", "arguments": map[string]any{}})
	id, _ := created["taskId"].(string)
	if got := call(t, b, "tasks/get", map[string]any{"taskId": id}); id == "" || got["status"] != "working" {
		t.Fatalf("task %q created on A, on B: %v", id, got)
	}
	close(release)
	if text, msg := greetAnswer(t, b, greetState(t, a)); text != "hello ada" {
		t.Fatalf("requestState sealed on A, opened on B: %q %s", text, msg)
	}
	ring := srv.client(t).HLen(context.Background(), redisstore.DefaultPrefix+"requeststate-keys").Val()
	if ring != 1 {
		t.Errorf("the key ring holds %d keys, want 1", ring)
	}
}

// TestRedisURLSettingErrors: a server whose Redis URL go-redis refuses, or
// whose Redis does not answer, does not start, and says why.
func TestRedisURLSettingErrors(t *testing.T) {
	for _, tt := range []struct{ url, want string }{
		{"redis://127.0.0.1:1/notadb", "the Redis URL is invalid"},
		{"redis://127.0.0.1:1/0", "Redis operation failed"},
	} {
		t.Setenv("FASTMCP_REDIS_URL", tt.url)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		s := fastmcp.New("x", "1", fastmcp.Logger(slog.New(slog.DiscardHandler)), fastmcp.Listener(ln))
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		err = s.Run(ctx)
		cancel()
		if err == nil || !strings.Contains(err.Error(), "opening the stores of the RedisURL setting") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Run = %v, want an error saying %q", tt.url, err, tt.want)
		}
	}
}

// TestRedisURLSettingFailedStart: a server whose start fails after it
// opened the Redis stores (its Lifespan fails) closes them again: the
// package's goroutine check finds no key ring left polling.
func TestRedisURLSettingFailedStart(t *testing.T) {
	srv := startRedis(t)
	t.Setenv("FASTMCP_REDIS_URL", "redis://"+srv.addr+"/0")
	boom := errors.New("boom")
	newServer := func(opts ...fastmcp.Option) *fastmcp.Server {
		return fastmcp.New("x", "1", append(opts, fastmcp.Logger(slog.New(slog.DiscardHandler)),
			fastmcp.Lifespan(func(context.Context) (int, func(context.Context) error, error) { return 0, nil, boom }))...)
	}
	for name, serve := range map[string]func() error{
		"Run": func() error {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			return newServer(fastmcp.Listener(ln)).Run(context.Background())
		},
		"Start": func() error { return newServer().Start(context.Background()) },
	} {
		if err := serve(); !errors.Is(err, boom) {
			t.Errorf("%s = %v, want the lifespan's error", name, err)
		}
	}
}
