package oauthtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
)

const resource = "http://127.0.0.1:9/mcp" // the MCP server the tokens are for

// noRedirects is a client that returns redirects instead of following
// them, as a user agent's address bar would show them.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// register registers a client with metadata md and returns the answer.
func register(t *testing.T, as *oauthtest.Server, md map[string]any) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(md)
	res, err := http.Post(as.URL()+"/register", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatalf("register: %v", err)
	}
	return res.StatusCode, out
}

// config registers a client authenticating with method and returns its
// oauth2.Config.
func config(t *testing.T, as *oauthtest.Server, method string, scopes ...string) *oauth2.Config {
	t.Helper()
	status, reg := register(t, as, map[string]any{
		"client_name":                "oauthtest",
		"redirect_uris":              []string{"http://127.0.0.1:1/callback"},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"token_endpoint_auth_method": method,
	})
	if status != http.StatusCreated {
		t.Fatalf("register: %d %v", status, reg)
	}
	style := map[string]oauth2.AuthStyle{"none": oauth2.AuthStyleInParams, "client_secret_post": oauth2.AuthStyleInParams, "client_secret_basic": oauth2.AuthStyleInHeader}[method]
	secret, _ := reg["client_secret"].(string)
	if (secret == "") != (method == "none") {
		t.Fatalf("register %s: client_secret %q", method, secret)
	}
	return &oauth2.Config{
		ClientID:     reg["client_id"].(string),
		ClientSecret: secret,
		Endpoint:     oauth2.Endpoint{AuthURL: as.URL() + "/authorize", TokenURL: as.URL() + "/token", AuthStyle: style},
		RedirectURL:  "http://127.0.0.1:1/callback",
		Scopes:       scopes,
	}
}

// authorize sends the user agent to authURL and returns the query of the
// redirect back to the client.
func authorize(t *testing.T, authURL string) url.Values {
	t.Helper()
	res, err := noRedirects.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		t.Fatalf("authorize: status %d, want 302", res.StatusCode)
	}
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(loc.String(), "http://127.0.0.1:1/callback?") {
		t.Fatalf("authorize redirected to %s", loc)
	}
	return loc.Query()
}

// verify checks token with fastmcp's own JWT verifier, as a protected
// server would.
func verify(t *testing.T, as *oauthtest.Server, token string) *auth.TokenInfo {
	t.Helper()
	v, err := auth.NewJWTVerifier(auth.JWTOptions{Issuer: as.URL(), Audience: resource, RequireJWTAccessTokenType: true})
	if err != nil {
		t.Fatal(err)
	}
	info, err := v.Verify(context.Background(), token, nil)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	return info
}

