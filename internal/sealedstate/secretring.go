package sealedstate

import (
	"crypto/hmac"
	"crypto/sha256"
	"strconv"
	"strings"
	"sync"
	"time"
)

// secretRing is the ring of a Sealer made from a secret (fastmcp's
// RequestStateSecret): keys derived from one secret, one per rotation
// period, the key of each period named "h" and the period's number. It
// opens the states of every period a state sealed in can still be valid
// (the TTL, plus one period for clocks that differ between replicas).
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
