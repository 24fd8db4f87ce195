package oauthclient

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"golang.org/x/oauth2"
)

// A Grant gets a token without the user: Config.Grant replaces the
// authorization code grant (and its browser) with one of ClientCredentials,
// JWTBearer or EnterpriseManaged. Discovery, scope selection and the
// resource indicator work as for the authorization code grant; the client
// authenticates with Config.Client (no registration is attempted).
type Grant interface {
	token(ctx context.Context, g *grantRequest) (*oauth2.Token, error)
}

// grantRequest is what a Grant needs from the Transport.
type grantRequest struct {
	t        *Transport
	as       *serverMetadata
	reg      *Registration
	resource string
	scopes   []string
}

// form starts a token request of grantType with the resource and scopes.
func (g *grantRequest) form(grantType string) url.Values {
	f := url.Values{"grant_type": {grantType}}
	if g.resource != "" {
		f.Set("resource", g.resource)
	}
	if len(g.scopes) > 0 {
		f.Set("scope", strings.Join(g.scopes, " "))
	}
	return f
}

// ClientCredentials is the client credentials grant (OAuth 2.1 §4.2, the
// MCP oauth-client-credentials extension): the client acts for itself,
// authenticated by Config.Client's secret or private key.
type ClientCredentials struct{}

func (ClientCredentials) token(ctx context.Context, g *grantRequest) (*oauth2.Token, error) {
	tok, err := g.t.tokenRequest(ctx, g.as, g.reg, g.form("client_credentials"))
	if err != nil {
		return nil, tokenError("request token", g.as.TokenEndpoint, err)
	}
	return tok, nil
}

// jwtBearerGrant is the RFC 7523 §2.1 grant type.
const jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer"

// JWTBearer is the JWT bearer grant (RFC 7523 §2.1) with an assertion the
// client is given, such as a workload identity token (the MCP workload
// identity federation extension, SEP-1933). A refused assertion is not
// retried, nor is another grant tried.
type JWTBearer struct {
	// Assertion returns the JWT to present, fresh for each token request.
	Assertion func(ctx context.Context) (string, error)
}

func (j JWTBearer) token(ctx context.Context, g *grantRequest) (*oauth2.Token, error) {
	if j.Assertion == nil {
		return nil, fail("request token", g.as.TokenEndpoint, errors.New("oauthclient: JWTBearer has no Assertion"))
	}
	a, err := j.Assertion(ctx)
	if err != nil {
		return nil, fail("request token", g.as.TokenEndpoint, fmt.Errorf("oauthclient: getting the assertion: %w", err))
	}
	f := g.form(jwtBearerGrant)
	f.Set("assertion", a)
	tok, err := g.t.tokenRequest(ctx, g.as, g.reg, f)
	if err != nil {
		return nil, tokenError("request token", g.as.TokenEndpoint, err)
	}
	return tok, nil
}

// Token types of RFC 8693 §3 and the identity assertion grant.
const (
	tokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange"
	idTokenType        = "urn:ietf:params:oauth:token-type:id_token"
	idJAGTokenType     = "urn:ietf:params:oauth:token-type:id-jag"
)

// EnterpriseManaged is enterprise-managed authorization (SEP-990): the
// user's identity provider exchanges their ID token for an identity
// assertion authorization grant (an ID-JAG, RFC 8693 token exchange), which
// the client presents to the MCP server's authorization server with the
// JWT bearer grant (RFC 7523).
type EnterpriseManaged struct {
	// TokenEndpoint is the identity provider's token endpoint.
	TokenEndpoint string
	// IDToken returns the user's ID token from the identity provider.
	IDToken func(ctx context.Context) (string, error)
	// Client is how the client authenticates to the identity provider.
	Client *Registration
}

func (e EnterpriseManaged) token(ctx context.Context, g *grantRequest) (*oauth2.Token, error) {
	if e.IDToken == nil || e.Client == nil || e.TokenEndpoint == "" {
		return nil, fail("exchange token", e.TokenEndpoint, errors.New("oauthclient: EnterpriseManaged needs TokenEndpoint, IDToken and Client"))
	}
	if _, err := checkEndpoint(e.TokenEndpoint); err != nil {
		return nil, fail("exchange token", e.TokenEndpoint, err)
	}
	idToken, err := e.IDToken(ctx)
	if err != nil {
		return nil, fail("exchange token", e.TokenEndpoint, fmt.Errorf("oauthclient: getting the ID token: %w", err))
	}
	idp := &serverMetadata{Issuer: e.TokenEndpoint, TokenEndpoint: e.TokenEndpoint}
	f := url.Values{
		"grant_type":           {tokenExchangeGrant},
		"subject_token":        {idToken},
		"subject_token_type":   {idTokenType},
		"requested_token_type": {idJAGTokenType},
		"audience":             {g.as.Issuer},
	}
	if g.resource != "" {
		f.Set("resource", g.resource)
	}
	if len(g.scopes) > 0 {
		f.Set("scope", strings.Join(g.scopes, " "))
	}
	jag, err := g.t.tokenRequest(ctx, idp, e.Client, f)
	if err != nil {
		return nil, tokenError("exchange token", e.TokenEndpoint, err)
	}
	return JWTBearer{Assertion: func(context.Context) (string, error) { return jag.AccessToken, nil }}.token(ctx, g)
}