// TestAuthorizationCodeFlow drives the whole flow with golang.org/x/oauth2
// for each way a client authenticates, and checks the tokens with
// auth.JWTVerifier.
func TestAuthorizationCodeFlow(t *testing.T) {
	for _, alg := range []string{"ES256", "RS256"} {
		for _, method := range []string{"none", "client_secret_basic", "client_secret_post"} {
			t.Run(alg+"/"+method, func(t *testing.T) {
				as := oauthtest.NewServer(t, oauthtest.Options{Algorithm: alg, ScopesSupported: []string{"read", "admin"}})
				conf := config(t, as, method, "read")
				verifier := oauth2.GenerateVerifier()
				back := authorize(t, conf.AuthCodeURL("st4te", oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", resource)))
				if back.Get("state") != "st4te" || back.Get("iss") != as.URL() || back.Get("error") != "" {
					t.Fatalf("redirect back: %v", back)
				}
				ctx := context.Background()
				tok, err := conf.Exchange(ctx, back.Get("code"), oauth2.VerifierOption(verifier))
				if err != nil {
					t.Fatal(err)
				}
				if tok.TokenType != "Bearer" || tok.RefreshToken == "" || tok.Expiry.IsZero() || tok.Extra("scope") != "read" {
					t.Fatalf("token response: %+v scope=%v", tok, tok.Extra("scope"))
				}
				info := verify(t, as, tok.AccessToken)
				if info.Subject != oauthtest.DefaultSubject || info.ClientID != conf.ClientID || !slices.Equal(info.Scopes, []string{"read"}) ||
					!slices.Equal(info.Audience, []string{resource}) || info.ID == "" || info.IssuedAt.IsZero() {
					t.Fatalf("token info: %+v", info)
				}

				// The code is single use.
				if _, err := conf.Exchange(ctx, back.Get("code"), oauth2.VerifierOption(verifier)); !isOAuthError(err, "invalid_grant") {
					t.Fatalf("code used twice: %v", err)
				}

				// Refresh, which rotates the refresh token.
				expired := &oauth2.Token{RefreshToken: tok.RefreshToken, Expiry: time.Now().Add(-time.Hour)}
				tok2, err := conf.TokenSource(ctx, expired).Token()
				if err != nil {
					t.Fatal(err)
				}
				if tok2.AccessToken == tok.AccessToken || tok2.RefreshToken == tok.RefreshToken {
					t.Fatal("refresh returned the same tokens")
				}
				if info := verify(t, as, tok2.AccessToken); info.Subject != oauthtest.DefaultSubject || !slices.Equal(info.Scopes, []string{"read"}) {
					t.Fatalf("refreshed token info: %+v", info)
				}
				if _, err := conf.TokenSource(ctx, expired).Token(); !isOAuthError(err, "invalid_grant") {
					t.Fatalf("refresh token used twice: %v", err)
				}
			})
		}
	}
}

func isOAuthError(err error, code string) bool {
	var re *oauth2.RetrieveError
	return errors.As(err, &re) && re.ErrorCode == code
}

// TestGrantedScopesAndSubject: the scopes granted are those requested,
// the defaults, or what UserScopes allows; login_hint names the subject.
func TestGrantedScopesAndSubject(t *testing.T) {
	tests := []struct {
		name       string
		opts       oauthtest.Options
		scopes     []string
		extra      []oauth2.AuthCodeOption
		wantSub    string
		wantScopes []string
	}{
		{"requested", oauthtest.Options{}, []string{"a", "b"}, nil, oauthtest.DefaultSubject, []string{"a", "b"}},
		{"defaults", oauthtest.Options{DefaultScopes: []string{"mcp"}}, nil, nil, oauthtest.DefaultSubject, []string{"mcp"}},
		{"none", oauthtest.Options{}, nil, nil, oauthtest.DefaultSubject, nil},
		{"user grants some", oauthtest.Options{UserScopes: []string{"a"}}, []string{"a", "b"}, nil, oauthtest.DefaultSubject, []string{"a"}},
		{"subject option", oauthtest.Options{Subject: "bob"}, nil, nil, "bob", nil},
		{"login_hint", oauthtest.Options{Subject: "bob"}, nil, []oauth2.AuthCodeOption{oauth2.SetAuthURLParam("login_hint", "carol")}, "carol", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := oauthtest.NewServer(t, tt.opts)
			conf := config(t, as, "none", tt.scopes...)
			verifier := oauth2.GenerateVerifier()
			opts := append([]oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", resource)}, tt.extra...)
			back := authorize(t, conf.AuthCodeURL("s", opts...))
			tok, err := conf.Exchange(context.Background(), back.Get("code"), oauth2.VerifierOption(verifier))
			if err != nil {
				t.Fatal(err)
			}
			info := verify(t, as, tok.AccessToken)
			if info.Subject != tt.wantSub || !slices.Equal(info.Scopes, tt.wantScopes) {
				t.Fatalf("sub %q scopes %q, want %q %q", info.Subject, info.Scopes, tt.wantSub, tt.wantScopes)
			}
		})
	}
}

// TestAuthorizeErrors: errors about the client or its redirect URI are
// answered by the server; the others go back to the client.
func TestAuthorizeErrors(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{ScopesSupported: []string{"read"}})
	conf := config(t, as, "none")
	good := url.Values{
		"response_type": {"code"}, "client_id": {conf.ClientID}, "redirect_uri": {conf.RedirectURL},
		"code_challenge": {oauth2.S256ChallengeFromVerifier(oauth2.GenerateVerifier())}, "code_challenge_method": {"S256"},
		"state": {"s"}, "resource": {resource}, "scope": {"read"},
	}
	tests := []struct {
		name      string
		change    func(url.Values)
		wantCode  int    // 400 for an answer here
		wantError string // the error sent back with a 302
	}{
		{"valid", func(url.Values) {}, http.StatusFound, ""},
		{"no redirect_uri, one registered", func(q url.Values) { q.Del("redirect_uri") }, http.StatusFound, ""},
		{"unknown client", func(q url.Values) { q.Set("client_id", "nobody") }, http.StatusBadRequest, ""},
		{"unregistered redirect_uri", func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:1/other") }, http.StatusBadRequest, ""},
		{"response_type token", func(q url.Values) { q.Set("response_type", "token") }, http.StatusFound, "unsupported_response_type"},
		{"no PKCE", func(q url.Values) { q.Del("code_challenge"); q.Del("code_challenge_method") }, http.StatusFound, "invalid_request"},
		{"PKCE plain", func(q url.Values) { q.Set("code_challenge_method", "plain") }, http.StatusFound, "invalid_request"},
		{"unknown scope", func(q url.Values) { q.Set("scope", "read write") }, http.StatusFound, "invalid_scope"},
		{"relative resource", func(q url.Values) { q.Set("resource", "/mcp") }, http.StatusFound, "invalid_target"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := url.Values{}
			for k, v := range good {
				q[k] = slices.Clone(v)
			}
			tt.change(q)
			res, err := noRedirects.Get(as.URL() + "/authorize?" + q.Encode())
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != tt.wantCode {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.wantCode)
			}
			if res.StatusCode != http.StatusFound {
				return
			}
			loc, _ := url.Parse(res.Header.Get("Location"))
			back := loc.Query()
			if back.Get("error") != tt.wantError || back.Get("state") != "s" || back.Get("iss") != as.URL() {
				t.Fatalf("redirected back with %v, want error %q", back, tt.wantError)
			}
			if (back.Get("code") != "") != (tt.wantError == "") {
				t.Fatalf("code %q with error %q", back.Get("code"), back.Get("error"))
			}
		})
	}
}

