package fastmcp

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

// ErrInvalidRequestState is wrapped by the error a modern request gets when
// its requestState was tampered with, has expired, or belongs to another
// request or client.
var ErrInvalidRequestState = errors.New("fastmcp: invalid requestState")

// stateSealer seals and opens the requestState of multi round-trip requests
// (protocol 2026-07-28): the answers gathered so far, bound to the request
// they belong to and to the client's principal, with an expiry. Sealing is
// AES-256-GCM under a key derived from the key ring's current secret and
// its id; the id travels in clear at the front of the state so that any
// replica holding the ring opens it:
//
//	len(id) (1 byte) | id | nonce (12 bytes) | ciphertext and tag
//
// with everything before the nonce authenticated.
type stateSealer struct {
	ring store.KeyRing
	ttl  time.Duration
	now  func() time.Time
}

func newStateSealer(ring store.KeyRing, secret []byte, ttl time.Duration) *stateSealer {
	if ttl <= 0 {
		ttl = 10 * time.Minute
	}
	if ring == nil {
		if len(secret) == 0 {
			secret = make([]byte, 32)
			_, _ = rand.Read(secret)
		}
		ring = newSecretRing(secret, ttl, time.Hour)
	}
	return &stateSealer{ring: ring, ttl: ttl, now: time.Now}
}

// sealedState is what travels, encrypted, in requestState.
type sealedState struct {
	Version   int                       `json:"v"`
	Binding   string                    `json:"b"` // digest of method, target and arguments
	Principal string                    `json:"p,omitzero"`
	Expires   int64                     `json:"e"` // unix seconds
	Answers   map[string]jsontext.Value `json:"a,omitzero"`
}

// aead returns the cipher of the key named id.
func aeadFor(id string, secret []byte) cipher.AEAD {
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("fastmcp requestState key\x00"))
	mac.Write([]byte(id))
	block, _ := aes.NewCipher(mac.Sum(nil)) // 32-byte key: never fails
	aead, _ := cipher.NewGCM(block)
	return aead
}

// seal encrypts st under the ring's current key.
func (s *stateSealer) seal(st *sealedState) (string, error) {
	id, secret := s.ring.Current()
	if err := checkKey(id, secret); err != nil {
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

// open decrypts and checks a state: it must be sealed by a key the ring
// holds, intact, unexpired, sealed for binding, and sealed for principal.
func (s *stateSealer) open(state, binding, principal string) (*sealedState, error) {
	raw, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil || len(raw) < 1 || raw[0] == 0 || int(raw[0]) > store.MaxKeyIDLen || len(raw) < 1+int(raw[0])+12 {
		return nil, fmt.Errorf("%w: malformed", ErrInvalidRequestState)
	}
	head := 1 + int(raw[0])
	id := string(raw[1:head])
	secret, ok := s.ring.Lookup(id)
	if !ok {
		return nil, fmt.Errorf("%w: it was sealed with key %q, which this server does not hold: the key was rotated out (the state is older than the keys are kept), or another server sealed it", ErrInvalidRequestState, id)
	}
	aead := aeadFor(id, secret)
	nonce := raw[head : head+aead.NonceSize()]
	plain, err := aead.Open(nil, nonce, raw[head+aead.NonceSize():], raw[:head])
	if err != nil {
		return nil, fmt.Errorf("%w: it was not issued by this server or was modified", ErrInvalidRequestState)
	}
	var st sealedState
	if err := protocol.Unmarshal(plain, &st); err != nil || st.Version != 1 {
		return nil, fmt.Errorf("%w: malformed", ErrInvalidRequestState)
	}
	if s.now().Unix() > st.Expires {
		return nil, fmt.Errorf("%w: expired", ErrInvalidRequestState)
	}
	if !hmac.Equal([]byte(st.Binding), []byte(binding)) {
		return nil, fmt.Errorf("%w: it belongs to a different request", ErrInvalidRequestState)
	}
	if !hmac.Equal([]byte(st.Principal), []byte(principal)) {
		return nil, fmt.Errorf("%w: it belongs to a different client", ErrInvalidRequestState)
	}
	return &st, nil
}

// requestBinding digests what identifies a request across retries: the
// method, its target (tool or prompt name, resource URI) and its
// arguments in canonical form.
func requestBinding(method, target string, args jsontext.Value) string {
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
