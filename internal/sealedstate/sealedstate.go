// Package sealedstate seals and opens the opaque requestState of multi
// round-trip requests (protocol 2026-07-28): the answers a server gathered
// so far, bound to the request they belong to and to the client's
// principal, with an expiry, encrypted under a [store.KeyRing] so that any
// replica holding the ring opens what another one sealed.
//
// Its one job is that envelope; package fastmcp decides when a request
// carries a state, what goes in it, and which options choose the ring.
//
// A state is AES-256-GCM under a key derived from the ring's current
// secret and its id; the id travels in clear at the front, and everything
// before the nonce is authenticated:
//
//	len(id) (1 byte) | id | nonce (12 bytes) | ciphertext and tag
package sealedstate

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// ErrInvalid is wrapped by every error of [Sealer.Open]: the state was
// tampered with, has expired, or belongs to another request or client.
// Package fastmcp exports it as fastmcp.ErrInvalidRequestState, so its
// text names fastmcp.
var ErrInvalid = errors.New("fastmcp: invalid requestState")

// DefaultTTL is how long a sealed state stays valid when New is given no
// TTL.
const DefaultTTL = 10 * time.Minute

// A Sealer seals and opens states under a key ring. Seal and Open are safe
// for concurrent use; UseRing is not (call it before either).
type Sealer struct {
	ring store.KeyRing
	ttl  time.Duration
	now  func() time.Time
}

// New returns a Sealer whose states expire after ttl (DefaultTTL when ttl
// <= 0). With a nil ring, it seals with hourly keys derived from secret
// (a random secret when secret is empty), each kept as long as a state
// sealed under it can be valid.
func New(ring store.KeyRing, secret []byte, ttl time.Duration) *Sealer {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	if ring == nil {
		if len(secret) == 0 {
			secret = make([]byte, 32)
			_, _ = rand.Read(secret)
		}
		ring = newSecretRing(secret, ttl, time.Hour)
	}
	return &Sealer{ring: ring, ttl: ttl, now: time.Now}
}

// TTL returns how long a state stays valid after it is sealed.
func (s *Sealer) TTL() time.Duration { return s.ttl }

// Ring returns the key ring that seals and opens.
func (s *Sealer) Ring() store.KeyRing { return s.ring }

// UseRing makes ring seal and open from now on (the shared stores' ring).
// It must not run concurrently with Seal or Open.
func (s *Sealer) UseRing(ring store.KeyRing) { s.ring = ring }

// State is what travels, encrypted, in requestState.
type State struct {
	Version   int                       `json:"v"`
	Binding   string                    `json:"b"` // Binding(method, target, arguments)
	Principal string                    `json:"p,omitzero"`
	Expires   int64                     `json:"e"` // unix seconds
	Answers   map[string]jsontext.Value `json:"a,omitzero"`
}

// aeadFor returns the cipher of the key named id.
func aeadFor(id string, secret []byte) cipher.AEAD {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("fastmcp requestState key\x00"))
	mac.Write([]byte(id))
	block, _ := aes.NewCipher(mac.Sum(nil)) // 32-byte key: never fails
	aead, _ := cipher.NewGCM(block)
	return aead
}

// Seal encrypts st under the ring's current key, setting its Version and
// Expires. It fails when the ring's current key is not a valid key.
func (s *Sealer) Seal(st *State) (string, error) {
	id, secret := s.ring.Current()
	if err := (store.Key{ID: id, Secret: secret}).Check(); err != nil {
		return "", fmt.Errorf("the key ring's current key: %w", err)
	}
	st.Version = 1
	st.Expires = s.now().Add(s.ttl).Unix()
	plain, err := protocol.Marshal(st)
	if err != nil {
		return "", err
	}
	aead := aeadFor(id, secret)
	head := 1 + len(id)
	out := make([]byte, head, head+aead.NonceSize()+len(plain)+aead.Overhead())
	out[0] = byte(len(id))
	copy(out[1:], id)
	nonce := make([]byte, aead.NonceSize())
	_, _ = rand.Read(nonce)
	out = append(out, nonce...)
	out = aead.Seal(out, nonce, plain, out[:head])
	return base64.RawURLEncoding.EncodeToString(out), nil
}

// Open decrypts and checks a state: it must be sealed by a key the ring
// holds, intact, unexpired, sealed for binding, and sealed for principal.
// Its errors wrap ErrInvalid and say which check failed.
func (s *Sealer) Open(state, binding, principal string) (*State, error) {
	raw, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil || len(raw) < 1 || raw[0] == 0 || int(raw[0]) > store.MaxKeyIDLen || len(raw) < 1+int(raw[0])+12 {
		return nil, fmt.Errorf("%w: malformed", ErrInvalid)
	}
	head := 1 + int(raw[0])
	id := string(raw[1:head])
	secret, ok := s.ring.Lookup(id)
	if !ok {
		return nil, fmt.Errorf("%w: it was sealed with key %q, which this server does not hold: the key was rotated out (the state is older than the keys are kept), or another server sealed it", ErrInvalid, id)
	}
	aead := aeadFor(id, secret)
	nonce := raw[head : head+aead.NonceSize()]
	plain, err := aead.Open(nil, nonce, raw[head+aead.NonceSize():], raw[:head])
	if err != nil {
		return nil, fmt.Errorf("%w: it was not issued by this server or was modified", ErrInvalid)
	}
	var st State
	if err := protocol.Unmarshal(plain, &st); err != nil || st.Version != 1 {
		return nil, fmt.Errorf("%w: malformed", ErrInvalid)
	}
	if s.now().Unix() > st.Expires {
		return nil, fmt.Errorf("%w: expired", ErrInvalid)
	}
	if !hmac.Equal([]byte(st.Binding), []byte(binding)) {
		return nil, fmt.Errorf("%w: it belongs to a different request", ErrInvalid)
	}
	if !hmac.Equal([]byte(st.Principal), []byte(principal)) {
		return nil, fmt.Errorf("%w: it belongs to a different client", ErrInvalid)
	}
	return &st, nil
}

// Binding digests what identifies a request across retries: the method,
// its target (tool or prompt name, resource URI) and its arguments in
// canonical form.
func Binding(method, target string, args jsontext.Value) string {
	h := sha256.New()
	h.Write([]byte(method))
	h.Write([]byte{0})
	h.Write([]byte(target))
	h.Write([]byte{0})
	if len(args) > 0 {
		c := args.Clone()
		if err := c.Canonicalize(); err == nil {
			h.Write(c)
		} else {
			h.Write(args)
		}
	}
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}
