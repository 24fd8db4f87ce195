package fastmcp

import (
	"log/slog"
	"testing"
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
