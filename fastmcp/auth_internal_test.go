package fastmcp

import (
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/auth"
)

// TestResourceMetadataURL checks the URL that 401 and 403 challenges
// name (resourceMetadataURL, used for the scope challenges of
// RequireScopes): derived from the resource, following a resource set in
// configure, kept when set on purpose, and "" without a valid Auth option.
func TestResourceMetadataURL(t *testing.T) {
	const (
		issuer   = "https://idp.example.com"
		resource = "https://mcp.example.com/mcp"
	)
	for _, tc := range []struct {
		name string
		opts []Option
		want string
	}{
		{"no Auth", nil, ""},
		{"JWTVerifier", []Option{Auth(JWTVerifier(issuer, resource))}, "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"},
		{"resource at the root", []Option{Auth(JWTVerifier(issuer, "https://mcp.example.com/"))}, "https://mcp.example.com/.well-known/oauth-protected-resource"},
		{"resource changed", []Option{Auth(JWTVerifier(issuer, "api://files"), func(c *AuthConfig) {
			c.Metadata.Resource = "https://files.example.com/v1/mcp"
		})}, "https://files.example.com/.well-known/oauth-protected-resource/v1/mcp"},
		{"set on purpose", []Option{Auth(JWTVerifier(issuer, resource), func(c *AuthConfig) {
			c.Metadata.Resource = "https://other.example.com/mcp"
			c.Bearer.ResourceMetadataURL = "https://docs.example.com/prm.json"
		})}, "https://docs.example.com/prm.json"},
		{"invalid Auth", []Option{Auth(JWTVerifier("http://idp.example.com", resource))}, ""},
	} {
		s := New("t", "1", append(tc.opts, Logger(slog.New(slog.DiscardHandler)))...)
		if got := s.resourceMetadataURL(); got != tc.want {
			t.Errorf("%s: resourceMetadataURL() = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestAuthMetadataDefaults checks the metadata fields Auth derives after
// the configure functions ran: scopes_supported from Bearer.Scopes, the
// DPoP fields from Bearer.DPoP; fields set on purpose are kept.
func TestAuthMetadataDefaults(t *testing.T) {
	for _, tc := range []struct {
		name      string
		configure func(*AuthConfig)
		want      string
	}{
		{"defaults", func(*AuthConfig) {},
			`{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"bearer_methods_supported":["header"]}`},
		{"scopes", func(c *AuthConfig) { c.Bearer.Scopes = []string{"files:read"} },
			`{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"scopes_supported":["files:read"],"bearer_methods_supported":["header"]}`},
		{"scopes set on purpose", func(c *AuthConfig) {
			c.Bearer.Scopes = []string{"files:read"}
			c.Metadata.ScopesSupported = []string{"files:read", "files:write"}
		}, `{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"scopes_supported":["files:read","files:write"],"bearer_methods_supported":["header"]}`},
		{"DPoP required", func(c *AuthConfig) { c.Bearer.DPoP = &auth.DPoPOptions{Required: true, Algorithms: []string{"ES256"}} },
			`{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"bearer_methods_supported":["header"],"dpop_signing_alg_values_supported":["ES256"],"dpop_bound_access_tokens_required":true}`},
		{"DPoP default algorithms", func(c *AuthConfig) { c.Bearer.DPoP = &auth.DPoPOptions{} },
			`{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"bearer_methods_supported":["header"],"dpop_signing_alg_values_supported":["` + strings.Join(auth.DefaultAlgorithms, `","`) + `"]}`},
	} {
		a, err := newAuthState(&authOption{verifier: JWTVerifier("https://idp.example.com", "https://mcp.example.com/mcp"), configure: []func(*AuthConfig){tc.configure}}, slog.New(slog.DiscardHandler), nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		w := httptest.NewRecorder()
		a.metadata.ServeHTTP(w, httptest.NewRequest("GET", "/.well-known/oauth-protected-resource/mcp", nil))
		if got := w.Body.String(); got != tc.want {
			t.Errorf("%s: metadata =\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}
