package oauthclient

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"slices"

	"golang.org/x/oauth2"
)

// authorize runs the whole flow after the server's challenge ch: discover
// the protected resource metadata and the authorization server, register
// if needed, get an authorization code with PKCE and exchange it. keep
// are scopes to ask for again (a step-up). Called with the lock held.
func (t *Transport) authorize(ctx context.Context, ch Challenge, keep []string) error {
	prm, err := t.discoverResource(ctx, t.server, ch.ResourceMetadata())
	if err != nil {
		return err
	}
	var as *serverMetadata
	var issuer, resource string
	if prm != nil {
		if len(prm.AuthorizationServers) == 0 {
			return fail("discover resource metadata", "", errNoIssuer)
		}
		issuer, resource = prm.AuthorizationServers[0], prm.Resource
		if as, err = t.discoverServer(ctx, issuer); err != nil {
			return err
		}
	} else {
		if as, err = t.discoverLegacy(ctx, t.server); err != nil {
			return err
		}
		issuer, resource = as.Issuer, t.server.String()
	}
	if t.rec.Issuer != issuer {
		// Another authorization server (or the first): nothing of the
		// previous one's may be used with it (SEP-2352).
		if t.rec.Issuer != "" {
			t.logger.Info("oauthclient: the server's authorization server changed", "from", t.rec.Issuer, "to", issuer)
		}
		t.rec = &Record{Issuer: issuer}
	}
	t.rec.Resource = resource
	t.as = as

	scopes := selectScopes(ch, prm, as, keep, t.cfg.Scopes)
	var tok *oauth2.Token
	if t.cfg.Grant != nil {
		if t.cfg.Client == nil {
			return fail("request token", as.TokenEndpoint, fmt.Errorf("%w: Config.Grant needs Config.Client", ErrNoRegistration))
		}
		tok, err = t.cfg.Grant.token(ctx, &grantRequest{t: t, as: as, reg: t.cfg.Client, resource: resource, scopes: scopes})
	} else {
		tok, err = t.authorizationCode(ctx, as, resource, scopes)
	}
	if err != nil {
		return err
	}
	t.rec.Token, t.rec.Scopes = tok, scopes
	return t.save(ctx)
}

