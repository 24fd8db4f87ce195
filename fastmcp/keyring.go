package fastmcp

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

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

// RequestStateKeys sets the key ring that seals the requestState of multi
// round-trip requests (protocol 2026-07-28). It replaces
// RequestStateSecret. Default: a random secret per process.
func RequestStateKeys(ring KeyRing) Option {
	return serverOption(func(c *serverConfig) { c.stateKeys, c.stateSecret = ring, nil })
}

// A Key is one secret of a key ring, named by its ID.
type Key struct {
	ID     string
	Secret []byte
}

// StaticKeys returns a key ring of fixed keys: the first one seals, every
// one opens. It suits keys kept in the configuration of every replica.
// To rotate by hand, put a new key first and keep the old one second;
// remove the old one once every replica seals with the new one and
// RequestStateTTL has passed.
//
// It panics, saying what to fix, when no key is given, an id is empty,
// longer than MaxKeyIDLen or repeated, or a secret is shorter than
// MinKeySecretLen.
func StaticKeys(keys ...Key) KeyRing {
	if len(keys) == 0 {
		panic("fastmcp.StaticKeys: no key given; pass at least the key that seals")
	}
	r := &staticRing{current: keys[0].ID, keys: make(map[string][]byte, len(keys))}
	for i, k := range keys {
		if err := checkKey(k.ID, k.Secret); err != nil {
			panic(fmt.Sprintf("fastmcp.StaticKeys: key %d: %v", i, err))
		}
		if _, dup := r.keys[k.ID]; dup {
			panic(fmt.Sprintf("fastmcp.StaticKeys: key id %q given twice; give each key its own id", k.ID))
		}
		r.keys[k.ID] = append([]byte(nil), k.Secret...)
	}
	return r
}

// checkKey reports what is wrong with a key, or nil.
func checkKey(id string, secret []byte) error {
	switch {
	case id == "":
		return fmt.Errorf("the id is empty; name the key")
	case len(id) > MaxKeyIDLen:
		return fmt.Errorf("the id %q is %d bytes; keep it to %d", id, len(id), MaxKeyIDLen)
	case len(secret) < MinKeySecretLen:
		return fmt.Errorf("key %q has a %d-byte secret; give it at least %d random bytes (32 are usual)", id, len(secret), MinKeySecretLen)
	}
	return nil
}

type staticRing struct {
	current string
	keys    map[string][]byte
}

func (r *staticRing) Current() (string, []byte) { return r.current, r.keys[r.current] }

func (r *staticRing) Lookup(id string) ([]byte, bool) {
	s, ok := r.keys[id]
	return s, ok
}

// secretRing is the ring of RequestStateSecret: hourly keys derived from
// one secret, the key of each hour named "h" and the hour's number. It
// opens the states of every hour a state sealed in can still be valid
// (the TTL, plus one hour for clocks that differ between replicas).
type secretRing struct {
	secret   []byte
	rotation time.Duration
	keep     int64 // past epochs that still open
	now      func() time.Time

	mu    sync.Mutex
	epoch int64
	cur   []byte // the current epoch's key
}

func newSecretRing(secret []byte, ttl, rotation time.Duration) *secretRing {
	return &secretRing{secret: secret, rotation: rotation, keep: int64(ttl/rotation) + 1, now: time.Now, epoch: -1}
}

func (r *secretRing) derive(epoch int64) []byte {
	mac := hmac.New(sha256.New, r.secret)
	mac.Write([]byte("fastmcp requestState epoch\x00"))
	mac.Write(strconv.AppendInt(nil, epoch, 10))
	return mac.Sum(nil)
}

func (r *secretRing) Current() (string, []byte) {
	epoch := r.now().UnixNano() / int64(r.rotation)
	r.mu.Lock()
	defer r.mu.Unlock()
	if epoch != r.epoch {
		r.epoch, r.cur = epoch, r.derive(epoch)
	}
	return "h" + strconv.FormatInt(epoch, 10), r.cur
}

func (r *secretRing) Lookup(id string) ([]byte, bool) {
	n, ok := strings.CutPrefix(id, "h")
	if !ok {
		return nil, false
	}
	epoch, err := strconv.ParseInt(n, 10, 64)
	if err != nil {
		return nil, false
	}
	cur := r.now().UnixNano() / int64(r.rotation)
	if epoch < cur-r.keep || epoch > cur+1 {
		return nil, false
	}
	return r.derive(epoch), true
}
