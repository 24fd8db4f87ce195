package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// testIssuer is an authorization server on 127.0.0.1 for the tests: it
// serves its RFC 8414 metadata, its key set (with real generated keys),
// and an introspection endpoint, and signs tokens.
type testIssuer struct {
	t   *testing.T
	srv *httptest.Server

	mu      sync.Mutex
	private map[string]jose.JSONWebKey // kid → private key
	public  []jose.JSONWebKey          // what /jwks serves
	active  map[string]map[string]any  // token → introspection answer

	metadataHits, jwksHits, introspectHits atomic.Int32
	down                                   atomic.Bool
	downHits                               atomic.Int32 // requests answered 502 while down
	hold                                   atomic.Pointer[jwksHold]
}

// jwksHold holds /jwks answers until release is closed; entered gets a
// value as each held request arrives.
type jwksHold struct {
	entered chan struct{}
	release chan struct{}
}

// holdJWKS makes the key set's answers wait until release is called, as
// an issuer that answers slowly; entered receives as each held request
// arrives.
func (is *testIssuer) holdJWKS() (entered <-chan struct{}, release func()) {
	h := &jwksHold{entered: make(chan struct{}, 64), release: make(chan struct{})}
	is.hold.Store(h)
	var once sync.Once
	release = func() {
		once.Do(func() {
			is.hold.Store(nil)
			close(h.release)
		})
	}
	is.t.Cleanup(release) // before the server's Close, which waits for held requests
	return h.entered, release
}

func newTestIssuer(t *testing.T) *testIssuer {
	t.Helper()
	is := &testIssuer{t: t, private: map[string]jose.JSONWebKey{}, active: map[string]map[string]any{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		is.metadataHits.Add(1)
		writeJSON(w, map[string]any{"issuer": is.srv.URL, "jwks_uri": is.srv.URL + "/jwks", "introspection_endpoint": is.srv.URL + "/introspect"})
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		is.jwksHits.Add(1)
		if h := is.hold.Load(); h != nil {
			select {
			case h.entered <- struct{}{}:
			default:
			}
			select {
			case <-h.release:
			case <-r.Context().Done():
			}
		}
		is.mu.Lock()
		defer is.mu.Unlock()
		writeJSON(w, jose.JSONWebKeySet{Keys: is.public})
	})
	mux.HandleFunc("POST /introspect", func(w http.ResponseWriter, r *http.Request) {
		is.introspectHits.Add(1)
		if id, secret, _ := r.BasicAuth(); id != "rs" || secret != "s3cret" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		is.mu.Lock()
		answer, ok := is.active[r.PostFormValue("token")]
		is.mu.Unlock()
		if !ok {
			answer = map[string]any{"active": false}
		}
		writeJSON(w, answer)
	})
	is.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if is.down.Load() {
			is.downHits.Add(1)
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(is.srv.Close)
	return is
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// addKey generates a key (RSA for "RS256", P-256 for "ES256") and
// publishes it in the key set.
func (is *testIssuer) addKey(kid, alg string) {
	is.t.Helper()
	var priv any
	var err error
	if alg == "RS256" {
		priv, err = rsa.GenerateKey(rand.Reader, 2048)
	} else {
		priv, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	if err != nil {
		is.t.Fatal(err)
	}
	k := jose.JSONWebKey{Key: priv, KeyID: kid, Algorithm: alg, Use: "sig"}
	is.mu.Lock()
	defer is.mu.Unlock()
	is.private[kid] = k
	is.public = append(is.public, k.Public())
}

// removeKey stops publishing kid (the issuer rotated it out).
func (is *testIssuer) removeKey(kid string) {
	is.mu.Lock()
	defer is.mu.Unlock()
	for i, k := range is.public {
		if k.KeyID == kid {
			is.public = append(is.public[:i], is.public[i+1:]...)
			return
		}
	}
}

// sign returns a JWT with claims signed by key kid, with typ set in the
// header.
func (is *testIssuer) sign(kid, typ string, claims map[string]any) string {
	is.t.Helper()
	is.mu.Lock()
	k := is.private[kid]
	is.mu.Unlock()
	opts := (&jose.SignerOptions{}).WithHeader("kid", kid)
	if typ != "" {
		opts = opts.WithType(jose.ContentType(typ))
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.SignatureAlgorithm(k.Algorithm), Key: k.Key}, opts)
	if err != nil {
		is.t.Fatal(err)
	}
	payload, _ := json.Marshal(claims)
	jws, err := signer.Sign(payload)
	if err != nil {
		is.t.Fatal(err)
	}
	s, err := jws.CompactSerialize()
	if err != nil {
		is.t.Fatal(err)
	}
	return s
}

// claims returns valid claims for audience, with overrides applied (a nil
// value deletes the claim).
func (is *testIssuer) claims(audience string, overrides map[string]any) map[string]any {
	now := time.Now()
	c := map[string]any{
		"iss": is.srv.URL, "aud": audience, "sub": "alice", "client_id": "app",
		"scope": "files:read files:write", "exp": now.Add(time.Hour).Unix(),
		"iat": now.Unix(), "nbf": now.Add(-time.Minute).Unix(), "jti": "t1",
	}
	for k, v := range overrides {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	return c
}
