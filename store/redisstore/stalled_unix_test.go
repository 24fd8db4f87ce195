//go:build unix

package redisstore_test

import (
	"context"
	"errors"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// TestRedisStalled: with a Redis that stopped answering, every operation
// returns when its context ends, with an error matching ErrRedis and the
// timeout; once Redis answers again the same client works.
func TestRedisStalled(t *testing.T) {
	srv := startRedis(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.addr, ContextTimeoutEnabled: true, MaxRetries: -1})
	defer rdb.Close()
	ops := storeOps(rdb)
	if err := ops["Create"](context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := srv.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	for name, op := range ops {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		err := op(ctx)
		cancel()
		var ne net.Error
		timedOut := errors.Is(err, context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
		if !errors.Is(err, redisstore.ErrRedis) || !timedOut {
			t.Errorf("%s with Redis stalled = %v, want ErrRedis and a timeout", name, err)
		}
	}
	if err := srv.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	for name, op := range ops {
		if err := op(context.Background()); err != nil && !errors.Is(err, redisstore.ErrTaskExists) {
			t.Errorf("%s after Redis came back = %v", name, err)
		}
	}
}
