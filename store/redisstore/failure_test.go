package redisstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// storeOps are one call of every store operation.
func storeOps(rdb redis.UniversalClient) map[string]func(context.Context) error {
	ev := redisstore.NewEventStore(rdb, nil)
	ts := redisstore.NewTaskStore(rdb, nil)
	rec := &store.TaskRecord{ID: "t", Principal: "p", CreatedAt: time.Now(), TTL: time.Hour}
	return map[string]func(context.Context) error{
		"Append": func(ctx context.Context) error { return ev.Append(ctx, "s", "1", 1, []byte("x")) },
		"Replay": func(ctx context.Context) error {
			return ev.Replay(ctx, "s", "1", 0, func(int64, []byte) error { return nil })
		},
		"DeleteSession": func(ctx context.Context) error { return ev.DeleteSession(ctx, "s") },
		"Create":        func(ctx context.Context) error { return ts.Create(ctx, rec) },
		"Get":           func(ctx context.Context) error { _, err := ts.Get(ctx, "t"); return err },
		"Update":        func(ctx context.Context) error { return ts.Update(ctx, rec) },
		"List":          func(ctx context.Context) error { _, err := ts.List(ctx, "p"); return err },
		"SharedSecret":  func(ctx context.Context) error { _, err := redisstore.SharedSecret(ctx, rdb, ""); return err }, //nolint:staticcheck // still tested while deprecated
		"NewKeyRing": func(ctx context.Context) error {
			r, err := redisstore.NewKeyRing(ctx, rdb, nil)
			if err == nil {
				_ = r.Close()
			}
			return err
		},
	}
}

// TestRedisDown: with Redis gone, every operation fails at once with an
// error matching ErrRedis.
func TestRedisDown(t *testing.T) {
	srv := startRedis(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.addr, MaxRetries: -1})
	defer rdb.Close()
	srv.stop()
	for name, op := range storeOps(rdb) {
		if err := op(context.Background()); !errors.Is(err, redisstore.ErrRedis) {
			t.Errorf("%s with Redis down = %v, want ErrRedis", name, err)
		}
	}
}
