package oauthserver

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
)

// The key ring: time since the epoch (the first replica's start, kept in
// the store) is cut into periods of KeyRotation; period g's key signs
// during g and is published during g-1, g and g+1, so that verifiers
// holding a key set fetched any time in the last period know it, and
// tokens it signed verify until they expire. Each period's key is created
// once, by whichever replica needs it first (KV.Add), and never changes.
const (
	keyEpoch = "oauthserver:key-epoch" // unix nanoseconds
	keyKey   = "oauthserver:key:"      // period → PKCS #8 key
)

type keyRing struct {
	kv     store.KV
	period time.Duration
	now    func() time.Time

	mu    sync.Mutex
	epoch time.Time
	keys  map[int64]*signingKey // immutable once loaded
}

type signingKey struct {
	kid string
	key *ecdsa.PrivateKey
}

// generation is the period of t.
func (k *keyRing) generation(ctx context.Context, t time.Time) (int64, error) {
	k.mu.Lock()
	epoch := k.epoch
	k.mu.Unlock()
	if epoch.IsZero() {
		b := []byte(strconv.FormatInt(t.UnixNano(), 10))
		if _, err := k.kv.Add(ctx, keyEpoch, b, 0); err != nil {
			return 0, fmt.Errorf("oauthserver: key ring: %w", err)
		}
		b, err := k.kv.Get(ctx, keyEpoch)
		if err != nil {
			return 0, fmt.Errorf("oauthserver: key ring: %w", err)
		}
		n, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("oauthserver: key ring epoch %q: %w", b, err)
		}
		epoch = time.Unix(0, n)
		k.mu.Lock()
		k.epoch = epoch
		k.mu.Unlock()
	}
	if t.Before(epoch) {
		return 0, nil
	}
	return int64(t.Sub(epoch) / k.period), nil
}

// key returns the key of period g, creating it when no replica has.
func (k *keyRing) key(ctx context.Context, g int64) (*signingKey, error) {
	k.mu.Lock()
	sk := k.keys[g]
	k.mu.Unlock()
	if sk != nil {
		return sk, nil
	}
	name := keyKey + strconv.FormatInt(g, 10)
	ttl := 4 * k.period // published until the end of g+1
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, err
	}
	if _, err := k.kv.Add(ctx, name, der, ttl); err != nil {
		return nil, fmt.Errorf("oauthserver: key ring: %w", err)
	}
	if der, err = k.kv.Get(ctx, name); err != nil {
		return nil, fmt.Errorf("oauthserver: key ring: %w", err)
	}
	parsed, err := x509.ParsePKCS8PrivateKey(der)
	ec, ok := parsed.(*ecdsa.PrivateKey)
	if err != nil || !ok {
		return nil, fmt.Errorf("oauthserver: key ring: key %d is not a P-256 key (%v)", g, err)
	}
	sk = &signingKey{kid: thumbprint(&ec.PublicKey), key: ec}
	k.mu.Lock()
	if k.keys == nil {
		k.keys = map[int64]*signingKey{}
	}
	k.keys[g] = sk
	for old := range k.keys {
		if old < g-2 {
			delete(k.keys, old)
		}
	}
	k.mu.Unlock()
	return sk, nil
}

// current returns the key that signs now.
func (k *keyRing) current(ctx context.Context) (*signingKey, error) {
	g, err := k.generation(ctx, k.now())
	if err != nil {
		return nil, err
	}
	return k.key(ctx, g)
}

// published returns the keys verifiers should know now.
func (k *keyRing) published(ctx context.Context) ([]*signingKey, error) {
	g, err := k.generation(ctx, k.now())
	if err != nil {
		return nil, err
	}
	var keys []*signingKey
	for _, p := range []int64{g, g + 1, g - 1} {
		if p < 0 {
			continue
		}
		sk, err := k.key(ctx, p)
		if err != nil {
			return nil, err
		}
		keys = append(keys, sk)
	}
	return keys, nil
}

// lookup returns the published key kid.
func (k *keyRing) lookup(ctx context.Context, kid string) (*ecdsa.PublicKey, error) {
	keys, err := k.published(ctx)
	if err != nil {
		return nil, err
	}
	for _, sk := range keys {
		if sk.kid == kid {
			return &sk.key.PublicKey, nil
		}
	}
	return nil, fmt.Errorf("oauthserver: no key %q", kid)
}

// jwk is a public key as JWKS publishes it.
type jwk struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y"`
	Kid string `json:"kid"`
	Use string `json:"use"`
	Alg string `json:"alg"`
}

func publicJWK(sk *signingKey) jwk {
	x, y := coords(&sk.key.PublicKey)
	return jwk{Kty: "EC", Crv: "P-256", X: x, Y: y, Kid: sk.kid, Use: "sig", Alg: "ES256"}
}

// coords are the base64url coordinates of a P-256 key.
func coords(pub *ecdsa.PublicKey) (x, y string) {
	b, err := pub.Bytes() // 0x04 || X || Y
	if err != nil || len(b) != 65 {
		return "", ""
	}
	return b64(b[1:33]), b64(b[33:])
}

// thumbprint is the RFC 7638 thumbprint of a P-256 key.
func thumbprint(pub *ecdsa.PublicKey) string {
	x, y := coords(pub)
	sum := sha256.Sum256([]byte(`{"crv":"P-256","kty":"EC","x":"` + x + `","y":"` + y + `"}`))
	return b64(sum[:])
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// signJWT signs claims with ES256 under header typ.
func signJWT(sk *signingKey, typ string, claims any) (string, error) {
	hdr, err := json.Marshal(map[string]string{"alg": "ES256", "typ": typ, "kid": sk.kid})
	if err != nil {
		return "", err
	}
	body, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	input := b64(hdr) + "." + b64(body)
	sum := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, sk.key, sum[:])
	if err != nil {
		return "", err
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return input + "." + b64(sig), nil
}

// errBadJWT is matched by verifyJWT's errors.
var errBadJWT = errors.New("oauthserver: invalid token")

// verifyJWT checks an ES256 JWT of ours and decodes its claims into v.
func (k *keyRing) verifyJWT(ctx context.Context, token string, v any) error {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return errBadJWT
	}
	var hdr struct{ Alg, Kid, Typ string }
	if err := decodeSegment(parts[0], &hdr); err != nil || hdr.Alg != "ES256" || hdr.Typ != "at+jwt" {
		return errBadJWT
	}
	pub, err := k.lookup(ctx, hdr.Kid)
	if err != nil {
		return fmt.Errorf("%w: %w", errBadJWT, err)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return errBadJWT
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return errBadJWT
	}
	if err := decodeSegment(parts[1], v); err != nil {
		return errBadJWT
	}
	return nil
}

func decodeSegment(seg string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// randomString is n random bytes, base64url.
func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return b64(b)
}
