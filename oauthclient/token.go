package oauthclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// refresh replaces the current token using its refresh token (RFC 6749
// §6), with the resource indicator (RFC 8707 §2.2). Called with the lock
// held.
func (t *Transport) refresh(ctx context.Context) error {
	old := t.rec.Token
	if t.as == nil || t.as.Issuer != t.rec.Issuer {
		// After a restart: the stored token's issuer, found again.
		as, err := t.discoverServer(ctx, t.rec.Issuer)
		if err != nil {
			return err
		}
		t.as = as
	}
	if t.rec.Client == nil {
		return fail("refresh", t.as.TokenEndpoint, ErrNoRegistration)
	}
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {old.RefreshToken}}
	if t.rec.Resource != "" {
		form.Set("resource", t.rec.Resource)
	}
	tok, err := t.tokenRequest(ctx, t.as, t.rec.Client, form)
	if err != nil {
		return tokenError("refresh", t.as.TokenEndpoint, err)
	}
	if tok.RefreshToken == "" {
		tok.RefreshToken = old.RefreshToken // RFC 6749 §6: the old one stays valid
	}
	t.rec.Token = tok
	return t.save(ctx)
}

// tokenRequest POSTs form to as's token endpoint, authenticating as reg,
// and decodes the token (RFC 6749 §5). A refusal is an
// *oauth2.RetrieveError, as x/oauth2 reports it.
func (t *Transport) tokenRequest(ctx context.Context, as *serverMetadata, reg *Registration, form url.Values) (*oauth2.Token, error) {
	form = cloneValues(form)
	method := authMethod(as, reg)
	switch method {
	case "client_secret_post":
		form.Set("client_id", reg.ClientID)
		form.Set("client_secret", reg.ClientSecret)
	case "client_secret_basic":
	case "private_key_jwt":
		if reg.PrivateKey == nil {
			return nil, fmt.Errorf("oauthclient: client %s authenticates with private_key_jwt but has no PrivateKey", reg.ClientID)
		}
		a, err := clientAssertion(reg, as.Issuer)
		if err != nil {
			return nil, err
		}
		form.Set("client_id", reg.ClientID)
		form.Set("client_assertion_type", clientAssertionType)
		form.Set("client_assertion", a)
	default:
		form.Set("client_id", reg.ClientID)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, as.TokenEndpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if method == "client_secret_basic" {
		req.SetBasicAuth(url.QueryEscape(reg.ClientID), url.QueryEscape(reg.ClientSecret))
	}
	resp, err := t.tokenClient(as).Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return decodeToken(resp)
}

// tokenClient is the HTTP client for as's token endpoint: with DPoP proofs
// when the client binds tokens and as supports it.
func (t *Transport) tokenClient(as *serverMetadata) *http.Client {
	if t.dpop == nil || !as.dpopSupported() {
		return t.http
	}
	c := *t.http
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = &dpopTransport{base: base, d: t.dpop}
	return &c
}

// decodeToken reads a token endpoint answer.
func decodeToken(resp *http.Response) (*oauth2.Token, error) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument+1))
	if err != nil {
		return nil, fmt.Errorf("oauthclient: reading the token answer: %w", err)
	}
	if len(body) > maxDocument {
		return nil, fmt.Errorf("oauthclient: token answer over %d bytes", maxDocument)
	}
	var v struct {
		AccessToken  string      `json:"access_token"`
		TokenType    string      `json:"token_type"`
		RefreshToken string      `json:"refresh_token"`
		ExpiresIn    json.Number `json:"expires_in"`
		Error        string      `json:"error"`
		Description  string      `json:"error_description"`
		URI          string      `json:"error_uri"`
	}
	ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	jsonErr := errors.New("oauthclient: token answer is not JSON")
	if ct == "application/json" || ct == "" {
		jsonErr = json.Unmarshal(body, &v)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 || v.Error != "" {
		return nil, &oauth2.RetrieveError{Response: resp, Body: body, ErrorCode: v.Error, ErrorDescription: v.Description, ErrorURI: v.URI}
	}
	if jsonErr != nil {
		return nil, jsonErr
	}
	if v.AccessToken == "" {
		return nil, errors.New("oauthclient: token answer has no access_token")
	}
	tok := &oauth2.Token{AccessToken: v.AccessToken, TokenType: v.TokenType, RefreshToken: v.RefreshToken}
	if n, err := v.ExpiresIn.Int64(); err == nil && n > 0 {
		tok.ExpiresIn = n
		tok.Expiry = time.Now().Add(time.Duration(n) * time.Second)
	}
	return tok, nil
}

func cloneValues(v url.Values) url.Values {
	c := make(url.Values, len(v))
	for k, vs := range v {
		c[k] = append([]string(nil), vs...)
	}
	return c
}
