package redisstore_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
	"github.com/fastmcp-go/fastmcp/store/redisstore/internal/replicaserver"
)

func TestMain(m *testing.M) {
	if os.Getenv(envReplica) == "1" {
		os.Exit(replicaserver.Main()) // a replica of TestReplicas (replicas_test.go)
	}
	// go-redis logs failed dials; the tests check the errors instead.
	redis.SetLogger(quietLogger{})
	goleak.VerifyTestMain(m)
}

type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

// redisServer is a redis-server the test started on a free loopback port.
type redisServer struct {
	addr   string
	cmd    *exec.Cmd
	exited chan error
}

// startRedis starts a redis-server of the test's own, without persistence,
// in a temporary directory, and stops it when the test ends. Without
// redis-server the test is skipped, except under CI=true where it fails.
func startRedis(t *testing.T) *redisServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	return startRedisOn(t, port)
}

// startRedisOn starts a redis-server on port, as startRedis.
func startRedisOn(t *testing.T, port int) *redisServer {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		msg := "redis-server is not installed (Debian: apt-get install redis-server); the Redis store tests need it"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	cmd := exec.Command(bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", t.TempDir(), "--loglevel", "warning")
	var out bytes.Buffer // read once the process has exited
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	srv := &redisServer{addr: fmt.Sprintf("127.0.0.1:%d", port), cmd: cmd, exited: make(chan error, 1)}
	go func() { srv.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		srv.stop()
		if t.Failed() {
			t.Logf("redis-server output:\n%s", out.Bytes())
		}
	})
	rdb := redis.NewClient(&redis.Options{Addr: srv.addr, MaxRetries: -1})
	defer rdb.Close()
	for rdb.Ping(context.Background()).Err() != nil {
		select {
		case err := <-srv.exited:
			srv.exited <- err
			t.Fatalf("redis-server exited before answering: %v", err)
		case <-time.After(10 * time.Millisecond): // poll interval, not an assertion
		}
	}
	return srv
}

// stop kills the server and waits for it; it may be called more than once.
func (s *redisServer) stop() {
	_ = s.cmd.Process.Kill()
	err := <-s.exited
	s.exited <- err
}

// client returns a client of the server, closed when the test ends.
func (s *redisServer) client(t *testing.T) *redis.Client {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: s.addr})
	t.Cleanup(func() { _ = rdb.Close() })
	return rdb
}

// options returns the server options that share the stores NewStores
// makes on rdb (fastmcp.SharedStores), and a Tasks option per tasks.
func options(ctx context.Context, rdb redis.UniversalClient, cfg *redisstore.Config, tasks ...fastmcp.TaskSettings) ([]fastmcp.Option, error) {
	st, err := redisstore.NewStores(ctx, rdb, cfg)
	if err != nil {
		return nil, err
	}
	opts := []fastmcp.Option{fastmcp.SharedStores(st)}
	for _, set := range tasks {
		opts = append(opts, fastmcp.Tasks(set))
	}
	return opts, nil
}
