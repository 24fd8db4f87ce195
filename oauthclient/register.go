package oauthclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
)

// registration returns how the client identifies itself to as: a client
// ID metadata document URL when as accepts one (SEP-991), else the
// pre-registered credentials, else its stored registration there, else a
// new dynamic registration (RFC 7591) with redirect, which is stored.
// Called with the lock held.
func (t *Transport) registration(ctx context.Context, as *serverMetadata, redirect string) (*Registration, error) {
	switch {
	case as.ClientIDMetadataDocumentSupported && t.cfg.ClientMetadataURL != "":
		return &Registration{ClientID: t.cfg.ClientMetadataURL, AuthMethod: "none"}, nil
	case t.cfg.Client != nil:
		return t.cfg.Client, nil
	case t.rec.Client != nil:
		return t.rec.Client, nil
	}
	var reg *Registration
	switch {
	case as.RegistrationEndpoint != "":
		var err error
		if reg, err = t.register(ctx, as, redirect); err != nil {
			return nil, err
		}
	default:
		return nil, fail("register", as.Issuer, ErrNoRegistration)
	}
	t.rec.Client = reg
	if err := t.save(ctx); err != nil {
		return nil, err
	}
	return reg, nil
}

// clientMetadata is the RFC 7591 §2 client metadata the client registers.
type clientMetadata struct {
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	ApplicationType         string   `json:"application_type"`
}

// registrationResponse is the RFC 7591 §3.2.1 answer, the members used.
type registrationResponse struct {
	ClientID                string `json:"client_id"`
	ClientSecret            string `json:"client_secret"`
	TokenEndpointAuthMethod string `json:"token_endpoint_auth_method"`
}

// register registers the client dynamically at as (RFC 7591) as a native
// application with redirect as its redirect URI.
func (t *Transport) register(ctx context.Context, as *serverMetadata, redirect string) (*Registration, error) {
	endpoint := as.RegistrationEndpoint
	md := clientMetadata{
		ClientName:              t.cfg.ClientName,
		RedirectURIs:            []string{redirect},
		GrantTypes:              []string{"authorization_code", "refresh_token"},
		ResponseTypes:           []string{"code"},
		TokenEndpointAuthMethod: preferredAuthMethod(as),
		ApplicationType:         "native",
	}
	body, err := json.Marshal(md)
	if err != nil {
		return nil, fail("register", endpoint, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fail("register", endpoint, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := t.http.Do(req)
	if err != nil {
		return nil, fail("register", endpoint, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		var e struct {
			Error       string `json:"error"`
			Description string `json:"error_description"`
		}
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		_ = json.Unmarshal(data, &e)
		return nil, &Error{Op: "register", URL: endpoint, Code: e.Error, Description: e.Description, Err: fmt.Errorf("oauthclient: HTTP %d", resp.StatusCode)}
	}
	var r registrationResponse
	if err := decodeJSON(resp.Body, &r); err != nil {
		return nil, fail("register", endpoint, err)
	}
	if r.ClientID == "" {
		return nil, fail("register", endpoint, fmt.Errorf("oauthclient: registration answer has no client_id"))
	}
	t.logger.Info("oauthclient: registered", "issuer", as.Issuer, "client_id", r.ClientID)
	method := r.TokenEndpointAuthMethod
	if method == "" {
		method = md.TokenEndpointAuthMethod // as registered (RFC 7591 §3.2.1)
	}
	return &Registration{ClientID: r.ClientID, ClientSecret: r.ClientSecret, AuthMethod: method, RedirectURI: redirect}, nil
}

// preferredAuthMethod is the token endpoint authentication method to
// register with: none (a public client) when the server allows it, else
// client_secret_basic, else client_secret_post. The RFC 8414 default,
// when the server says nothing, is client_secret_basic.
func preferredAuthMethod(as *serverMetadata) string {
	supported := as.TokenEndpointAuthMethodsSupported
	if len(supported) == 0 {
		return "client_secret_basic"
	}
	for _, m := range []string{"none", "client_secret_basic", "client_secret_post"} {
		if slices.Contains(supported, m) {
			return m
		}
	}
	return "client_secret_basic"
}

// authMethod is how reg authenticates at as's token endpoint: as it was
// registered, else (pre-registered credentials) the first of
// client_secret_basic and client_secret_post the server supports, or none
// without a secret.
func authMethod(as *serverMetadata, reg *Registration) string {
	if reg.AuthMethod != "" {
		return reg.AuthMethod
	}
	if reg.PrivateKey != nil {
		return "private_key_jwt"
	}
	if reg.ClientSecret == "" {
		return "none"
	}
	supported := as.TokenEndpointAuthMethodsSupported
	if len(supported) == 0 || slices.Contains(supported, "client_secret_basic") {
		return "client_secret_basic"
	}
	if slices.Contains(supported, "client_secret_post") {
		return "client_secret_post"
	}
	if slices.Contains(supported, "none") {
		return "none"
	}
	return "client_secret_basic"
}
