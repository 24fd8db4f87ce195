package redisstore_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/kvtest"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// TestKV: the KV on a real redis-server behaves as every store.KV must
// (internal/kvtest, which store.MemoryKV passes too).
func TestKV(t *testing.T) {
	rdb := startRedis(t).client(t)
	n := 0
	kvtest.Run(t, func(*testing.T) store.KV {
		n++
		return redisstore.NewKV(rdb, &redisstore.KVOptions{Prefix: "t" + strconv.Itoa(n) + ":"})
	})
}

// TestKVRedisDown: with Redis gone, the KV's errors match ErrRedis and
// never ErrKeyNotFound (a missing code is not the same as an outage).
func TestKVRedisDown(t *testing.T) {
	srv := startRedis(t)
	rdb := srv.client(t)
	kv := redisstore.NewKV(rdb, nil)
	srv.stop()
	ctx := t.Context()
	if _, err := kv.Get(ctx, "k"); !errors.Is(err, redisstore.ErrRedis) || errors.Is(err, store.ErrKeyNotFound) {
		t.Errorf("Get: %v", err)
	}
	if _, err := kv.Take(ctx, "k"); !errors.Is(err, redisstore.ErrRedis) || errors.Is(err, store.ErrKeyNotFound) {
		t.Errorf("Take: %v", err)
	}
	if _, err := kv.Add(ctx, "k", nil, 0); !errors.Is(err, redisstore.ErrRedis) {
		t.Errorf("Add: %v", err)
	}
}

// TestStoresKV: NewStores fills Stores.KV.
func TestStoresKV(t *testing.T) {
	rdb := startRedis(t).client(t)
	st, err := redisstore.NewStores(t.Context(), rdb, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.KV == nil {
		t.Fatal("Stores.KV is nil")
	}
	if err := st.KV.Set(t.Context(), "k", []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
}
