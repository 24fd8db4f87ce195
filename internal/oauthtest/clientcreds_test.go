package oauthtest_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
)

// tokenRequest posts form to as's token endpoint, with Basic credentials
// when id is not empty, and returns the status and the answer.
func tokenRequest(t *testing.T, as *oauthtest.Server, form url.Values, id, secret string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, as.URL()+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if id != "" {
		req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// TestClientCredentials: a confidential client registered for the grant
// gets a token for itself; a public one cannot register for it.
func TestClientCredentials(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	c, err := as.Register(oauthtest.Client{ID: "svc", GrantTypes: []string{"client_credentials"}})
	if err != nil {
		t.Fatal(err)
	}
	form := url.Values{"grant_type": {"client_credentials"}, "scope": {"read"}, "resource": {resource}}
	status, out := tokenRequest(t, as, form, "svc", c.Secret)
	if status != http.StatusOK {
		t.Fatalf("client_credentials: %d %v", status, out)
	}
	info := verify(t, as, out["access_token"].(string))
	if info.Subject != "svc" || info.ClientID != "svc" || len(info.Scopes) != 1 || info.Scopes[0] != "read" {
		t.Errorf("token info %+v: want subject and client svc, scope read", info)
	}
	if status, out := tokenRequest(t, as, form, "svc", "wrong"); status != http.StatusUnauthorized || out["error"] != "invalid_client" {
		t.Errorf("wrong secret: %d %v, want invalid_client", status, out)
	}
	if _, err := as.Register(oauthtest.Client{AuthMethod: "none", GrantTypes: []string{"client_credentials"}}); err == nil {
		t.Error("a public client registered for client_credentials")
	}
	other, _ := as.Register(oauthtest.Client{RedirectURIs: []string{"http://127.0.0.1/cb"}})
	if status, out := tokenRequest(t, as, form, other.ID, other.Secret); status != http.StatusBadRequest || out["error"] != "unauthorized_client" {
		t.Errorf("client without the grant: %d %v, want unauthorized_client", status, out)
	}
}

// TestPrivateKeyJWT: a client registered with a public key authenticates
// with an assertion signed by its private key (RFC 7523 §2.2), and only
// with a valid one.
func TestPrivateKeyJWT(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	as := oauthtest.NewServer(t, oauthtest.Options{AuthMethods: []string{"private_key_jwt"}})
	if _, err := as.Register(oauthtest.Client{ID: "svc", AuthMethod: "private_key_jwt", PublicKey: &key.PublicKey, GrantTypes: []string{"client_credentials"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := as.Register(oauthtest.Client{AuthMethod: "private_key_jwt", GrantTypes: []string{"client_credentials"}}); err == nil {
		t.Error("registered a private_key_jwt client without a key")
	}
	assertion := func(k *ecdsa.PrivateKey, sub, aud string, exp time.Duration) string {
		signer, _ := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: k}, nil)
		now := time.Now()
		s, err := jwt.Signed(signer).Claims(jwt.Claims{Issuer: sub, Subject: sub, Audience: jwt.Audience{aud}, ID: "j1",
			IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(exp))}).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, tt := range []struct {
		name      string
		assertion string
		want      int
	}{
		{"valid", assertion(key, "svc", as.URL(), time.Minute), http.StatusOK},
		{"token endpoint audience", assertion(key, "svc", as.URL()+"/token", time.Minute), http.StatusOK},
		{"other key", assertion(other, "svc", as.URL(), time.Minute), http.StatusUnauthorized},
		{"other audience", assertion(key, "svc", "https://elsewhere.example", time.Minute), http.StatusUnauthorized},
		{"expired", assertion(key, "svc", as.URL(), -time.Minute), http.StatusUnauthorized},
		{"unknown client", assertion(key, "nobody", as.URL(), time.Minute), http.StatusUnauthorized},
	} {
		form := url.Values{"grant_type": {"client_credentials"}, "resource": {resource},
			"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"}, "client_assertion": {tt.assertion}}
		if status, out := tokenRequest(t, as, form, "", ""); status != tt.want {
			t.Errorf("%s: %d %v, want %d", tt.name, status, out, tt.want)
		}
	}
}

// TestJWTBearer: with Options.Assertions the JWT bearer grant gives a
// token for the subject the assertion names, and a refused assertion is
// invalid_grant.
func TestJWTBearer(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{Assertions: func(a string) (string, error) {
		if a != "good-jwt" {
			return "", errors.New("unknown assertion")
		}
		return "workload-1", nil
	}})
	if _, err := as.Register(oauthtest.Client{ID: "wl", AuthMethod: "none", GrantTypes: []string{oauthtest.JWTBearerGrant}}); err != nil {
		t.Fatal(err)
	}
	form := url.Values{"grant_type": {oauthtest.JWTBearerGrant}, "client_id": {"wl"}, "assertion": {"good-jwt"}, "resource": {resource}}
	status, out := tokenRequest(t, as, form, "", "")
	if status != http.StatusOK {
		t.Fatalf("good assertion: %d %v", status, out)
	}
	if info := verify(t, as, out["access_token"].(string)); info.Subject != "workload-1" || info.ClientID != "wl" {
		t.Errorf("token info %+v: want subject workload-1, client wl", info)
	}
	form.Set("assertion", "bad-jwt")
	if status, out := tokenRequest(t, as, form, "", ""); status != http.StatusBadRequest || out["error"] != "invalid_grant" {
		t.Errorf("bad assertion: %d %v, want invalid_grant", status, out)
	}
	plain := oauthtest.NewServer(t, oauthtest.Options{})
	if _, err := plain.Register(oauthtest.Client{AuthMethod: "none", GrantTypes: []string{oauthtest.JWTBearerGrant}}); err == nil {
		t.Error("a server without Assertions registered a JWT bearer client")
	}
}
