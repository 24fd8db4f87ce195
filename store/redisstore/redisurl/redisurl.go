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

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

func init() { fastmcp.RegisterStoreBackend("redis", open) }

// open opens the stores of the setting's URL, with the server's
// requestState TTL and logger for the key ring.
func open(ctx context.Context, p fastmcp.StoreParams) (*store.Stores, error) {
	return redisstore.Open(ctx, p.URL, &redisstore.Config{Keys: redisstore.KeyRingOptions{StateTTL: p.RequestStateTTL, Logger: p.Logger}})
}
