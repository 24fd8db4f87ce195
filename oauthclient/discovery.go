package oauthclient

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/fastmcp-go/fastmcp/internal/oauthmeta"
)

// resourceMetadata is protected resource metadata (RFC 9728 §2).
type resourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// serverMetadata is authorization server metadata (RFC 8414 §2, OpenID
// Connect Discovery), the members the client uses.
type serverMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
	IssParameterSupported             bool     `json:"authorization_response_iss_parameter_supported"`
	DPoPSigningAlgValuesSupported     []string `json:"dpop_signing_alg_values_supported"`
	// OpenID Connect Discovery members, which tell an OpenID provider.
	IDTokenSigningAlgValuesSupported []string `json:"id_token_signing_alg_values_supported"`
	PromptValuesSupported            []string `json:"prompt_values_supported"`

	// openID: found at an openid-configuration URL.
	openID bool
	// legacy: found (or made up) by the 2025-03-26 rules, without
	// protected resource metadata; its issuer is not checked.
	legacy bool
}

// discoverResource finds the protected resource metadata of the MCP server
// at server (RFC 9728 §3, MCP 2025-11-25 "Protected Resource Metadata
// Discovery"): the challenge's resource_metadata URL when given, else the
// path-aware well-known URL, then the root one. It returns nil, nil when
// the server publishes none (a 2025-03-26 server). Metadata for another
// resource is refused with ErrResourceMismatch.
func (t *Transport) discoverResource(ctx context.Context, server *url.URL, hinted string) (*resourceMetadata, error) {
	var candidates []string
	if hinted != "" {
		candidates = append(candidates, hinted)
	}
	origin := server.Scheme + "://" + server.Host
	if p := strings.TrimSuffix(server.EscapedPath(), "/"); p != "" {
		candidates = append(candidates, origin+"/.well-known/oauth-protected-resource"+p)
	}
	candidates = append(candidates, origin+"/.well-known/oauth-protected-resource")
	for _, c := range candidates {
		var m resourceMetadata
		err := getJSON(ctx, t.http, c, &m)
		if errors.Is(err, errNotFound) {
			continue
		}
		if err != nil {
			return nil, fail("discover resource metadata", c, err)
		}
		if m.Resource == "" {
			return nil, fail("discover resource metadata", c, errors.New("oauthclient: metadata has no resource"))
		}
		if !resourceMatches(m.Resource, server) {
			return nil, fail("discover resource metadata", c, fmt.Errorf("%w: %q is not %s", ErrResourceMismatch, m.Resource, server))
		}
		return &m, nil
	}
	return nil, nil
}

// resourceMatches reports whether the resource identifier r covers the
// server URL: same scheme and host, and r's path is the server's path or a
// parent of it (RFC 9728 §3.3; a PRM at the root names the origin).
func resourceMatches(r string, server *url.URL) bool {
	u, err := url.Parse(r)
	if err != nil || u.Fragment != "" {
		return false
	}
	if !strings.EqualFold(u.Scheme, server.Scheme) || !strings.EqualFold(hostPort(u), hostPort(server)) {
		return false
	}
	want := strings.TrimSuffix(u.EscapedPath(), "/")
	have := strings.TrimSuffix(server.EscapedPath(), "/")
	return want == "" || have == want || strings.HasPrefix(have, want+"/")
}

// hostPort is u's host with the scheme's default port made explicit.
func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return u.Host + ":443"
	case "http":
		return u.Host + ":80"
	}
	return u.Host
}

// discoverServer fetches the metadata of the authorization server issuer
// and checks that it is the issuer's own (RFC 8414 §3.3).
func (t *Transport) discoverServer(ctx context.Context, issuer string) (*serverMetadata, error) {
	u, err := checkEndpoint(issuer)
	if err != nil {
		return nil, fail("discover authorization server", issuer, err)
	}
	for _, c := range oauthmeta.MetadataURLs(u) {
		var m serverMetadata
		err := getJSON(ctx, t.http, c, &m)
		if errors.Is(err, errNotFound) {
			continue
		}
		if err != nil {
			return nil, fail("discover authorization server", c, err)
		}
		if m.Issuer != issuer {
			return nil, fail("discover authorization server", c, fmt.Errorf("%w: metadata names issuer %q, expected %q", ErrIssuerMismatch, m.Issuer, issuer))
		}
		if err := m.check(); err != nil {
			return nil, fail("discover authorization server", c, err)
		}
		m.openID = strings.Contains(c, "/.well-known/openid-configuration")
		return &m, nil
	}
	return nil, fail("discover authorization server", issuer, ErrNoMetadata)
}

// discoverLegacy finds the authorization server of a 2025-03-26 server,
// which publishes no resource metadata: the metadata at the root of the
// server's origin, else the default endpoints there (MCP 2025-03-26
// "Fallbacks for Servers without Metadata Discovery").
func (t *Transport) discoverLegacy(ctx context.Context, server *url.URL) (*serverMetadata, error) {
	origin := server.Scheme + "://" + server.Host
	c := origin + "/.well-known/oauth-authorization-server"
	var m serverMetadata
	err := getJSON(ctx, t.http, c, &m)
	switch {
	case errors.Is(err, errNotFound):
		m = serverMetadata{
			Issuer:                        origin,
			AuthorizationEndpoint:         origin + "/authorize",
			TokenEndpoint:                 origin + "/token",
			RegistrationEndpoint:          origin + "/register",
			CodeChallengeMethodsSupported: []string{"S256"},
		}
	case err != nil:
		return nil, fail("discover authorization server", c, err)
	}
	m.legacy = true
	if err := m.check(); err != nil {
		return nil, fail("discover authorization server", c, err)
	}
	return &m, nil
}

// check refuses metadata the client cannot use safely.
func (m *serverMetadata) check() error {
	for _, e := range []string{m.AuthorizationEndpoint, m.TokenEndpoint, m.RegistrationEndpoint} {
		if e == "" {
			continue
		}
		if _, err := checkEndpoint(e); err != nil {
			return err
		}
	}
	if m.TokenEndpoint == "" {
		return errors.New("oauthclient: metadata has no token_endpoint")
	}
	return nil
}

// supportsPKCE reports whether the server advertises PKCE with S256. A
// server whose metadata leaves the member out does not (MCP 2025-11-25
// "Authorization Code Protection"), except a 2025-03-26 one.
func (m *serverMetadata) supportsPKCE() bool {
	return slices.Contains(m.CodeChallengeMethodsSupported, "S256") || (m.legacy && len(m.CodeChallengeMethodsSupported) == 0)
}

// isOpenIDProvider reports whether the metadata is an OpenID provider's:
// found at an openid-configuration URL, or with members only OpenID
// Connect Discovery defines (the openid scope, ID token algorithms).
func (m *serverMetadata) isOpenIDProvider() bool {
	return m.openID || slices.Contains(m.ScopesSupported, "openid") || len(m.IDTokenSigningAlgValuesSupported) > 0
}

// consentPrompt reports whether an authorization request for scopes should
// carry prompt=consent: it asks for offline_access from an OpenID provider
// that accepts the prompt, which OpenID Connect Core §11 requires for a
// refresh token (without it a provider may drop the scope).
func (m *serverMetadata) consentPrompt(scopes []string) bool {
	return slices.Contains(scopes, "offline_access") && m.isOpenIDProvider() &&
		(m.PromptValuesSupported == nil || slices.Contains(m.PromptValuesSupported, "consent"))
}