// TestDenyAndCount: SetDeny makes the user decline (access_denied, no
// code) until it is unset; Authorizations counts the approvals only.
func TestDenyAndCount(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	conf := config(t, as, "none")
	ask := func() url.Values {
		return authorize(t, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(oauth2.GenerateVerifier())))
	}
	if back := ask(); back.Get("code") == "" || as.Authorizations() != 1 {
		t.Fatalf("approved: back %v, %d authorizations; want a code and 1", back, as.Authorizations())
	}
	as.SetDeny(true)
	if back := ask(); back.Get("error") != "access_denied" || back.Get("code") != "" || back.Get("state") != "s" {
		t.Fatalf("denied: back %v; want error access_denied, state s, no code", back)
	}
	if n := as.Authorizations(); n != 1 {
		t.Errorf("%d authorizations after a denial, want 1", n)
	}
	as.SetDeny(false)
	if back := ask(); back.Get("code") == "" || as.Authorizations() != 2 {
		t.Fatalf("approved again: back %v, %d authorizations; want a code and 2", back, as.Authorizations())
	}
}

// TestTokenErrors: the token endpoint checks the PKCE verifier, the
// redirect URI, the client and the resource.
func TestTokenErrors(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	conf := config(t, as, "none", "read")
	other := config(t, as, "client_secret_basic")
	ctx := context.Background()
	tests := []struct {
		name      string
		authorize []oauth2.AuthCodeOption // besides the challenge
		exchange  func(code, verifier string) error
		want      string
	}{
		{"wrong verifier", []oauth2.AuthCodeOption{oauth2.SetAuthURLParam("resource", resource)}, func(code, _ string) error {
			_, err := conf.Exchange(ctx, code, oauth2.VerifierOption(oauth2.GenerateVerifier()))
			return err
		}, "invalid_grant"},
		{"no verifier", []oauth2.AuthCodeOption{oauth2.SetAuthURLParam("resource", resource)}, func(code, _ string) error {
			_, err := conf.Exchange(ctx, code)
			return err
		}, "invalid_grant"},
		{"other redirect_uri", []oauth2.AuthCodeOption{oauth2.SetAuthURLParam("resource", resource)}, func(code, v string) error {
			c := *conf
			c.RedirectURL = "http://127.0.0.1:1/elsewhere"
			_, err := c.Exchange(ctx, code, oauth2.VerifierOption(v))
			return err
		}, "invalid_grant"},
		{"other client", []oauth2.AuthCodeOption{oauth2.SetAuthURLParam("resource", resource)}, func(code, v string) error {
			_, err := other.Exchange(ctx, code, oauth2.VerifierOption(v))
			return err
		}, "invalid_grant"},
		{"public client with a secret", []oauth2.AuthCodeOption{oauth2.SetAuthURLParam("resource", resource)}, func(code, v string) error {
			c := *conf
			c.ClientSecret = "guess"
			_, err := c.Exchange(ctx, code, oauth2.VerifierOption(v))
			return err
		}, "invalid_client"},
		{"no resource anywhere", nil, func(code, v string) error {
			_, err := conf.Exchange(ctx, code, oauth2.VerifierOption(v))
			return err
		}, "invalid_target"},
		{"resource not authorized", []oauth2.AuthCodeOption{oauth2.SetAuthURLParam("resource", resource)}, func(code, v string) error {
			_, err := conf.Exchange(ctx, code, oauth2.VerifierOption(v), oauth2.SetAuthURLParam("resource", "http://127.0.0.1:9/other"))
			return err
		}, "invalid_target"},
		{"more scope than granted", []oauth2.AuthCodeOption{oauth2.SetAuthURLParam("resource", resource)}, func(code, v string) error {
			_, err := conf.Exchange(ctx, code, oauth2.VerifierOption(v), oauth2.SetAuthURLParam("scope", "read admin"))
			return err
		}, "invalid_scope"},
		{"resource at the token endpoint only", nil, func(code, v string) error {
			_, err := conf.Exchange(ctx, code, oauth2.VerifierOption(v), oauth2.SetAuthURLParam("resource", resource))
			return err
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := oauth2.GenerateVerifier()
			back := authorize(t, conf.AuthCodeURL("s", append([]oauth2.AuthCodeOption{oauth2.S256ChallengeOption(v)}, tt.authorize...)...))
			err := tt.exchange(back.Get("code"), v)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !isOAuthError(err, tt.want) {
				t.Fatalf("got %v, want %s", err, tt.want)
			}
		})
	}
}

