package oauthserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// proofKey signs DPoP proofs.
type proofKey struct{ signer jose.Signer }

func newProofKey(t *testing.T) proofKey {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	opts := (&jose.SignerOptions{EmbedJWK: true}).WithType("dpop+jwt")
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: priv}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return proofKey{s}
}

// proof is a proof for a POST to htu, made at iat.
func (k proofKey) proof(t *testing.T, htu string, iat time.Time) string {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"jti": randomString(12), "htm": "POST", "htu": htu, "iat": iat.Unix()})
	jws, err := k.signer.Sign(b)
	if err != nil {
		t.Fatal(err)
	}
	s, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tokenWith posts a token request with a DPoP proof.
func (as *testAS) tokenWith(t *testing.T, form url.Values, proof string) tokenResponse {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, as.URL+"/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if proof != "" {
		req.Header.Set("DPoP", proof)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var tr tokenResponse
	if err := json.NewDecoder(resp.Body).Decode(&tr); err != nil {
		t.Fatal(err)
	}
	tr.Status = resp.StatusCode
	return tr
}

// TestDPoP: a token request with a proof gets a DPoP token bound to its
// key (cnf.jkt), whose refresh needs a proof of the same key; bad and
// replayed proofs are refused.
func TestDPoP(t *testing.T) {
	as := startAS(t, Config{Clients: testClients})
	htu := as.URL + "/token"
	key := newProofKey(t)
	p := newPKCE()
	code := url.Values{
		"grant_type": {"authorization_code"}, "client_id": {publicID}, "code": {as.code(t, publicID, p)},
		"redirect_uri": {callbackURI}, "code_verifier": {p.verifier},
	}
	tr := as.tokenWith(t, code, key.proof(t, htu, time.Now()))
	if tr.Status != 200 || tr.TokenType != "DPoP" {
		t.Fatalf("token with a proof: %+v", tr)
	}
	var claims struct {
		Cnf struct{ Jkt string } `json:"cnf"`
	}
	if err := decodeSegment(strings.Split(tr.AccessToken, ".")[1], &claims); err != nil || claims.Cnf.Jkt == "" {
		t.Errorf("the access token has no cnf.jkt: %v", err)
	}
	refresh := url.Values{"grant_type": {"refresh_token"}, "client_id": {publicID}, "refresh_token": {tr.RefreshToken}}
	for name, proof := range map[string]string{
		"no proof":           "",
		"another key":        newProofKey(t).proof(t, htu, time.Now()),
		"another URL":        key.proof(t, as.URL+"/other", time.Now()),
		"an old proof":       key.proof(t, htu, time.Now().Add(-time.Hour)),
		"not a JWS":          "garbage",
		"a proof from later": key.proof(t, htu, time.Now().Add(time.Hour)),
	} {
		if r := as.tokenWith(t, refresh, proof); r.Status == 200 {
			t.Errorf("refresh with %s: %+v, want refused", name, r)
		}
	}
	replayed := key.proof(t, htu, time.Now())
	if r := as.tokenWith(t, refresh, replayed); r.Status != 200 || r.TokenType != "DPoP" {
		t.Fatalf("refresh with the key's proof: %+v", r)
	} else {
		refresh.Set("refresh_token", r.RefreshToken)
	}
	if r := as.tokenWith(t, refresh, replayed); r.Error != "invalid_dpop_proof" {
		t.Errorf("a replayed proof: %+v, want invalid_dpop_proof", r)
	}
}
