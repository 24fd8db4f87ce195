package auth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// dpopClient is a client's DPoP key pair.
type dpopClient struct {
	t   *testing.T
	key *ecdsa.PrivateKey
	jkt string
	n   int
}

func newDPoPClient(t *testing.T) *dpopClient {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tp, err := (&jose.JSONWebKey{Key: key.Public()}).Thumbprint(crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	return &dpopClient{t: t, key: key, jkt: base64.RawURLEncoding.EncodeToString(tp)}
}

// proof returns a proof for method and url bound to token, with
// overrides applied to its claims (nil deletes) and typ in its header.
func (c *dpopClient) proof(method, url, token, typ string, overrides map[string]any) string {
	c.t.Helper()
	c.n++
	ath := sha256.Sum256([]byte(token))
	claims := map[string]any{"jti": fmt.Sprintf("p%d", c.n), "htm": method, "htu": url, "iat": time.Now().Unix(), "ath": base64.RawURLEncoding.EncodeToString(ath[:])}
	for k, v := range overrides {
		if v == nil {
			delete(claims, k)
		} else {
			claims[k] = v
		}
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: c.key}, (&jose.SignerOptions{EmbedJWK: true}).WithType(jose.ContentType(typ)))
	if err != nil {
		c.t.Fatal(err)
	}
	payload, _ := json.Marshal(claims)
	jws, err := signer.Sign(payload)
	if err != nil {
		c.t.Fatal(err)
	}
	s, _ := jws.CompactSerialize()
	return s
}

type dpopAnswer struct {
	status     int
	challenges string // WWW-Authenticate values joined by " | "
	nonce      bool   // a DPoP-Nonce header came
}

func dpopCall(t *testing.T, method, url string, header http.Header) (dpopAnswer, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	req.Header = header
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	nonce := resp.Header.Get("DPoP-Nonce")
	return dpopAnswer{resp.StatusCode, strings.Join(resp.Header.Values("WWW-Authenticate"), " | "), nonce != ""}, nonce
}

func dpopServer(t *testing.T, v TokenVerifier, opts *DPoPOptions, now func() time.Time) *httptest.Server {
	mw := RequireBearerToken(v, &BearerOptions{ResourceMetadataURL: testMetadata, DPoP: opts, now: now})
	srv := httptest.NewServer(mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, TokenInfoFrom(r.Context()).Subject)
	})))
	t.Cleanup(srv.Close)
	return srv
}

