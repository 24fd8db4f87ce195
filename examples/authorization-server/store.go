package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/store"
)

// openStore returns the KV at redisURL, or nil (the server's memory) when
// it is empty.
func openStore(ctx context.Context, redisURL string) (store.KV, func(), error) {
	if redisURL == "" {
		return nil, func() {}, nil
	}
	opts, err := redis.ParseURL(redisURL)
	if err != nil {
		return nil, nil, fmt.Errorf("-redis-url: %w", err)
	}
	c := redis.NewClient(opts)
	if err := c.Ping(ctx).Err(); err != nil {
		c.Close()
		return nil, nil, fmt.Errorf("-redis-url: %w", err)
	}
	return redisKV{c}, func() { c.Close() }, nil
}

// redisKV is a store.KV in Redis, for this example until
// store/redisstore has one: keys as they are, values as strings, expiry
// by PX.
type redisKV struct{ c *redis.Client }

func (k redisKV) Get(ctx context.Context, key string) ([]byte, error) {
	return notFound(k.c.Get(ctx, key).Bytes())
}

func (k redisKV) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	return k.c.Set(ctx, key, v, max(ttl, 0)).Err()
}

func (k redisKV) Add(ctx context.Context, key string, v []byte, ttl time.Duration) (bool, error) {
	return k.c.SetNX(ctx, key, v, max(ttl, 0)).Result()
}

func (k redisKV) Take(ctx context.Context, key string) ([]byte, error) {
	return notFound(k.c.GetDel(ctx, key).Bytes())
}

func (k redisKV) Delete(ctx context.Context, key string) error {
	return k.c.Del(ctx, key).Err()
}

// notFound turns redis.Nil into store.ErrKeyNotFound.
func notFound(b []byte, err error) ([]byte, error) {
	if errors.Is(err, redis.Nil) {
		return nil, store.ErrKeyNotFound
	}
	return b, err
}
