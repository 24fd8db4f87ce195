// Package redisurl lets a server's RedisURL setting (FASTMCP_REDIS_URL,
// -redis-url, fastmcp.RedisURL) keep the state it shares with its replicas
// in Redis. Link it with
//
//	import _ "github.com/fastmcp-go/fastmcp/store/redisstore/redisurl"
//
// and the server opens redisstore.Open on the setting's URL when it
// starts. It is the bridge between package redisstore, which implements
// the contracts of package store and does not import the server, and
// package fastmcp, whose backend registry also links the code that runs a
// shared bus (see fastmcp.RegisterStoreBackend).
package redisurl

import (
	"context"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

func init() { fastmcp.RegisterStoreBackend("redis", open) }

var routeOnce sync.Once

// open opens the stores of the setting's URL, with the server's
// requestState TTL and logger for the key ring.
func open(ctx context.Context, p fastmcp.StoreParams) (*store.Stores, error) {
	// go-redis's own lines (a pool that cannot dial) go to the server's
	// logger, not to stderr in a format of their own. go-redis has one
	// logger per process and no per-client one, so the first server that
	// opens its stores routes it, once: a process runs one server, and a
	// program with more that wants another route calls redis.SetLogger
	// itself (redisstore.GoRedisLogger).
	routeOnce.Do(func() { redis.SetLogger(redisstore.NewGoRedisLogger(p.Logger)) })
	return redisstore.Open(ctx, p.URL, &redisstore.Config{Keys: redisstore.KeyRingOptions{StateTTL: p.RequestStateTTL, Logger: p.Logger}})
}
