package oauthproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/oauth2"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/oauthserver"
)

// An Upstream is the identity provider the proxy sends users to, with the
// one client registered there for the proxy.
type Upstream struct {
	// Name names the provider on pages and in logs ("GitHub").
	Name string
	// AuthURL and TokenURL are the provider's authorization and token
	// endpoints.
	AuthURL, TokenURL string
	// ClientID and ClientSecret are the proxy's client at the provider.
	// Its redirect URI there must be the proxy's callback: the issuer
	// followed by Config.CallbackPath.
	ClientID, ClientSecret string
	// Scopes are asked of the provider for every user.
	Scopes []string
	// AuthStyle says how the client authenticates at TokenURL; zero
	// tries both ways, as x/oauth2 does.
	AuthStyle oauth2.AuthStyle
	// AuthParams are added to the authorization request (such as
	// prompt=select_account).
	AuthParams url.Values
	// Identify says who the provider's token stands for. nonce is the
	// nonce sent with the authorization request (for an ID token's
	// "nonce"). It is required.
	Identify func(ctx context.Context, hc *http.Client, tok *oauth2.Token, nonce string) (*oauthserver.User, error)
}

// ErrIdentity is matched by the errors of an Upstream's Identify: the
// provider's answer did not say who the user is.
var ErrIdentity = errors.New("oauthproxy: the upstream did not identify the user")

// GitHub is the upstream of a GitHub OAuth app (OAuth 2.0, not OpenID
// Connect): users are identified by GET https://api.github.com/user, as
// Subject "github:<numeric id>" (the login can change, the id does not),
// Name their login, and the claims login, name and email (when public).
// It asks for the scope read:user; add scopes (repo, ...) to Scopes for
// what tools will do with the token.
func GitHub(clientID, clientSecret string) Upstream {
	return Upstream{
		Name:    "GitHub",
		AuthURL: "https://github.com/login/oauth/authorize", TokenURL: "https://github.com/login/oauth/access_token",
		ClientID: clientID, ClientSecret: clientSecret,
		Scopes:    []string{"read:user"},
		AuthStyle: oauth2.AuthStyleInParams,
		Identify:  githubUser("https://api.github.com/user"),
	}
}

// githubUser identifies a GitHub user from the user endpoint at userURL.
func githubUser(userURL string) func(ctx context.Context, hc *http.Client, tok *oauth2.Token, _ string) (*oauthserver.User, error) {
	return func(ctx context.Context, hc *http.Client, tok *oauth2.Token, _ string) (*oauthserver.User, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, userURL, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/vnd.github+json")
		tok.SetAuthHeader(req)
		resp, err := hc.Do(req)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrIdentity, err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("%w: GET %s: %s", ErrIdentity, userURL, resp.Status)
		}
		var u struct {
			ID    int64  `json:"id"`
			Login string `json:"login"`
			Name  string `json:"name"`
			Email string `json:"email"`
		}
		if err := json.Unmarshal(body, &u); err != nil || u.ID == 0 || u.Login == "" {
			return nil, fmt.Errorf("%w: GET %s: no id and login in the answer", ErrIdentity, userURL)
		}
		claims := map[string]any{"login": u.Login}
		if u.Name != "" {
			claims["name"] = u.Name
		}
		if u.Email != "" {
			claims["email"] = u.Email
		}
		return &oauthserver.User{Subject: "github:" + strconv.FormatInt(u.ID, 10), Name: u.Login, Claims: claims}, nil
	}
}

// OIDC discovers the OpenID provider issuer (its
// /.well-known/openid-configuration) and returns it as an upstream: the
// authorization code flow with the scopes openid, email and profile, and
// users identified by the ID token, verified (signature from the
// provider's key set, iss, aud = clientID, exp, nonce). Subject is the
// issuer and the ID token's "sub" ("<issuer>|<sub>"), Name its email,
// preferred_username or name, and the claims email, name and
// preferred_username when present. hc is the client for discovery, the
// key set and the token endpoint (nil: http.DefaultClient).
func OIDC(ctx context.Context, issuer, clientID, clientSecret string, hc *http.Client) (Upstream, error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	issuer = strings.TrimSuffix(issuer, "/")
	meta, err := discover(ctx, hc, issuer)
	if err != nil {
		return Upstream{}, err
	}
	v, err := auth.NewJWTVerifier(auth.JWTOptions{Issuer: issuer, Audience: clientID, JWKSURL: meta.JWKSURI, HTTPClient: hc})
	if err != nil {
		return Upstream{}, fmt.Errorf("oauthproxy: OIDC(%q): %w", issuer, err)
	}
	return Upstream{
		Name:    issuer,
		AuthURL: meta.AuthorizationEndpoint, TokenURL: meta.TokenEndpoint,
		ClientID: clientID, ClientSecret: clientSecret,
		Scopes:   []string{"openid", "email", "profile"},
		Identify: idTokenUser(issuer, v),
	}, nil
}