// TestRegistrationErrors: RFC 7591 §3.2.2 error answers.
func TestRegistrationErrors(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	tests := []struct {
		name string
		md   map[string]any
		want string
	}{
		{"no redirect_uris", map[string]any{"token_endpoint_auth_method": "none"}, "invalid_redirect_uri"},
		{"relative redirect_uri", map[string]any{"redirect_uris": []string{"/cb"}}, "invalid_redirect_uri"},
		{"fragment", map[string]any{"redirect_uris": []string{"http://127.0.0.1/cb#x"}}, "invalid_redirect_uri"},
		{"auth method", map[string]any{"redirect_uris": []string{"http://127.0.0.1/cb"}, "token_endpoint_auth_method": "private_key_jwt"}, "invalid_client_metadata"},
		{"grant type", map[string]any{"redirect_uris": []string{"http://127.0.0.1/cb"}, "grant_types": []string{"implicit"}}, "invalid_client_metadata"},
		{"response type", map[string]any{"redirect_uris": []string{"http://127.0.0.1/cb"}, "response_types": []string{"token"}}, "invalid_client_metadata"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out := register(t, as, tt.md)
			if status != http.StatusBadRequest || out["error"] != tt.want {
				t.Fatalf("got %d %v, want 400 %s", status, out, tt.want)
			}
		})
	}
	// A valid registration echoes the metadata, with the defaults filled in.
	status, out := register(t, as, map[string]any{"redirect_uris": []string{"http://127.0.0.1/cb"}, "client_name": "x", "logo_uri": "http://127.0.0.1/logo"})
	if status != http.StatusCreated || out["client_name"] != "x" || out["logo_uri"] != "http://127.0.0.1/logo" ||
		out["token_endpoint_auth_method"] != "client_secret_basic" || out["client_secret"] == "" || out["client_id"] == "" {
		t.Fatalf("registration: %d %v", status, out)
	}
	if n := len(as.Clients()); n != 1 {
		t.Fatalf("%d clients registered, want 1", n)
	}
}

