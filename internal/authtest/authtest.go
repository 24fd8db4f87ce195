// Package authtest is an OAuth authorization server for tests, on
// 127.0.0.1: it publishes its metadata (RFC 8414) and its key set, and
// signs JWT access tokens (RFC 9068) with real generated keys, so the
// tests of a protected server exercise the same path as production.
package authtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// Issuer is a test authorization server. Its URL is its issuer
// identifier; it serves /.well-known/oauth-authorization-server and /jwks.
// It is closed when the test ends.
type Issuer struct {
	URL string

	t   testing.TB
	key jose.JSONWebKey // the private signing key, kid "k1", ES256
	srv *httptest.Server
}

// NewIssuer starts an issuer with one P-256 signing key.
func NewIssuer(t testing.TB) *Issuer {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	is := &Issuer{t: t, key: jose.JSONWebKey{Key: priv, KeyID: "k1", Algorithm: "ES256", Use: "sig"}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{
			"issuer": is.URL, "jwks_uri": is.URL + "/jwks",
			"authorization_endpoint": is.URL + "/authorize", "token_endpoint": is.URL + "/token",
			"response_types_supported": []string{"code"},
		})
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{is.key.Public()}})
	})
	is.srv = httptest.NewServer(mux)
	is.URL = is.srv.URL
	t.Cleanup(is.srv.Close)
	return is
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// Claims returns the claims of a valid token of subject for audience,
// through client "app", with scope "files:read", valid for an hour; the
// overrides replace claims (a nil value deletes one).
func (is *Issuer) Claims(subject, audience string, overrides map[string]any) map[string]any {
	now := time.Now()
	c := map[string]any{
		"iss": is.URL, "aud": audience, "sub": subject, "client_id": "app",
		"scope": "files:read", "exp": now.Add(time.Hour).Unix(),
		"iat": now.Unix(), "jti": rand.Text(),
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

// Token returns a signed access token of subject for audience, with
// Claims' defaults and the overrides.
func (is *Issuer) Token(subject, audience string, overrides map[string]any) string {
	return is.Sign(is.Claims(subject, audience, overrides))
}

// Sign returns a JWT access token (typ at+jwt) carrying claims, signed
// with the issuer's key.
func (is *Issuer) Sign(claims map[string]any) string {
	is.t.Helper()
	k := is.key
	opts := (&jose.SignerOptions{}).WithHeader("kid", k.KeyID).WithType("at+jwt")
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: k.Key}, opts)
	if err != nil {
		is.t.Fatal(err)
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		is.t.Fatal(err)
	}
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