// selectScopes picks the scopes to ask for (MCP 2025-11-25 "Scope
// Selection Strategy"): the challenge's, else the resource metadata's
// scopes_supported, else none; plus those to keep, the configured ones,
// and offline_access when the authorization server offers it (SEP-2207).
func selectScopes(ch Challenge, prm *resourceMetadata, as *serverMetadata, keep, configured []string) []string {
	scopes := ch.Scopes()
	if len(scopes) == 0 && prm != nil {
		scopes = prm.ScopesSupported
	}
	var out []string
	for _, list := range [][]string{keep, scopes, configured} {
		for _, s := range list {
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	if slices.Contains(as.ScopesSupported, "offline_access") && !slices.Contains(out, "offline_access") {
		out = append(out, "offline_access")
	}
	return out
}

// authorizationCode gets a token with the authorization code grant and
// PKCE (OAuth 2.1 §4.1), the resource indicator (RFC 8707) and the iss
// check (RFC 9207).
func (t *Transport) authorizationCode(ctx context.Context, as *serverMetadata, resource string, scopes []string) (*oauth2.Token, error) {
	if t.cfg.OpenURL == nil {
		return nil, fail("authorize", as.AuthorizationEndpoint, ErrNoBrowser)
	}
	if as.AuthorizationEndpoint == "" {
		return nil, fail("authorize", as.Issuer, errors.New("oauthclient: metadata has no authorization_endpoint"))
	}
	if !as.supportsPKCE() {
		return nil, fail("authorize", as.Issuer, ErrNoPKCE)
	}
	cb, err := t.listen()
	if err != nil {
		return nil, fail("authorize", t.cfg.RedirectURL, err)
	}
	defer cb.close()
	reg, err := t.registration(ctx, as, cb.url)
	if err != nil {
		return nil, err
	}
	conf := oauthConfig(as, reg, cb.url, scopes)
	verifier := oauth2.GenerateVerifier()
	state := randomString()
	params := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", resource)}
	if !t.cfg.NoConsentPrompt && as.consentPrompt(scopes) {
		params = append(params, oauth2.SetAuthURLParam("prompt", "consent"))
	}
	authURL := conf.AuthCodeURL(state, params...)
	t.logger.Info("oauthclient: authorization needed; opening the authorization page", "issuer", as.Issuer, "scopes", scopes)
	if err := t.cfg.OpenURL(ctx, authURL); err != nil {
		return nil, fail("authorize", as.AuthorizationEndpoint, fmt.Errorf("oauthclient: OpenURL: %w", err))
	}
	res, err := cb.wait(ctx)
	if err != nil {
		return nil, fail("authorize", as.AuthorizationEndpoint, err)
	}
	if res.State != state {
		return nil, fail("authorize", as.AuthorizationEndpoint, ErrStateMismatch)
	}
	// RFC 9207 §2.4: compare iss whenever present, require it when
	// advertised; plain string comparison (SEP-2468).
	switch {
	case res.HasIss && res.Iss != as.Issuer:
		return nil, fail("authorize", as.AuthorizationEndpoint, fmt.Errorf("%w: authorization response iss %q, expected %q", ErrIssuerMismatch, res.Iss, as.Issuer))
	case !res.HasIss && as.IssParameterSupported:
		return nil, fail("authorize", as.AuthorizationEndpoint, fmt.Errorf("%w: the authorization server advertises the iss parameter but its response has none", ErrIssuerMismatch))
	}
	if res.Error != "" {
		return nil, &Error{Op: "authorize", URL: as.AuthorizationEndpoint, Code: res.Error, Description: res.ErrorDescription, Err: ErrAuthorizationDenied}
	}
	if res.Code == "" {
		return nil, fail("authorize", as.AuthorizationEndpoint, errors.New("oauthclient: authorization response has no code"))
	}
	var tok *oauth2.Token
	if authMethod(as, reg) == "private_key_jwt" {
		// x/oauth2 has no client assertions.
		tok, err = t.tokenRequest(ctx, as, reg, url.Values{
			"grant_type": {"authorization_code"}, "code": {res.Code}, "redirect_uri": {cb.url},
			"code_verifier": {verifier}, "resource": {resource},
		})
	} else {
		tok, err = conf.Exchange(context.WithValue(ctx, oauth2.HTTPClient, t.tokenClient(as)), res.Code, oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", resource))
	}
	if err != nil {
		return nil, tokenError("exchange code", as.TokenEndpoint, err)
	}
	return tok, nil
}

// listen starts the redirect listener. With a free port configured, it
// listens on the port registered earlier (a stored dynamic registration)
// when it can, since not every authorization server lets a loopback
// redirect URI change its port (RFC 8252 §7.3 says it should); when that
// port is taken it listens on a new one and drops the registration, so
// the client registers again with its new redirect URI. Called with the
// lock held.
func (t *Transport) listen() (*callback, error) {
	if reg := t.rec.Client; reg != nil && reg.RedirectURI != "" && reg.RedirectURI != t.cfg.RedirectURL && samePlace(reg.RedirectURI, t.cfg.RedirectURL) {
		if cb, err := listen(reg.RedirectURI); err == nil {
			return cb, nil
		}
		t.logger.Info("oauthclient: the registered redirect port is taken; registering again", "redirect_uri", reg.RedirectURI)
		t.rec.Client = nil
	}
	return listen(t.cfg.RedirectURL)
}

// samePlace reports whether registered is configured with its port chosen:
// the same scheme, host and path, configured with port 0.
func samePlace(registered, configured string) bool {
	r, err1 := url.Parse(registered)
	c, err2 := url.Parse(configured)
	return err1 == nil && err2 == nil && c.Port() == "0" && r.Scheme == c.Scheme && r.Hostname() == c.Hostname() && r.Path == c.Path
}

// oauthConfig is the x/oauth2 configuration for reg at as.
func oauthConfig(as *serverMetadata, reg *Registration, redirect string, scopes []string) *oauth2.Config {
	style := oauth2.AuthStyleInParams
	secret := reg.ClientSecret
	switch authMethod(as, reg) {
	case "client_secret_basic":
		style = oauth2.AuthStyleInHeader
	case "none":
		secret = ""
	}
	return &oauth2.Config{
		ClientID:     reg.ClientID,
		ClientSecret: secret,
		Endpoint:     oauth2.Endpoint{AuthURL: as.AuthorizationEndpoint, TokenURL: as.TokenEndpoint, AuthStyle: style},
		RedirectURL:  redirect,
		Scopes:       scopes,
	}
}

// tokenError turns a failed token request into an *Error carrying the
// authorization server's error code.
func tokenError(op, url string, err error) error {
	if re, ok := errors.AsType[*oauth2.RetrieveError](err); ok {
		return &Error{Op: op, URL: url, Code: re.ErrorCode, Description: re.ErrorDescription, Err: fmt.Errorf("%w: %w", ErrTokenRequest, err)}
	}
	return fail(op, url, err)
}

// randomString returns 32 random bytes, base64url-encoded.
func randomString() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}
