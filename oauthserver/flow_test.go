package oauthserver

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/fastmcp-go/fastmcp/auth"
)

// TestMetadata: the RFC 8414 document names every endpoint under the
// issuer and what MCP clients look for.
func TestMetadata(t *testing.T) {
	as := startAS(t, Config{Scopes: []string{"mcp"}})
	resp, err := http.Get(as.URL + "/.well-known/oauth-authorization-server")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"issuer": as.URL, "authorization_endpoint": as.URL + "/authorize", "token_endpoint": as.URL + "/token",
		"registration_endpoint": as.URL + "/register", "jwks_uri": as.URL + "/jwks.json",
		"authorization_response_iss_parameter_supported": true,
		"client_id_metadata_document_supported":          true,
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %v, want %v", k, m[k], v)
		}
	}
	if got, _ := json.Marshal(m["code_challenge_methods_supported"]); string(got) != `["S256"]` {
		t.Errorf("code_challenge_methods_supported = %s", got)
	}
}

// TestCodeFlow: the browser flow gives a code with state and iss; the
// code gives a JWT access token for the resource that auth.JWT accepts,
// and a refresh token that rotates.
func TestCodeFlow(t *testing.T) {
	as := startAS(t, Config{Clients: testClients, Scopes: []string{"mcp", "files:read"}})
	p := newPKCE()
	q := as.authorize(t, newBrowser("alice"), as.authURL(publicID, p, url.Values{"scope": {"mcp files:read"}}))
	if q.Get("state") != "state-1234567" || q.Get("iss") != as.URL || q.Get("code") == "" {
		t.Fatalf("callback query %v: want code, state and iss", q)
	}
	tr := as.redeem(t, publicID, q.Get("code"), p)
	if tr.Status != http.StatusOK || tr.TokenType != "Bearer" || tr.RefreshToken == "" {
		t.Fatalf("token response %+v", tr)
	}
	v, err := auth.NewJWTVerifier(auth.JWTOptions{Issuer: as.URL, Audience: testResource, RequireJWTAccessTokenType: true})
	if err != nil {
		t.Fatal(err)
	}
	info, err := v.Verify(context.Background(), tr.AccessToken, nil)
	if err != nil {
		t.Fatalf("auth.JWT refuses the token: %v", err)
	}
	if info.Subject != "alice" || info.ClientID != publicID || len(info.Scopes) != 2 {
		t.Errorf("token info %+v", info)
	}
	if !as.active(t, tr.AccessToken) {
		t.Error("introspection: the access token is not active")
	}
	tr2 := as.refresh(t, publicID, tr.RefreshToken)
	if tr2.Status != http.StatusOK || tr2.RefreshToken == "" || tr2.RefreshToken == tr.RefreshToken {
		t.Fatalf("refresh: %+v", tr2)
	}
	if _, err := v.Verify(context.Background(), tr2.AccessToken, nil); err != nil {
		t.Errorf("the refreshed token: %v", err)
	}
	status, _ := as.post(t, "/revoke", url.Values{"token": {tr2.RefreshToken}, "client_id": {publicID}}, "", "")
	if status != http.StatusOK {
		t.Errorf("revocation: %d", status)
	}
	if r := as.refresh(t, publicID, tr2.RefreshToken); r.Error != "invalid_grant" {
		t.Errorf("refresh after revocation: %+v, want invalid_grant", r)
	}
	if as.active(t, tr2.AccessToken) {
		t.Error("introspection: the access token of a revoked grant is active")
	}
}
