package redisstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/store"
)

// KVOptions configures NewKV.
type KVOptions struct {
	// Prefix starts every key the store writes (followed by "kv:").
	// Default DefaultPrefix.
	Prefix string
}

// KV is a store.KV in Redis: the state of the OAuth authorization server
// and proxy (module oauthserver) shared by its replicas. Add is SET NX
// and Take is GETDEL, so that of replicas racing for one key one wins.
type KV struct {
	rdb    redis.UniversalClient
	prefix string
}

var _ store.KV = (*KV)(nil)

// NewKV returns a KV that keeps its values in Redis through rdb. opts may
// be nil. Its errors other than store.ErrKeyNotFound match ErrRedis.
func NewKV(rdb redis.UniversalClient, opts *KVOptions) *KV {
	k := &KV{rdb: rdb, prefix: DefaultPrefix}
	if opts != nil && opts.Prefix != "" {
		k.prefix = opts.Prefix
	}
	k.prefix += "kv:"
	return k
}

// failed wraps a Redis error of op.
func failed(op string, err error) error {
	return fmt.Errorf("%w: KV %s: %w", ErrRedis, op, err)
}

// Get implements store.KV.
func (k *KV) Get(ctx context.Context, key string) ([]byte, error) {
	v, err := k.rdb.Get(ctx, k.prefix+key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, store.ErrKeyNotFound
	} else if err != nil {
		return nil, failed("get", err)
	}
	return v, nil
}

// Set implements store.KV.
func (k *KV) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := k.rdb.Set(ctx, k.prefix+key, value, ttl).Err(); err != nil {
		return failed("set", err)
	}
	return nil
}

// Add implements store.KV.
func (k *KV) Add(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error) {
	err := k.rdb.SetArgs(ctx, k.prefix+key, value, redis.SetArgs{Mode: "NX", TTL: ttl}).Err()
	if errors.Is(err, redis.Nil) {
		return false, nil
	} else if err != nil {
		return false, failed("add", err)
	}
	return true, nil
}

// Take implements store.KV.
func (k *KV) Take(ctx context.Context, key string) ([]byte, error) {
	v, err := k.rdb.GetDel(ctx, k.prefix+key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, store.ErrKeyNotFound
	} else if err != nil {
		return nil, failed("take", err)
	}
	return v, nil
}

// Delete implements store.KV.
func (k *KV) Delete(ctx context.Context, key string) error {
	if err := k.rdb.Del(ctx, k.prefix+key).Err(); err != nil {
		return failed("delete", err)
	}
	return nil
}
