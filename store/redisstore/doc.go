// Package redisstore keeps the state a fastmcp server shares between
// replicas in Redis: the SSE event log of resumable Streamable HTTP
// streams (EventStore), the records of legacy sessions that any replica
// may serve (SessionStore), the state of tasks (TaskStore), and the key
// ring that seals requestState (KeyRing); and a store.Bus (NewBus) that
// carries announcements and routed messages between replicas: the
// contracts of package store, which is all of the SDK it imports besides
// protocol. NewStores makes all of them on one client, for
// fastmcp.SharedStores; Open does the same from a URL. Linking package
// redisurl lets the server's RedisURL setting (FASTMCP_REDIS_URL,
// -redis-url) open them.
//
// It needs Redis 7.0 or later. Its keys are laid out for Redis Cluster
// (a session's event keys share a hash tag; no command spans two slots),
// which the tests do not cover yet.
//
// The package lives apart from fastmcp so that programs which do not use
// Redis do not link its client (github.com/redis/go-redis/v9).
//
// Every operation runs with the caller's context and the client's
// timeouts: when Redis cannot be reached it returns an error matching
// ErrRedis, never a hang, and nothing is buffered in the process to be
// written later. See docs/scale.md.
package redisstore

import "errors"

// ErrRedis is wrapped by every error that comes from Redis (unreachable,
// timed out, or refusing a command); the underlying go-redis or network
// error is wrapped beside it.
var ErrRedis = errors.New("redisstore: Redis operation failed")

// DefaultPrefix is the key prefix used when none is configured.
const DefaultPrefix = "fastmcp:"