// TestDPoP runs DPoP-bound tokens end to end: valid proofs, every way a
// proof is refused, and the challenges.
func TestDPoP(t *testing.T) {
	is := newTestIssuer(t)
	is.addKey("k", "ES256")
	v, err := NewJWTVerifier(JWTOptions{Issuer: is.srv.URL, Audience: testResource, HTTPClient: is.srv.Client(), Algorithms: []string{"ES256"}})
	if err != nil {
		t.Fatal(err)
	}
	client := newDPoPClient(t)
	other := newDPoPClient(t)
	srv := dpopServer(t, v, &DPoPOptions{Algorithms: []string{"ES256"}}, nil)
	url := srv.URL + "/mcp"
	bound := is.sign("k", "at+jwt", is.claims(testResource, map[string]any{"cnf": map[string]any{"jkt": client.jkt}}))
	unbound := is.sign("k", "at+jwt", is.claims(testResource, nil))
	dpopHeader := func(scheme, token, proof string) http.Header {
		return http.Header{"Authorization": {scheme + " " + token}, "Dpop": {proof}}
	}
	replayed := client.proof("POST", url, bound, "dpop+jwt", nil)

	const md = `resource_metadata="` + testMetadata + `"`
	dpopAlgs := `DPoP ` + md + `, algs="ES256"`
	invalidProof := dpopAnswer{401, `DPoP error="invalid_dpop_proof", ` + md + `, algs="ES256"`, false}
	invalidDPoPToken := dpopAnswer{401, `DPoP error="invalid_token", ` + md + `, algs="ES256"`, false}
	ok := dpopAnswer{200, "", false}
	tests := []struct {
		name   string
		method string
		header http.Header
		want   dpopAnswer
	}{
		{"valid", "POST", dpopHeader("DPoP", bound, replayed), ok},
		{"lowercase scheme, GET", "GET", dpopHeader("dpop", bound, client.proof("GET", url, bound, "dpop+jwt", nil)), ok},
		{"htu with query and default port", "POST", dpopHeader("DPoP", bound, client.proof("POST", strings.Replace(url, "http://", "HTTP://", 1)+"?x=1", bound, "dpop+jwt", nil)), ok},
		{"plain bearer still accepted", "POST", bearerHeader(unbound), ok},
		{"replayed jti", "POST", dpopHeader("DPoP", bound, replayed), invalidProof},
		{"wrong htm", "POST", dpopHeader("DPoP", bound, client.proof("GET", url, bound, "dpop+jwt", nil)), invalidProof},
		{"wrong htu", "POST", dpopHeader("DPoP", bound, client.proof("POST", srv.URL+"/other", bound, "dpop+jwt", nil)), invalidProof},
		{"stale iat", "POST", dpopHeader("DPoP", bound, client.proof("POST", url, bound, "dpop+jwt", map[string]any{"iat": time.Now().Add(-10 * time.Minute).Unix()})), invalidProof},
		{"future iat", "POST", dpopHeader("DPoP", bound, client.proof("POST", url, bound, "dpop+jwt", map[string]any{"iat": time.Now().Add(5 * time.Minute).Unix()})), invalidProof},
		{"no iat", "POST", dpopHeader("DPoP", bound, client.proof("POST", url, bound, "dpop+jwt", map[string]any{"iat": nil})), invalidProof},
		{"no jti", "POST", dpopHeader("DPoP", bound, client.proof("POST", url, bound, "dpop+jwt", map[string]any{"jti": nil})), invalidProof},
		{"wrong ath", "POST", dpopHeader("DPoP", bound, client.proof("POST", url, unbound, "dpop+jwt", nil)), invalidProof},
		{"typ JWT", "POST", dpopHeader("DPoP", bound, client.proof("POST", url, bound, "JWT", nil)), invalidProof},
		{"no proof", "POST", http.Header{"Authorization": {"DPoP " + bound}}, invalidProof},
		{"garbage proof", "POST", dpopHeader("DPoP", bound, "a.b.c"), invalidProof},
		{"proof by another key", "POST", dpopHeader("DPoP", bound, other.proof("POST", url, bound, "dpop+jwt", nil)), invalidDPoPToken},
		{"unbound token with DPoP", "POST", dpopHeader("DPoP", unbound, client.proof("POST", url, unbound, "dpop+jwt", nil)), invalidDPoPToken},
		{"bound token as bearer", "POST", bearerHeader(bound), dpopAnswer{401, `Bearer error="invalid_token", ` + md + ` | ` + dpopAlgs, false}},
		{"no credentials", "POST", http.Header{}, dpopAnswer{401, `Bearer ` + md + ` | ` + dpopAlgs, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := dpopCall(t, tt.method, url, tt.header); got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}

	// Required: bearer is no longer offered nor accepted.
	req := dpopServer(t, v, &DPoPOptions{Required: true, Algorithms: []string{"ES256"}}, nil)
	if got, _ := dpopCall(t, "POST", req.URL, bearerHeader(unbound)); got != (dpopAnswer{401, dpopAlgs, false}) {
		t.Errorf("bearer with DPoP required: %+v", got)
	}
}

// TestDPoPNonce: with RequireNonce, a proof without a nonce gets
// use_dpop_nonce and a nonce; the retry with it passes and gets a fresh
// one; a forged or expired nonce is refused again.
func TestDPoPNonce(t *testing.T) {
	is := newTestIssuer(t)
	is.addKey("k", "ES256")
	clock := &fakeClock{t: time.Now()}
	v, err := NewJWTVerifier(JWTOptions{Issuer: is.srv.URL, Audience: testResource, HTTPClient: is.srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	client := newDPoPClient(t)
	srv := dpopServer(t, v, &DPoPOptions{RequireNonce: true, NonceLifetime: time.Minute, MaxAge: time.Hour, Algorithms: []string{"ES256"}}, clock.now)
	url := srv.URL + "/"
	token := is.sign("k", "at+jwt", is.claims(testResource, map[string]any{"cnf": map[string]any{"jkt": client.jkt}, "exp": time.Now().Add(24 * time.Hour).Unix()}))
	send := func(nonce string) (dpopAnswer, string) {
		overrides := map[string]any{"iat": clock.now().Unix()}
		if nonce != "" {
			overrides["nonce"] = nonce
		}
		return dpopCall(t, "POST", url, http.Header{"Authorization": {"DPoP " + token}, "Dpop": {client.proof("POST", url, token, "dpop+jwt", overrides)}})
	}
	useNonce := dpopAnswer{401, `DPoP error="use_dpop_nonce", resource_metadata="` + testMetadata + `", algs="ES256"`, true}
	got, nonce := send("")
	if got != useNonce {
		t.Fatalf("no nonce: %+v", got)
	}
	got, nonce2 := send(nonce)
	if got != (dpopAnswer{200, "", true}) {
		t.Fatalf("with the nonce: %+v", got)
	}
	if got, _ := send("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"); got != useNonce {
		t.Errorf("forged nonce: %+v", got)
	}
	clock.advance(2 * time.Minute)
	if got, _ := send(nonce2); got != useNonce {
		t.Errorf("expired nonce: %+v", got)
	}
}

// FuzzParseDPoPProof: the proof parser never panics, and what it accepts
// has a key thumbprint.
func FuzzParseDPoPProof(f *testing.F) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	signer, _ := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, (&jose.SignerOptions{EmbedJWK: true}).WithType("dpop+jwt"))
	jws, _ := signer.Sign([]byte(`{"jti":"1","htm":"POST","htu":"https://x/mcp","iat":1}`))
	valid, _ := jws.CompactSerialize()
	for _, s := range []string{valid, "a.b.c", "", "..", valid + "x", b64(`{"alg":"none","typ":"dpop+jwt"}`) + "." + b64(`{}`) + "."} {
		f.Add(s)
	}
	algs := []jose.SignatureAlgorithm{jose.ES256, jose.RS256, jose.EdDSA}
	f.Fuzz(func(t *testing.T, proof string) {
		p, err := parseDPoPProof(proof, algs)
		if err == nil && p.jkt == "" {
			t.Fatalf("%q: accepted without a key thumbprint", proof)
		}
	})
}

func TestDPoPOptionsAlgorithms(t *testing.T) {
	v := VerifierFunc(func(context.Context, string, *http.Request) (*TokenInfo, error) { return nil, ErrInvalidToken })
	defer func() {
		if recover() == nil {
			t.Error("RequireBearerToken accepted HS256 for DPoP proofs")
		}
	}()
	RequireBearerToken(v, &BearerOptions{ResourceMetadataURL: testMetadata, DPoP: &DPoPOptions{Algorithms: []string{"HS256"}}})
}

// TestDPoPReplayCacheNotFilledByStrangers (issue 29 item 1): proofs that
// come with a token that does not verify are not remembered, so a stranger
// with a key of their own and a garbage token cannot push a captured proof
// out of the replay cache; its replay stays refused.
func TestDPoPReplayCacheNotFilledByStrangers(t *testing.T) {
	is := newTestIssuer(t)
	is.addKey("k", "ES256")
	v, err := NewJWTVerifier(JWTOptions{Issuer: is.srv.URL, Audience: testResource, HTTPClient: is.srv.Client(), Algorithms: []string{"ES256"}})
	if err != nil {
		t.Fatal(err)
	}
	const limit = 20
	srv := dpopServer(t, v, &DPoPOptions{Algorithms: []string{"ES256"}, MaxReplayEntries: limit}, nil)
	url := srv.URL + "/mcp"
	client, stranger := newDPoPClient(t), newDPoPClient(t)
	token := is.sign("k", "at+jwt", is.claims(testResource, map[string]any{"cnf": map[string]any{"jkt": client.jkt}}))
	captured := client.proof("POST", url, token, "dpop+jwt", nil)
	send := func(token, proof string) int {
		t.Helper()
		got, _ := dpopCall(t, "POST", url, http.Header{"Authorization": {"DPoP " + token}, "Dpop": {proof}})
		return got.status
	}
	if got := send(token, captured); got != 200 {
		t.Fatalf("first use of the proof: %d, want 200", got)
	}
	if got := send(token, captured); got != 401 {
		t.Fatalf("replay: %d, want 401", got)
	}
	// 25 times the cache's size in stranger requests: each a fresh, validly
	// signed proof for a token that does not verify.
	garbage := b64(`{"alg":"ES256","kid":"k"}`) + "." + b64(`{"sub":"x"}`) + "." + b64("sig")
	for range 25 * limit {
		if got := send(garbage, stranger.proof("POST", url, garbage, "dpop+jwt", nil)); got != 401 {
			t.Fatalf("garbage token: %d, want 401", got)
		}
	}
	if got := send(token, captured); got != 401 {
		t.Fatalf("replay after %d stranger requests: %d, want 401", 25*limit, got)
	}
}

// TestDPoPReplayCacheFullOfLive (issue 29 item 1): when every remembered
// proof is still within its acceptance window, a new proof is refused
// with 503 and a Retry-After rather than a live one forgotten; once the
// oldest expires, proofs pass again, and a replay is refused throughout.
func TestDPoPReplayCacheFullOfLive(t *testing.T) {
	is := newTestIssuer(t)
	is.addKey("k", "ES256")
	clock := &fakeClock{t: time.Now()}
	v, err := NewJWTVerifier(JWTOptions{Issuer: is.srv.URL, Audience: testResource, HTTPClient: is.srv.Client(), Algorithms: []string{"ES256"}})
	if err != nil {
		t.Fatal(err)
	}
	srv := dpopServer(t, v, &DPoPOptions{Algorithms: []string{"ES256"}, MaxReplayEntries: 3, MaxAge: time.Minute}, clock.now)
	url := srv.URL + "/mcp"
	client := newDPoPClient(t)
	token := is.sign("k", "at+jwt", is.claims(testResource, map[string]any{"cnf": map[string]any{"jkt": client.jkt}, "exp": time.Now().Add(24 * time.Hour).Unix()}))
	proof := func() string {
		return client.proof("POST", url, token, "dpop+jwt", map[string]any{"iat": clock.now().Unix()})
	}
	send := func(proof string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("POST", url, nil)
		req.Header = http.Header{"Authorization": {"DPoP " + token}, "Dpop": {proof}}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	first := proof()
	for i, p := range []string{first, proof(), proof()} {
		if got := send(p).StatusCode; got != 200 {
			t.Fatalf("proof %d: %d, want 200", i, got)
		}
	}
	resp := send(proof())
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a fourth live proof: %d Retry-After %q, want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if got := send(first).StatusCode; got != 401 {
		t.Fatalf("replay while full: %d, want 401", got)
	}
	clock.advance(time.Minute + DefaultClockSkew + 2*time.Second) // past the first proofs' window
	if got := send(proof()).StatusCode; got != 200 {
		t.Fatalf("after the window: %d, want 200", got)
	}
}

// BenchmarkReplayCacheFull: remembering a proof in a full cache of the
// default size, where each new proof finds the oldest expired (the steady
// state of a busy server): O(log n), not a scan.
func BenchmarkReplayCacheFull(b *testing.B) {
	const limit = 100000
	c := replayCache{limit: limit}
	now := time.Unix(1e9, 0)
	var d [sha256.Size]byte
	next := func(i int) [sha256.Size]byte {
		binary.BigEndian.PutUint64(d[:], uint64(i))
		return d
	}
	for i := range limit {
		if _, err := c.add(next(i), now.Add(time.Duration(i)*time.Millisecond), now); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		now = now.Add(time.Millisecond)
		// Live through its until: one entry expires per step.
		if _, err := c.add(next(limit+i), now.Add((limit-1)*time.Millisecond), now); err != nil {
			b.Fatal(err)
		}
	}
}
