package oauthproxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
	"golang.org/x/oauth2"

	"github.com/fastmcp-go/fastmcp/authinfo"
	"github.com/fastmcp-go/fastmcp/internal/sealedstate"
	"github.com/fastmcp-go/fastmcp/store"
)

// ErrNoUpstreamToken is matched by UpstreamToken's error when the request
// carries no token of the authorization server, or its user's upstream
// token is not kept (never, expired, or sealed under a key the ring
// dropped): the user signs in again.
var ErrNoUpstreamToken = errors.New("oauthproxy: no upstream token for this request's user")

// sealBinding is what the sealed upstream tokens are bound to.
const sealBinding = "oauthproxy upstream token"

// principal names a user through a client at the issuer, as the
// principal of the tokens the authorization server issues to it.
func principal(issuer, subject, clientID string) string {
	return (&authinfo.TokenInfo{Issuer: issuer, Subject: subject, ClientID: clientID}).Principal()
}

// tokenOf returns the verified token of ctx: a fastmcp.Context's Auth(),
// or the token a bearer middleware put in a request's context.
func tokenOf(ctx context.Context) *authinfo.TokenInfo {
	if a, ok := ctx.(interface{ Auth() *authinfo.TokenInfo }); ok {
		return a.Auth()
	}
	return authinfo.FromContext(ctx)
}

// keep seals tok and stores it for the principal.
func (l *Login) keep(ctx context.Context, p string, tok *oauth2.Token) error {
	raw, err := json.Marshal(tok)
	if err != nil {
		return err
	}
	sealed, err := l.sealer.Seal(&sealedstate.State{Binding: sealBinding, Principal: p, Answers: map[string]jsontext.Value{"token": raw}})
	if err != nil {
		return err
	}
	return l.cfg.Store.Set(ctx, keyToken+p, []byte(sealed), l.cfg.TokenTTL)
}

// UpstreamToken returns the upstream token of the user of ctx's verified
// access token, issued by the authorization server this Login serves: ctx
// is a tool's *fastmcp.Context (its Auth()), or an HTTP request's context
// behind the bearer middleware (authinfo.FromContext), refreshed through the upstream
// when it has expired and can be. Tools call upstream APIs on the user's
// behalf with it:
//
//	tok, err := proxy.UpstreamToken(ctx)
//	if err != nil {
//		return "", err
//	}
//	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
//
// Its error matches ErrNoUpstreamToken when there is none.
func (l *Login) UpstreamToken(ctx context.Context) (*oauth2.Token, error) {
	info := tokenOf(ctx)
	if info == nil || info.Issuer != l.cfg.Issuer || info.Subject == "" {
		return nil, ErrNoUpstreamToken
	}
	p := info.Principal()
	b, err := l.cfg.Store.Get(ctx, keyToken+p)
	if errors.Is(err, store.ErrKeyNotFound) {
		return nil, ErrNoUpstreamToken
	} else if err != nil {
		return nil, err
	}
	st, err := l.sealer.Open(string(b), sealBinding, p)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoUpstreamToken, err)
	}
	var tok oauth2.Token
	if err := json.Unmarshal(st.Answers["token"], &tok); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoUpstreamToken, err)
	}
	if tok.Valid() {
		return &tok, nil
	}
	if tok.RefreshToken == "" {
		return nil, fmt.Errorf("%w: it expired, and the upstream gave no refresh token", ErrNoUpstreamToken)
	}
	fresh, err := l.oauth.TokenSource(context.WithValue(ctx, oauth2.HTTPClient, l.cfg.HTTPClient), &tok).Token()
	if err != nil {
		return nil, fmt.Errorf("oauthproxy: refreshing the upstream token: %w", err)
	}
	if err := l.keep(ctx, p, fresh); err != nil {
		return nil, err
	}
	return fresh, nil
}
