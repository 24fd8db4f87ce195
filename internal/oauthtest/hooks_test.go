package oauthtest_test

import (
	"context"
	"errors"
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
