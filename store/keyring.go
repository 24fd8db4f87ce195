package store

// A KeyRing holds the secrets that seal the requestState of multi
// round-trip requests (protocol 2026-07-28). The current key seals new
// states; every key the ring still holds opens the states it sealed, whose
// bytes name it by its id. Replicas behind a load balancer share a ring, so
// that any of them opens a state another one sealed: StaticKeys for keys
// given in the configuration, redisstore.NewKeyRing for keys that rotate
// on their own through Redis.
//
// Both methods are called on every request that gives or gets a
// requestState, concurrently: they must not block on the network.
type KeyRing interface {
	// Current returns the key that seals new states: an id of 1 to
	// MaxKeyIDLen bytes, sent in clear in each state, and a secret of at
	// least MinKeySecretLen bytes.
	Current() (id string, secret []byte)
	// Lookup returns the secret of the key named id, or false when the
	// ring does not hold it (any more).
	Lookup(id string) (secret []byte, ok bool)
}

// Limits on the keys of a KeyRing.
const (
	MaxKeyIDLen     = 32 // bytes of a key id
	MinKeySecretLen = 16 // bytes of a key's secret; 32 random bytes are the norm
)
