package auth

import (
	"context"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
)

const (
	testResource = "http://127.0.0.1/mcp"
	testMetadata = "http://127.0.0.1/.well-known/oauth-protected-resource/mcp"
)

// protectedServer serves /mcp behind RequireBearerToken with v, requiring
// scopes; the handler echoes the token's subject and scopes.
func protectedServer(t *testing.T, v TokenVerifier, scopes ...string) *httptest.Server {
	t.Helper()
	mw := RequireBearerToken(v, &BearerOptions{ResourceMetadataURL: testMetadata, Scopes: scopes})
	srv := httptest.NewServer(mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := TokenInfoFrom(r.Context())
		fmt.Fprintf(w, "%s %s %s", info.Subject, info.ClientID, strings.Join(info.Scopes, ","))
	})))
	t.Cleanup(srv.Close)
	return srv
}

type answer struct {
	status    int
	challenge string
	body      string
}

func call(t *testing.T, url string, header http.Header) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header.Get("WWW-Authenticate"), string(body)}
}

func bearerHeader(token string) http.Header {
	return http.Header{"Authorization": {"Bearer " + token}}
}

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// TestRequireBearerTokenJWT runs every refusal of the middleware and the
// JWT verifier end to end against an issuer on 127.0.0.1, checking the
// exact status and WWW-Authenticate header.
func TestRequireBearerTokenJWT(t *testing.T) {
	is := newTestIssuer(t)
	is.addKey("rsa1", "RS256")
	is.addKey("ec1", "ES256")
	v, err := NewJWTVerifier(JWTOptions{Issuer: is.srv.URL, Audience: testResource, HTTPClient: is.srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	srv := protectedServer(t, v, "files:read")
	claims := func(overrides map[string]any) map[string]any { return is.claims(testResource, overrides) }
	valid := is.sign("rsa1", "at+jwt", claims(nil))

	// alg confusion: HS256 keyed with the RSA public key's PEM.
	is.mu.Lock()
	priv := is.private["rsa1"]
	pub := priv.Public().Key
	is.mu.Unlock()
	der, _ := x509.MarshalPKIXPublicKey(pub)
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	hs, _ := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: pemKey}, (&jose.SignerOptions{}).WithHeader("kid", "rsa1").WithType("at+jwt"))
	hsJWS, _ := hs.Sign([]byte(fmt.Sprintf(`{"iss":%q,"aud":%q,"sub":"mallory","exp":%d}`, is.srv.URL, testResource, time.Now().Add(time.Hour).Unix())))
	hsToken, _ := hsJWS.CompactSerialize()
	noneToken := b64(`{"alg":"none","typ":"at+jwt"}`) + "." + b64(fmt.Sprintf(`{"iss":%q,"aud":%q,"sub":"mallory","exp":%d}`, is.srv.URL, testResource, time.Now().Add(time.Hour).Unix())) + "."

	noCreds := answer{401, `Bearer scope="files:read", resource_metadata="` + testMetadata + `"`, ""}
	invalid := answer{401, `Bearer error="invalid_token", scope="files:read", resource_metadata="` + testMetadata + `"`, ""}
	badRequest := answer{400, `Bearer error="invalid_request", resource_metadata="` + testMetadata + `"`, ""}
	ok := answer{200, "", "alice app files:read,files:write"}
	tests := []struct {
		name   string
		header http.Header
		query  string
		want   answer
	}{
		{"valid", bearerHeader(valid), "", ok},
		{"lowercase scheme, extra spaces", http.Header{"Authorization": {"bearer   " + valid}}, "", ok},
		{"uppercase scheme", http.Header{"Authorization": {"BEARER " + valid}}, "", ok},
		{"EC key, typ JWT", bearerHeader(is.sign("ec1", "JWT", claims(nil))), "", ok},
		{"no typ, azp", bearerHeader(is.sign("ec1", "", claims(map[string]any{"client_id": nil, "azp": "app"}))), "", ok},
		{"scp array", bearerHeader(is.sign("ec1", "", claims(map[string]any{"scope": nil, "scp": []string{"files:read", "files:write"}}))), "", ok},
		{"no header", http.Header{}, "", noCreds},
		{"basic scheme", http.Header{"Authorization": {"Basic YWxpY2U6cHc="}}, "", noCreds},
		{"scheme only", http.Header{"Authorization": {"Bearer"}}, "", invalid},
		{"bad token chars", http.Header{"Authorization": {"Bearer a b"}}, "", invalid},
		{"garbage token", bearerHeader("not.a.jwt"), "", invalid},
		{"two headers", http.Header{"Authorization": {"Bearer " + valid, "Bearer " + valid}}, "", badRequest},
		{"token in query", http.Header{}, "?access_token=" + valid, answer{400, `Bearer error="invalid_request", error_description="access tokens are not accepted in the query string", resource_metadata="` + testMetadata + `"`, ""}},
		{"token in query and header", bearerHeader(valid), "?x=1&access_token=" + valid, answer{400, `Bearer error="invalid_request", error_description="access tokens are not accepted in the query string", resource_metadata="` + testMetadata + `"`, ""}},
		{"wrong audience", bearerHeader(is.sign("rsa1", "at+jwt", claims(map[string]any{"aud": "http://127.0.0.1/other"}))), "", invalid},
		{"audience list with ours", bearerHeader(is.sign("rsa1", "at+jwt", claims(map[string]any{"aud": []string{"x", testResource}}))), "", ok},
		{"wrong issuer", bearerHeader(is.sign("rsa1", "at+jwt", claims(map[string]any{"iss": "https://evil.example"}))), "", invalid},
		{"expired", bearerHeader(is.sign("rsa1", "at+jwt", claims(map[string]any{"exp": time.Now().Add(-2 * time.Minute).Unix()}))), "", invalid},
		{"expired within skew", bearerHeader(is.sign("rsa1", "at+jwt", claims(map[string]any{"exp": time.Now().Add(-20 * time.Second).Unix()}))), "", ok},
		{"no exp", bearerHeader(is.sign("rsa1", "at+jwt", claims(map[string]any{"exp": nil}))), "", invalid},
		{"not yet valid", bearerHeader(is.sign("rsa1", "at+jwt", claims(map[string]any{"nbf": time.Now().Add(5 * time.Minute).Unix()}))), "", invalid},
		{"unknown kid", bearerHeader(resign(t, is, "rsa1", "nope", claims(nil))), "", invalid},
		{"alg none", bearerHeader(noneToken), "", invalid},
		{"HS256 keyed with public key", bearerHeader(hsToken), "", invalid},
		{"ID token type", bearerHeader(is.sign("rsa1", "id+jwt", claims(nil))), "", invalid},
		{"tampered payload", bearerHeader(tamper(valid)), "", invalid},
		{"DPoP-bound token as bearer", bearerHeader(is.sign("rsa1", "at+jwt", claims(map[string]any{"cnf": map[string]any{"jkt": "abc"}}))), "", invalid},
		{"insufficient scope", bearerHeader(is.sign("rsa1", "at+jwt", claims(map[string]any{"scope": "files:write"}))), "", answer{403, `Bearer error="insufficient_scope", scope="files:read", resource_metadata="` + testMetadata + `"`, ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := call(t, srv.URL+tt.query, tt.header)
			if tt.want.body == "" {
				got.body = ""
			}
			if got != tt.want {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// resign signs claims with key kid but names kid as the key in the header.
func resign(t *testing.T, is *testIssuer, kid, named string, claims map[string]any) string {
	is.mu.Lock()
	k := is.private[kid]
	is.private[named] = k
	is.mu.Unlock()
	defer func() {
		is.mu.Lock()
		delete(is.private, named)
		is.mu.Unlock()
	}()
	return is.sign(named, "at+jwt", claims)
}

// tamper changes the subject in a token's payload, keeping its signature.
func tamper(token string) string {
	parts := strings.Split(token, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	parts[1] = base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(payload), `"alice"`, `"admin"`, 1)))
	return strings.Join(parts, ".")
}

// TestRequireBearerTokenUnavailable: when the issuer cannot be reached the
// answer is 503 without a challenge, not 401 (the token may be fine).
func TestRequireBearerTokenUnavailable(t *testing.T) {
	is := newTestIssuer(t)
	is.addKey("k", "ES256")
	is.down.Store(true)
	v, err := NewJWTVerifier(JWTOptions{Issuer: is.srv.URL, Audience: testResource, HTTPClient: is.srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	srv := protectedServer(t, v)
	got := call(t, srv.URL, bearerHeader(is.sign("k", "at+jwt", is.claims(testResource, nil))))
	if got.status != http.StatusServiceUnavailable || got.challenge != "" {
		t.Errorf("got %+v, want 503 without a challenge", got)
	}
}

// TestVerifierFunc: a custom verifier's errors map to the same answers.
func TestVerifierFunc(t *testing.T) {
	v := VerifierFunc(func(_ context.Context, token string, _ *http.Request) (*TokenInfo, error) {
		switch token {
		case "good":
			return &TokenInfo{Subject: "bob", Scopes: []string{"a"}, Expiry: time.Now().Add(time.Hour)}, nil
		case "old":
			return &TokenInfo{Subject: "bob", Expiry: time.Now().Add(-time.Hour)}, nil
		case "weak":
			return nil, fmt.Errorf("custom: %w", ErrInsufficientScope)
		}
		return nil, fmt.Errorf("custom: unknown key")
	})
	srv := protectedServer(t, v)
	for token, want := range map[string]answer{
		"good": {200, "", "bob  a"},
		"old":  {401, `Bearer error="invalid_token", resource_metadata="` + testMetadata + `"`, ""},
		"weak": {403, `Bearer error="insufficient_scope", resource_metadata="` + testMetadata + `"`, ""},
		"bad":  {401, `Bearer error="invalid_token", resource_metadata="` + testMetadata + `"`, ""},
	} {
		got := call(t, srv.URL, bearerHeader(token))
		if want.body == "" {
			got.body = ""
		}
		if got != want {
			t.Errorf("%s: got %+v, want %+v", token, got, want)
		}
	}
}

func TestInsufficientScopeChallenge(t *testing.T) {
	got := InsufficientScopeChallenge("https://mcp.example.com/.well-known/oauth-protected-resource/mcp", "files:write", "admin")
	want := `Bearer error="insufficient_scope", scope="files:write admin", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	w := httptest.NewRecorder()
	WriteInsufficientScope(w, "https://m/x", "a")
	if w.Code != 403 || w.Header().Get("WWW-Authenticate") != `Bearer error="insufficient_scope", scope="a", resource_metadata="https://m/x"` {
		t.Errorf("WriteInsufficientScope: %d %q", w.Code, w.Header().Get("WWW-Authenticate"))
	}
}

// TestPreflightPassesThrough: a CORS preflight reaches the handler
// without a token; a plain OPTIONS does not.
func TestPreflightPassesThrough(t *testing.T) {
	mw := RequireBearerToken(VerifierFunc(func(context.Context, string, *http.Request) (*TokenInfo, error) {
		return nil, ErrInvalidToken
	}), &BearerOptions{ResourceMetadataURL: testMetadata})
	h := mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	r := httptest.NewRequest(http.MethodOptions, "/mcp", nil)
	r.Header.Set("Origin", "https://app.example")
	r.Header.Set("Access-Control-Request-Method", "POST")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusNoContent {
		t.Errorf("preflight: %d", w.Code)
	}
	r = httptest.NewRequest(http.MethodOptions, "/mcp", nil)
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusUnauthorized {
		t.Errorf("plain OPTIONS: %d", w.Code)
	}
}
