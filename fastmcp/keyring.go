package fastmcp

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
)

// RequestStateKeys sets the key ring that seals the requestState of multi
// round-trip requests (protocol 2026-07-28). It replaces
// RequestStateSecret. Default: a random secret per process.
func RequestStateKeys(ring store.KeyRing) Option {
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
// longer than store.MaxKeyIDLen or repeated, or a secret is shorter than
// store.MinKeySecretLen.
func StaticKeys(keys ...Key) store.KeyRing {
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
	case len(id) > store.MaxKeyIDLen:
		return fmt.Errorf("the id %q is %d bytes; keep it to %d", id, len(id), store.MaxKeyIDLen)
	case len(secret) < store.MinKeySecretLen:
		return fmt.Errorf("key %q has a %d-byte secret; give it at least %d random bytes (32 are usual)", id, len(secret), store.MinKeySecretLen)
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
