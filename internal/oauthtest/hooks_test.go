package oauthtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
)

// flow registers a client, authorizes it for scopes and redeems the
// code; it returns the client's config and its token.
func flow(t *testing.T, as *oauthtest.Server, method string, scopes ...string) (*oauth2.Config, *oauth2.Token) {
	t.Helper()
	conf := config(t, as, method, scopes...)
	verifier := oauth2.GenerateVerifier()
	back := authorize(t, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", resource)))
	tok, err := conf.Exchange(context.Background(), back.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	return conf, tok
}

// TestRequests: every request to the three endpoints is logged, in
// order, with what the client sent.
func TestRequests(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	conf, _ := flow(t, as, "client_secret_basic", "read")
	if n := len(as.Requests("")); n != 3 {
		t.Fatalf("%d requests logged, want 3", n)
	}
	reg := as.Requests("register")
	if len(reg) != 1 || reg[0].Metadata["client_name"] != "oauthtest" || reg[0].Params != nil {
		t.Errorf("registrations %+v", reg)
	}
	if a := as.LastRequest("authorize"); a.Params.Get("scope") != "read" || a.Params.Get("client_id") != conf.ClientID {
		t.Errorf("authorization request %+v", a)
	}
	tr := as.LastRequest("token")
	if tr.Params.Get("grant_type") != "authorization_code" || tr.BasicClientID != conf.ClientID {
		t.Errorf("token request %+v, want authorization_code with Basic client %s", tr, conf.ClientID)
	}
	if r := as.LastRequest("nothing"); r.Endpoint != "" {
		t.Error("LastRequest of an unknown endpoint is not zero")
	}
}

// TestCheckAndRevoke: Check accepts the tokens the server issued until
// RevokeAccessTokens; a refresh still works then, until
// RevokeRefreshTokens.
func TestCheckAndRevoke(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	conf, tok := flow(t, as, "none", "read", "write")
	if sc, ok := as.Scopes(tok.AccessToken); !ok || !slices.Equal(sc, []string{"read", "write"}) {
		t.Fatalf("Scopes %q %v, want read write", sc, ok)
	}
	other := oauthtest.NewServer(t, oauthtest.Options{})
	if _, err := other.Check(tok.AccessToken); err == nil {
		t.Error("another server's Check accepted the token")
	}
	expired := as.MustToken(t, oauthtest.TokenRequest{Audience: []string{resource}, Lifetime: -time.Minute})
	if _, err := as.Check(expired); err == nil {
		t.Error("Check accepted an expired token")
	}

	as.RevokeAccessTokens()
	if _, err := as.Check(tok.AccessToken); !errors.Is(err, oauthtest.ErrRevoked) {
		t.Fatalf("Check of a revoked token: %v, want ErrRevoked", err)
	}
	stale := &oauth2.Token{RefreshToken: tok.RefreshToken, Expiry: time.Now().Add(-time.Hour)}
	tok2, err := conf.TokenSource(context.Background(), stale).Token()
	if err != nil {
		t.Fatalf("refresh after RevokeAccessTokens: %v", err)
	}
	if _, err := as.Check(tok2.AccessToken); err != nil {
		t.Fatalf("Check of the refreshed token: %v", err)
	}

	as.RevokeRefreshTokens()
	stale.RefreshToken = tok2.RefreshToken
	if _, err := conf.TokenSource(context.Background(), stale).Token(); !isOAuthError(err, "invalid_grant") {
		t.Fatalf("refresh after RevokeRefreshTokens: %v, want invalid_grant", err)
	}
}

// TestAuthMethods: Options.AuthMethods is published in the metadata, and
// registering another method is refused.
func TestAuthMethods(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{AuthMethods: []string{"client_secret_post"}})
	res, err := http.Get(as.URL() + "/.well-known/oauth-authorization-server")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var md struct {
		Methods []string `json:"token_endpoint_auth_methods_supported"`
	}
	if err := json.NewDecoder(res.Body).Decode(&md); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(md.Methods, []string{"client_secret_post"}) {
		t.Errorf("token_endpoint_auth_methods_supported %q, want client_secret_post", md.Methods)
	}
	for _, method := range []string{"none", "client_secret_basic", ""} {
		status, reg := register(t, as, map[string]any{"redirect_uris": []string{"http://127.0.0.1:1/callback"}, "token_endpoint_auth_method": method})
		if status != http.StatusBadRequest || reg["error"] != "invalid_client_metadata" {
			t.Errorf("registering %q: %d %v, want 400 invalid_client_metadata", method, status, reg)
		}
	}
	flow(t, as, "client_secret_post", "read")
	if _, err := oauthtest.New(oauthtest.Options{AuthMethods: []string{"tls_client_auth"}}); err == nil {
		t.Error("New accepted an authentication method it does not implement")
	}
}

// TestLoopbackRedirectAnyPort: a loopback IP redirect URI matches with any
// port (RFC 8252 §7.3); other hosts, paths and schemes must match exactly.
func TestLoopbackRedirectAnyPort(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	c, err := as.Register(oauthtest.Client{AuthMethod: "none", RedirectURIs: []string{"http://127.0.0.1/callback", "https://app.example.com/cb"}})
	if err != nil {
		t.Fatal(err)
	}
	for uri, ok := range map[string]bool{
		"http://127.0.0.1:1/callback":    true,
		"http://127.0.0.1/callback":      true,
		"http://127.0.0.1:1/other":       false,
		"http://localhost:1/callback":    false,
		"https://app.example.com:1/cb":   false,
		"http://127.0.0.2:1/callback":    false,
		"http://127.0.0.1:1/callback?x=": false,
	} {
		q := url.Values{"response_type": {"code"}, "client_id": {c.ID}, "redirect_uri": {uri},
			"code_challenge": {oauth2.S256ChallengeFromVerifier(oauth2.GenerateVerifier())}, "code_challenge_method": {"S256"}}
		res, err := noRedirects.Get(as.URL() + "/authorize?" + q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if got := res.StatusCode == http.StatusFound; got != ok {
			t.Errorf("redirect_uri %s: status %d, want allowed %v", uri, res.StatusCode, ok)
		}
	}
}