// TestMetadata: both discovery documents name the endpoints.
func TestMetadata(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{ScopesSupported: []string{"read"}})
	for _, path := range []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		t.Run(path, func(t *testing.T) {
			res, err := http.Get(as.URL() + path)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			var md map[string]any
			if err := json.NewDecoder(res.Body).Decode(&md); err != nil {
				t.Fatal(err)
			}
			for k, want := range map[string]any{
				"issuer": as.URL(), "authorization_endpoint": as.URL() + "/authorize", "token_endpoint": as.URL() + "/token",
				"registration_endpoint": as.URL() + "/register", "jwks_uri": as.URL() + "/jwks",
				"authorization_response_iss_parameter_supported": true,
			} {
				if md[k] != want {
					t.Errorf("%s = %v, want %v", k, md[k], want)
				}
			}
			if got, _ := json.Marshal(md["code_challenge_methods_supported"]); string(got) != `["S256"]` {
				t.Errorf("code_challenge_methods_supported = %s", got)
			}
			if got, _ := json.Marshal(md["scopes_supported"]); string(got) != `["read"]` {
				t.Errorf("scopes_supported = %s", got)
			}
		})
	}
}

// TestToken: tokens minted without the flow verify too, and an expired
// one does not.
func TestToken(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	tok, err := as.Token(oauthtest.TokenRequest{Subject: "dave", Audience: []string{resource}, Scopes: []string{"x"}})
	if err != nil {
		t.Fatal(err)
	}
	if info := verify(t, as, tok); info.Subject != "dave" || info.ClientID != "oauthtest-client" || !info.HasScopes("x") {
		t.Fatalf("token info: %+v", info)
	}
	expired, err := as.Token(oauthtest.TokenRequest{Audience: []string{resource}, Lifetime: -time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := auth.NewJWTVerifier(auth.JWTOptions{Issuer: as.URL(), Audience: resource})
	if _, err := v.Verify(context.Background(), expired, nil); !errors.Is(err, auth.ErrInvalidToken) {
		t.Fatalf("expired token: %v", err)
	}
	if _, err := as.Token(oauthtest.TokenRequest{}); err == nil {
		t.Fatal("a token without audience was minted")
	}
	if _, err := oauthtest.New(oauthtest.Options{Algorithm: "HS256"}); err == nil {
		t.Fatal("New accepted HS256")
	}
}

// TestStartClose: Start once, Close as often as one likes.
func TestStartClose(t *testing.T) {
	as, err := oauthtest.New(oauthtest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := as.Close(); err != nil {
		t.Fatalf("Close before Start: %v", err)
	}
	if err := as.Start(""); err != nil {
		t.Fatal(err)
	}
	if err := as.Start(""); err == nil {
		t.Fatal("Start twice")
	}
	for range 2 {
		if err := as.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := http.Get(as.URL() + "/jwks"); err == nil {
		t.Fatal("still serving after Close")
	}
}

// TestRegister: a pre-registered confidential client gets tokens with
// the secret it was given.
func TestRegister(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	c, err := as.Register(oauthtest.Client{ID: "pre", Secret: "s3cret", RedirectURIs: []string{"http://127.0.0.1:1/callback"}, AuthMethod: "client_secret_post"})
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != "pre" || c.Secret != "s3cret" || c.AuthMethod != "client_secret_post" || !slices.Equal(c.GrantTypes, []string{"authorization_code"}) {
		t.Fatalf("registered %+v", c)
	}
	if _, err := as.Register(oauthtest.Client{ID: "pre", RedirectURIs: []string{"http://127.0.0.1:1/callback"}}); err == nil {
		t.Fatal("registered the same ID twice")
	}
	if _, err := as.Register(oauthtest.Client{}); err == nil {
		t.Fatal("registered a client without redirect URIs")
	}
	conf := &oauth2.Config{
		ClientID: "pre", ClientSecret: "s3cret", RedirectURL: "http://127.0.0.1:1/callback",
		Endpoint: oauth2.Endpoint{AuthURL: as.URL() + "/authorize", TokenURL: as.URL() + "/token", AuthStyle: oauth2.AuthStyleInParams},
	}
	v := oauth2.GenerateVerifier()
	back := authorize(t, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v), oauth2.SetAuthURLParam("resource", resource)))
	for _, tt := range []struct {
		secret, want string
	}{{"wrong", "invalid_client"}, {"s3cret", ""}} {
		c := *conf
		c.ClientSecret = tt.secret
		tok, err := c.Exchange(context.Background(), back.Get("code"), oauth2.VerifierOption(v))
		if tt.want != "" {
			if !isOAuthError(err, tt.want) {
				t.Fatalf("secret %q: %v, want %s", tt.secret, err, tt.want)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if info := verify(t, as, tok.AccessToken); info.ClientID != "pre" {
			t.Fatalf("client_id %q", info.ClientID)
		}
		if tok.RefreshToken != "" {
			t.Fatal("a refresh token for a client that did not register the grant")
		}
	}
}

// TestIssuerWithPath: with Options.Path the metadata is served at the
// path-aware locations only, and a verifier that discovers it from there
// accepts the tokens.
func TestIssuerWithPath(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{Path: "/tenant1"})
	base := strings.TrimSuffix(as.URL(), "/tenant1")
	if base == as.URL() {
		t.Fatalf("issuer %s has no path", as.URL())
	}
	for path, want := range map[string]int{
		"/.well-known/oauth-authorization-server/tenant1": 200,
		"/.well-known/openid-configuration/tenant1":       200,
		"/tenant1/.well-known/openid-configuration":       200,
		"/.well-known/oauth-authorization-server":         404,
		"/.well-known/openid-configuration":               404,
	} {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		var md map[string]any
		json.NewDecoder(res.Body).Decode(&md)
		res.Body.Close()
		if res.StatusCode != want || want == 200 && (md["issuer"] != as.URL() || md["token_endpoint"] != as.URL()+"/token") {
			t.Errorf("%s: %d %v, want %d", path, res.StatusCode, md, want)
		}
	}
	conf := config(t, as, "none", "read")
	v := oauth2.GenerateVerifier()
	back := authorize(t, conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v), oauth2.SetAuthURLParam("resource", resource)))
	if back.Get("iss") != as.URL() {
		t.Fatalf("iss %q, want %q", back.Get("iss"), as.URL())
	}
	tok, err := conf.Exchange(context.Background(), back.Get("code"), oauth2.VerifierOption(v))
	if err != nil {
		t.Fatal(err)
	}
	if info := verify(t, as, tok.AccessToken); info.Issuer != as.URL() {
		t.Fatalf("issuer %q", info.Issuer)
	}
	for _, bad := range []string{"tenant1", "/tenant1/", "/a?b"} {
		if _, err := oauthtest.New(oauthtest.Options{Path: bad}); err == nil {
			t.Errorf("New accepted Path %q", bad)
		}
	}
}