// Google is the OpenID provider https://accounts.google.com (OIDC).
func Google(ctx context.Context, clientID, clientSecret string, hc *http.Client) (Upstream, error) {
	up, err := OIDC(ctx, "https://accounts.google.com", clientID, clientSecret, hc)
	up.Name = "Google"
	return up, err
}

// Entra is Microsoft Entra ID (Azure AD) for one tenant (its ID or
// domain): the OpenID provider https://login.microsoftonline.com/<tenant>/v2.0.
// The multi-tenant endpoints ("common", "organizations") publish an
// issuer template ({tenantid}) that no single ID token matches: give a
// tenant.
func Entra(ctx context.Context, tenant, clientID, clientSecret string, hc *http.Client) (Upstream, error) {
	if tenant == "" || tenant == "common" || tenant == "organizations" || tenant == "consumers" {
		return Upstream{}, fmt.Errorf("oauthproxy: Entra: tenant %q: give the tenant's ID or domain (the multi-tenant endpoints have no single issuer)", tenant)
	}
	up, err := OIDC(ctx, "https://login.microsoftonline.com/"+url.PathEscape(tenant)+"/v2.0", clientID, clientSecret, hc)
	up.Name = "Microsoft Entra ID"
	return up, err
}

// providerMetadata is what OIDC reads of the discovery document.
type providerMetadata struct {
	Issuer                string `json:"issuer"`
	AuthorizationEndpoint string `json:"authorization_endpoint"`
	TokenEndpoint         string `json:"token_endpoint"`
	JWKSURI               string `json:"jwks_uri"`
}

// discover fetches and checks issuer's OpenID configuration.
func discover(ctx context.Context, hc *http.Client, issuer string) (*providerMetadata, error) {
	u := issuer + "/.well-known/openid-configuration"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("oauthproxy: OIDC(%q): %w", issuer, err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("oauthproxy: OIDC(%q): discovery: %w", issuer, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("oauthproxy: OIDC(%q): GET %s: %s", issuer, u, resp.Status)
	}
	var m providerMetadata
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&m); err != nil {
		return nil, fmt.Errorf("oauthproxy: OIDC(%q): discovery document: %w", issuer, err)
	}
	if m.Issuer != issuer {
		return nil, fmt.Errorf("oauthproxy: OIDC(%q): the discovery document names the issuer %q", issuer, m.Issuer)
	}
	if m.AuthorizationEndpoint == "" || m.TokenEndpoint == "" || m.JWKSURI == "" {
		return nil, fmt.Errorf("oauthproxy: OIDC(%q): the discovery document lacks authorization_endpoint, token_endpoint or jwks_uri", issuer)
	}
	return &m, nil
}

// idTokenUser identifies the user by the token response's ID token.
func idTokenUser(issuer string, v *auth.JWTVerifier) func(ctx context.Context, _ *http.Client, tok *oauth2.Token, nonce string) (*oauthserver.User, error) {
	return func(ctx context.Context, _ *http.Client, tok *oauth2.Token, nonce string) (*oauthserver.User, error) {
		raw, _ := tok.Extra("id_token").(string)
		if raw == "" {
			return nil, fmt.Errorf("%w: the token response has no id_token", ErrIdentity)
		}
		info, err := v.Verify(ctx, raw, nil)
		if err != nil {
			return nil, fmt.Errorf("%w: the ID token: %w", ErrIdentity, err)
		}
		if got, _ := info.Claims["nonce"].(string); got != nonce {
			return nil, fmt.Errorf("%w: the ID token's nonce is not the one sent", ErrIdentity)
		}
		u := &oauthserver.User{Subject: issuer + "|" + info.Subject, Claims: map[string]any{}}
		for _, c := range []string{"email", "preferred_username", "name"} {
			if s, _ := info.Claims[c].(string); s != "" {
				u.Claims[c] = s
				if u.Name == "" {
					u.Name = s
				}
			}
		}
		return u, nil
	}
}
