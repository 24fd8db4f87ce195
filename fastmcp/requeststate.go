package fastmcp

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// ErrInvalidRequestState is wrapped by the error a modern request gets when
// its requestState was tampered with, has expired, or belongs to another
// request or client.
var ErrInvalidRequestState = errors.New("fastmcp: invalid requestState")

// stateSealer seals and opens the requestState of multi round-trip requests
// (protocol 2026-07-28): the answers gathered so far, bound to the request
// they belong to and to the client's principal, with an expiry. Sealing is
// AES-256-GCM under a key derived from the server's secret and the current
// rotation epoch; a state sealed in the previous epoch still opens, so keys
// rotate without any background work and without invalidating states that
// are in flight.
type stateSealer struct {
	secret   []byte
	ttl      time.Duration
	rotation time.Duration
	now      func() time.Time
}

func newStateSealer(secret []byte, ttl, rotation time.Duration) *stateSealer {
	if len(secret) == 0 {
		secret = make([]byte, 32)
		_, _ = rand.Read(secret)
	}
	if ttl <= 0 {
		ttl = 10 * time.Minute
	}
	if rotation <= 0 {
		rotation = time.Hour
	}
	return &stateSealer{secret: secret, ttl: ttl, rotation: rotation, now: time.Now}
}

// sealedState is what travels, encrypted, in requestState.
type sealedState struct {
	Version   int                       `json:"v"`
	Binding   string                    `json:"b"` // digest of method, target and arguments
	Principal string                    `json:"p,omitzero"`
	Expires   int64                     `json:"e"` // unix seconds
	Answers   map[string]jsontext.Value `json:"a,omitzero"`
}

func (s *stateSealer) key(epoch int64) cipher.AEAD {
	mac := hmac.New(sha256.New, s.secret)
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(epoch))
	mac.Write([]byte("fastmcp requestState key\x00"))
	mac.Write(b[:])
	block, _ := aes.NewCipher(mac.Sum(nil)) // 32-byte key: never fails
	aead, _ := cipher.NewGCM(block)
	return aead
}

func (s *stateSealer) epoch(t time.Time) int64 { return t.UnixNano() / int64(s.rotation) }

// seal encrypts st. The epoch is sent in clear (first 8 bytes) so the
// opener knows which key to use.
func (s *stateSealer) seal(st *sealedState) (string, error) {
	now := s.now()
	st.Version = 1
	st.Expires = now.Add(s.ttl).Unix()
	plain, err := protocol.Marshal(st)
	if err != nil {
		return "", err
	}
	epoch := s.epoch(now)
	aead := s.key(epoch)
	out := make([]byte, 8, 8+aead.NonceSize()+len(plain)+aead.Overhead())
	binary.BigEndian.PutUint64(out, uint64(epoch))
	nonce := make([]byte, aead.NonceSize())
	_, _ = rand.Read(nonce)
	out = append(out, nonce...)
	out = aead.Seal(out, nonce, plain, out[:8])
	return base64.RawURLEncoding.EncodeToString(out), nil
}

// open decrypts and checks a state: it must be intact, unexpired, sealed
// for binding, and sealed for principal.
func (s *stateSealer) open(state, binding, principal string) (*sealedState, error) {
	raw, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil || len(raw) < 8 {
		return nil, fmt.Errorf("%w: malformed", ErrInvalidRequestState)
	}
	epoch := int64(binary.BigEndian.Uint64(raw))
	cur := s.epoch(s.now())
	if epoch != cur && epoch != cur-1 {
		return nil, fmt.Errorf("%w: expired", ErrInvalidRequestState)
	}
	aead := s.key(epoch)
	if len(raw) < 8+aead.NonceSize() {
		return nil, fmt.Errorf("%w: malformed", ErrInvalidRequestState)
	}
	nonce := raw[8 : 8+aead.NonceSize()]
	plain, err := aead.Open(nil, nonce, raw[8+aead.NonceSize():], raw[:8])
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
