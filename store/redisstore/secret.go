package redisstore

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"
)

// secretSize is the size of the shared requestState secret, in bytes.
const secretSize = 32

// SharedSecret returns the secret that seals requestState, shared by every
// replica through Redis under prefix+"requeststate-secret": the first
// replica to start creates it at random (SET NX), the others read it.
// Give it to fastmcp.RequestStateSecret (NewStores does). The key does not
// expire; the keys the server derives from it rotate hourly (see
// fastmcp.RequestStateSecret). Deleting it makes replicas that start later
// use a new secret, and states sealed by the older replicas unreadable to
// them: restart every replica after deleting it.
//
// Deprecated: the secret never rotates. Use NewKeyRing (NewStores does),
// whose keys rotate without restarting the replicas.
func SharedSecret(ctx context.Context, rdb redis.UniversalClient, prefix string) ([]byte, error) {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	key := prefix + "requeststate-secret"
	fresh := make([]byte, secretSize)
	_, _ = rand.Read(fresh)
	// SET NX GET (Redis 7) answers the stored value, or nil when ours
	// was stored.
	got, err := rdb.SetArgs(ctx, key, fresh, redis.SetArgs{Mode: "NX", Get: true}).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		return fresh, nil
	case err != nil:
		return nil, fmt.Errorf("%w: get the requestState secret: %w", ErrRedis, err)
	case len(got) != secretSize:
		return nil, fmt.Errorf("redisstore: %s holds %d bytes, not a %d-byte secret: delete it and restart the replicas", key, len(got), secretSize)
	}
	return got, nil
}
