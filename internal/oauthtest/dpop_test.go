package oauthtest_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"golang.org/x/oauth2"

	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
)

// proof returns a DPoP proof (RFC 9449 §4.2) by key for a POST to htu.
func proof(t *testing.T, key *ecdsa.PrivateKey, htu, nonce string) string {
	return proofFor(t, key, htu, nonce, "")
}

// proofFor is proof for a request that carries accessToken (its ath).
func proofFor(t *testing.T, key *ecdsa.PrivateKey, htu, nonce, accessToken string) string {
	t.Helper()
	opts := (&jose.SignerOptions{EmbedJWK: true}).WithType("dpop+jwt")
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	c := map[string]any{"htm": "POST", "htu": htu, "jti": base64.RawURLEncoding.EncodeToString([]byte(time.Now().String())), "iat": time.Now().Unix()}
	if nonce != "" {
		c["nonce"] = nonce
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		c["ath"] = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	payload, _ := json.Marshal(c)
	jws, err := signer.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	s, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestDPoP: with Options.DPoP a token request with a proof gets a token
// bound to the proof's key; a bad proof, or one without the nonce, is
// refused; a request without a proof gets a Bearer token.
func TestDPoP(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	thumb, _ := (&jose.JSONWebKey{Key: key.Public()}).Thumbprint(crypto.SHA256)
	as := oauthtest.NewServer(t, oauthtest.Options{DPoP: true, DPoPNonce: "n0nce"})
	conf := config(t, as, "none")
	// redeem asks for a code and sends the token request with the DPoP
	// header dpop (none when empty); it returns the status, the answer and
	// the DPoP-Nonce header.
	redeem := func(dpop string) (int, map[string]any, string) {
		v := oauth2.GenerateVerifier()
		back := authorize(t, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v), oauth2.SetAuthURLParam("resource", resource)))
		form := url.Values{"grant_type": {"authorization_code"}, "code": {back.Get("code")}, "code_verifier": {v},
			"client_id": {conf.ClientID}, "redirect_uri": {conf.RedirectURL}}
		req, _ := http.NewRequest(http.MethodPost, as.URL()+"/token", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if dpop != "" {
			req.Header.Set("DPoP", dpop)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out map[string]any
		json.NewDecoder(res.Body).Decode(&out)
		return res.StatusCode, out, res.Header.Get("DPoP-Nonce")
	}

	status, out, nonce := redeem(proof(t, key, as.URL()+"/token", ""))
	if status != http.StatusBadRequest || out["error"] != "use_dpop_nonce" || nonce != "n0nce" {
		t.Fatalf("proof without the nonce: %d %v, DPoP-Nonce %q", status, out, nonce)
	}
	if status, out, _ := redeem(proof(t, key, as.URL()+"/other", "n0nce")); status != http.StatusBadRequest || out["error"] != "invalid_dpop_proof" {
		t.Fatalf("proof for another URL: %d %v, want invalid_dpop_proof", status, out)
	}
	status, out, _ = redeem(proof(t, key, as.URL()+"/token", "n0nce"))
	if status != http.StatusOK || out["token_type"] != "DPoP" {
		t.Fatalf("good proof: %d %v, want a DPoP token", status, out)
	}
	claims, err := as.Check(out["access_token"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if cnf, _ := claims["cnf"].(map[string]any); cnf["jkt"] != base64.RawURLEncoding.EncodeToString(thumb) {
		t.Errorf("cnf %v, want the proof key's thumbprint", claims["cnf"])
	}
	if status, out, _ := redeem(""); status != http.StatusOK || out["token_type"] != "Bearer" {
		t.Fatalf("no proof: %d %v, want a Bearer token", status, out)
	}

	// A resource server's check: the proof's ath must be the token's.
	const rs = "http://127.0.0.1:9/mcp"
	if _, jkt, err := oauthtest.CheckDPoPProof(proofFor(t, key, rs, "", "tok"), "POST", rs, "tok"); err != nil || jkt != base64.RawURLEncoding.EncodeToString(thumb) {
		t.Errorf("proof with ath: jkt %q, %v", jkt, err)
	}
	if _, _, err := oauthtest.CheckDPoPProof(proofFor(t, key, rs, "", "other"), "POST", rs, "tok"); err == nil {
		t.Error("a proof for another token passed")
	}
}
