package redisstore_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// TestGoRedisLogger: with the GoRedisLogger installed, go-redis's own line
// about a pool that cannot dial (a real redis-server stopped mid-way)
// reaches the slog logger, at Warn, marked component=go-redis.
func TestGoRedisLogger(t *testing.T) {
	srv := startRedis(t)
	logs := &syncHandler{}
	redis.SetLogger(redisstore.NewGoRedisLogger(slog.New(logs)))
	t.Cleanup(func() { redis.SetLogger(quietLogger{}) }) // as TestMain left it
	rdb := redis.NewClient(&redis.Options{Addr: srv.addr, MaxRetries: -1, DialTimeout: 500 * time.Millisecond})
	t.Cleanup(func() { _ = rdb.Close() })
	ctx := context.Background()
	if err := rdb.Ping(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	srv.stop()
	for range 3 { // a pooled connection may fail first; a new dial is what logs
		if rdb.Ping(ctx).Err() == nil {
			t.Fatal("ping answered with redis-server stopped")
		}
	}
	if logs.count("connection pool: failed to dial") == 0 {
		t.Fatalf("go-redis's pool line did not reach the logger; logged: %q", logs.msgs)
	}
}
