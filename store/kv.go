package store

import (
	"context"
	"errors"
	"time"
)

// A KV is a map of keys to byte values that expire, shared by the
// replicas of a deployment: the OAuth authorization server and proxy
// (module oauthserver) keep there their registered clients, pending
// authorization requests, codes, grants, signing keys and the upstream
// tokens they hold for users. MemoryKV keeps one in a process,
// redisstore.NewKV in Redis.
//
// Values are opaque to the store; a caller that needs several keys to
// change together uses Add and Take, which are atomic, to decide which of
// concurrent callers wins. Implementations must be safe for concurrent use
// and must not keep the slices they are given or return slices they keep.
type KV interface {
	// Get returns the value of key. It fails with an error matching
	// ErrKeyNotFound when there is none (never set, deleted, taken or
	// expired).
	Get(ctx context.Context, key string) ([]byte, error)
	// Set sets key to value, replacing any value it had, to expire ttl
	// from now (ttl zero: no expiry).
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error
	// Add sets key to value, to expire ttl from now, only when key has no
	// value: it reports whether it did. Of concurrent Adds of one key, one
	// wins.
	Add(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error)
	// Take returns the value of key and deletes it, in one step: of
	// concurrent Takes of one key, one gets the value and the others fail
	// with an error matching ErrKeyNotFound.
	Take(ctx context.Context, key string) ([]byte, error)
	// Delete deletes key; deleting a key without a value is not an error.
	Delete(ctx context.Context, key string) error
}

// ErrKeyNotFound is matched by the error of a KV's Get or Take of a key
// without a value.
var ErrKeyNotFound = errors.New("store: key not found")
