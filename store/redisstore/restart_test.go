package redisstore_test

import (
	"bytes"
	"context"
	"net"
	"os/exec"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// restart stops the server and starts a new, empty one on the same
// address, as a Redis without persistence comes back after a crash. The
// new server replaces s's process; it stops when the test ends.
func (s *redisServer) restart(t *testing.T) {
	t.Helper()
	s.stop()
	host, port, _ := net.SplitHostPort(s.addr)
	cmd := exec.Command(s.cmd.Path, "--port", port, "--bind", host, "--save", "", "--appendonly", "no",
		"--dir", t.TempDir(), "--loglevel", "warning")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.cmd, s.exited = cmd, make(chan error, 1)
	exited := s.exited
	go func() { exited <- cmd.Wait() }()
	rdb := redis.NewClient(&redis.Options{Addr: s.addr, MaxRetries: -1})
	defer rdb.Close()
	for rdb.Ping(context.Background()).Err() != nil {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("redis-server exited before answering: %v\n%s", err, out.Bytes())
		case <-time.After(10 * time.Millisecond): // poll interval, not an assertion
		}
	}
}
