package auth

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// WellKnownPrefix is the path under which RFC 9728 places protected
// resource metadata: the document for https://host/mcp is at
// https://host/.well-known/oauth-protected-resource/mcp.
const WellKnownPrefix = "/.well-known/oauth-protected-resource"

// ProtectedResourceMetadata is the OAuth 2.0 Protected Resource Metadata
// document (RFC 9728 §2) that tells clients which authorization servers
// issue tokens for the resource. MCP requires Resource and at least one
// AuthorizationServers entry; the rest is optional.
type ProtectedResourceMetadata struct {
	// Resource is the resource identifier: the canonical URL of the MCP
	// endpoint (e.g. https://mcp.example.com/mcp), which clients send as
	// the RFC 8707 resource parameter and tokens carry as audience.
	Resource string `json:"resource"`
	// AuthorizationServers are the issuer identifiers of the
	// authorization servers that issue tokens for the resource.
	AuthorizationServers []string `json:"authorization_servers,omitempty"`
	// JWKSURI is the resource's own key set, if it signs responses.
	JWKSURI string `json:"jwks_uri,omitempty"`
	// ScopesSupported are the scopes a client should ask for to use the
	// resource's basic features.
	ScopesSupported []string `json:"scopes_supported,omitempty"`
	// BearerMethodsSupported are the ways the resource accepts a token;
	// RequireBearerToken accepts only "header".
	BearerMethodsSupported []string `json:"bearer_methods_supported,omitempty"`
	// ResourceSigningAlgValuesSupported are the algorithms the resource
	// signs responses with.
	ResourceSigningAlgValuesSupported []string `json:"resource_signing_alg_values_supported,omitempty"`
	// ResourceName is a name for the resource that clients may show to
	// the user.
	ResourceName string `json:"resource_name,omitempty"`
	// ResourceDocumentation is a URL of documentation for developers.
	ResourceDocumentation string `json:"resource_documentation,omitempty"`
	// ResourcePolicyURI is a URL of the resource's data usage policy.
	ResourcePolicyURI string `json:"resource_policy_uri,omitempty"`
	// ResourceTOSURI is a URL of the resource's terms of service.
	ResourceTOSURI string `json:"resource_tos_uri,omitempty"`
	// TLSClientCertificateBoundAccessTokens says the resource supports
	// mutual-TLS bound tokens (RFC 8705).
	TLSClientCertificateBoundAccessTokens bool `json:"tls_client_certificate_bound_access_tokens,omitempty"`
	// AuthorizationDetailsTypesSupported are the RFC 9396 authorization
	// details types the resource understands.
	AuthorizationDetailsTypesSupported []string `json:"authorization_details_types_supported,omitempty"`
	// DPoPSigningAlgValuesSupported are the algorithms the resource
	// accepts for DPoP proofs (RFC 9449).
	DPoPSigningAlgValuesSupported []string `json:"dpop_signing_alg_values_supported,omitempty"`
	// DPoPBoundAccessTokensRequired says the resource accepts only
	// DPoP-bound tokens.
	DPoPBoundAccessTokensRequired bool `json:"dpop_bound_access_tokens_required,omitempty"`
}

// WellKnownPath returns the path of the metadata document of resource
// (RFC 9728 §3.1): WellKnownPrefix followed by the resource's path without
// its trailing slash, so "/.well-known/oauth-protected-resource/mcp" for
// https://host/mcp and "/.well-known/oauth-protected-resource" for
// https://host.
func WellKnownPath(resource string) (string, error) {
	u, err := parseResource(resource)
	if err != nil {
		return "", err
	}
	return WellKnownPrefix + strings.TrimSuffix(u.EscapedPath(), "/"), nil
}

// WellKnownURL returns the absolute URL of the metadata document of
// resource: what RequireBearerToken names in resource_metadata.
func WellKnownURL(resource string) (string, error) {
	u, err := parseResource(resource)
	if err != nil {
		return "", err
	}
	p := WellKnownPrefix + strings.TrimSuffix(u.EscapedPath(), "/")
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: p}).String(), nil
}

func parseResource(resource string) (*url.URL, error) {
	u, err := url.Parse(resource)
	if err != nil {
		return nil, fmt.Errorf("auth: resource %q: %w", resource, err)
	}
	if (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Fragment != "" || u.RawQuery != "" || u.User != nil {
		return nil, fmt.Errorf("auth: resource %q: must be an absolute http(s) URL without query, fragment or user info", resource)
	}
	return u, nil
}

// MetadataCacheMaxAge is how long clients and caches may keep the
// metadata document (the Cache-Control max-age MetadataHandler sends).
const MetadataCacheMaxAge = time.Hour

// MetadataHandler returns a handler that serves m as JSON. Mount it at
// WellKnownPath(m.Resource), outside any Origin or Host check and outside
// RequireBearerToken: the document is public, and browser-based clients
// fetch it cross-origin. It answers GET and HEAD (with an ETag, so a
// conditional request gets 304, and Cache-Control: public), OPTIONS as a
// CORS preflight, and other methods with 405. Every answer allows any
// origin and sends no credentials. The document is encoded once, when the
// handler is made; later changes to m are not seen. It returns an error
// when m has no valid Resource.
func MetadataHandler(m *ProtectedResourceMetadata) (http.Handler, error) {
	if _, err := parseResource(m.Resource); err != nil {
		return nil, err
	}
	body, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("auth: encoding metadata: %w", err)
	}
	sum := sha256.Sum256(body)
	etag := `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`
	return &metadataHandler{body: body, etag: etag}, nil
}

type metadataHandler struct {
	body []byte
	etag string
}

const corsAllowHeaders = "Authorization, Content-Type, Mcp-Protocol-Version"

func (h *metadataHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Access-Control-Allow-Origin", "*")
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		hd.Set("Content-Type", "application/json")
		hd.Set("Cache-Control", fmt.Sprintf("public, max-age=%d", int(MetadataCacheMaxAge/time.Second)))
		hd.Set("ETag", h.etag)
		hd.Set("X-Content-Type-Options", "nosniff")
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(h.body))
	case http.MethodOptions:
		hd.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
		hd.Set("Access-Control-Allow-Headers", corsAllowHeaders)
		hd.Set("Access-Control-Max-Age", "86400")
		w.WriteHeader(http.StatusNoContent)
	default:
		hd.Set("Allow", "GET, HEAD, OPTIONS")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}
