package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
)

// Protection is what fastmcp.Auth takes.
var _ fastmcp.HTTPAuth = (*auth.Protection)(nil)

// TestPrincipalBindsSessions: with the transport's principal taken from
// the verified token (PrincipalFromRequest), a session opened with
// alice's token answers alice's next token (refreshed) but is 404 with
// bob's, as issue 10's session binding does for other callers.
func TestPrincipalBindsSessions(t *testing.T) {
	users := map[string]*auth.TokenInfo{
		"alice-1": {Issuer: "https://idp", Subject: "alice", ClientID: "app"},
		"alice-2": {Issuer: "https://idp", Subject: "alice", ClientID: "app"},
		"bob":     {Issuer: "https://idp", Subject: "bob", ClientID: "app"},
	}
	v := auth.VerifierFunc(func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if info, ok := users[token]; ok {
			return info, nil
		}
		return nil, errors.New("unknown token")
	})
	s := fastmcp.New("p", "1", fastmcp.HTTPPrincipal(auth.PrincipalFromRequest))
	mw := auth.RequireBearerToken(v, &auth.BearerOptions{ResourceMetadataURL: "http://127.0.0.1/.well-known/oauth-protected-resource/mcp"})
	srv := httptest.NewServer(mw(s))
	defer srv.Close()
	defer s.Shutdown(context.Background())

	post := func(token, session, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, resp.Header.Get("Mcp-Session-Id")
	}
	status, session := post("alice-1", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	if status != 200 || session == "" {
		t.Fatalf("initialize: %d, session %q", status, session)
	}
	const ping = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	if status, _ := post("alice-2", session, ping); status != 200 {
		t.Errorf("alice with a refreshed token: %d, want 200", status)
	}
	if status, _ := post("bob", session, ping); status != 404 {
		t.Errorf("bob on alice's session: %d, want 404", status)
	}
}

// TestNoSubject (issue 29 item 8): an access token without "sub" — a JWT
// (RFC 9068 §2.2 requires it) or an introspection answer — is refused
// with 401 and an error_description saying why; with AllowMissingSubject
// it is accepted and stands for its client (one principal per client),
// and one naming no client either is still refused.
func TestNoSubject(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	const resource = "http://127.0.0.1/mcp"
	const metadata = "http://127.0.0.1/.well-known/oauth-protected-resource/mcp"
	token := func(claims map[string]any) string {
		return as.MustToken(t, oauthtest.TokenRequest{ClientID: "batch", Audience: []string{resource}, Claims: claims})
	}
	noSub := token(map[string]any{"sub": nil})
	noSubNoClient := token(map[string]any{"sub": nil, "client_id": nil})
	withSub := token(nil)

	serve := func(v auth.TokenVerifier) string {
		mw := auth.RequireBearerToken(v, &auth.BearerOptions{ResourceMetadataURL: metadata})
		srv := httptest.NewServer(mw(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			info := auth.TokenInfoFrom(r.Context())
			io.WriteString(w, info.Subject+"|"+info.ClientID+"|"+info.Principal())
		})))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	get := func(url, token string) (int, string, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("WWW-Authenticate"), string(body)
	}
	clientPrincipal := (&auth.TokenInfo{Issuer: as.URL(), ClientID: "batch"}).Principal()
	noSubject := `Bearer error="invalid_token", error_description="the access token has no subject (sub)", resource_metadata="` + metadata + `"`

	strict, err := auth.NewJWTVerifier(auth.JWTOptions{Issuer: as.URL(), Audience: resource})
	if err != nil {
		t.Fatal(err)
	}
	lax, err := auth.NewJWTVerifier(auth.JWTOptions{Issuer: as.URL(), Audience: resource, AllowMissingSubject: true})
	if err != nil {
		t.Fatal(err)
	}
	// Introspection of the same tokens, answered as their claims say.
	answers := map[string]map[string]any{
		noSub:         {"active": true, "aud": resource, "iss": as.URL(), "client_id": "batch"},
		noSubNoClient: {"active": true, "aud": resource, "iss": as.URL()},
		withSub:       {"active": true, "aud": resource, "iss": as.URL(), "client_id": "batch", "sub": oauthtest.DefaultSubject},
	}
	introspect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answer, ok := answers[r.PostFormValue("token")]
		if !ok {
			answer = map[string]any{"active": false}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(answer)
	}))
	t.Cleanup(introspect.Close)
	strictIntro, err := auth.NewIntrospectionVerifier(auth.IntrospectionOptions{Endpoint: introspect.URL, Audience: resource})
	if err != nil {
		t.Fatal(err)
	}
	laxIntro, err := auth.NewIntrospectionVerifier(auth.IntrospectionOptions{Endpoint: introspect.URL, Audience: resource, AllowMissingSubject: true})
	if err != nil {
		t.Fatal(err)
	}

	for _, tt := range []struct {
		name   string
		strict auth.TokenVerifier
		lax    auth.TokenVerifier
	}{
		{"JWT", strict, lax},
		{"introspection", strictIntro, laxIntro},
	} {
		t.Run(tt.name, func(t *testing.T) {
			strictURL, laxURL := serve(tt.strict), serve(tt.lax)
			if status, challenge, _ := get(strictURL, noSub); status != 401 || challenge != noSubject {
				t.Errorf("no sub: %d %s\nwant 401 %s", status, challenge, noSubject)
			}
			if status, _, body := get(strictURL, withSub); status != 200 || body != oauthtest.DefaultSubject+"|batch|"+(&auth.TokenInfo{Issuer: as.URL(), Subject: oauthtest.DefaultSubject, ClientID: "batch"}).Principal() {
				t.Errorf("with sub: %d %q", status, body)
			}
			if status, _, body := get(laxURL, noSub); status != 200 || body != "|batch|"+clientPrincipal {
				t.Errorf("no sub, allowed: %d %q, want the client's principal %s", status, body, clientPrincipal)
			}
			if status, challenge, _ := get(laxURL, noSubNoClient); status != 401 || challenge != noSubject {
				t.Errorf("no sub nor client, allowed: %d %s\nwant 401 %s", status, challenge, noSubject)
			}
		})
	}
}
