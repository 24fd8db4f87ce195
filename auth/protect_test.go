package auth

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestResourceMetadataURL checks the URL that the middleware's
// challenges name (and the step-up answers of fastmcp's RequireScopes):
// derived from the resource, following a resource set in configure, kept
// when set on purpose; and that an invalid verifier is an error.
func TestResourceMetadataURL(t *testing.T) {
	const (
		issuer   = "https://idp.example.com"
		resource = "https://mcp.example.com/mcp"
	)
	for _, tc := range []struct {
		name string
		p    *Protection
		want string
	}{
		{"JWT", Protect(JWT(issuer, resource)), "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"},
		{"resource at the root", Protect(JWT(issuer, "https://mcp.example.com/")), "https://mcp.example.com/.well-known/oauth-protected-resource"},
		{"resource changed", Protect(JWT(issuer, "api://files"), func(c *ProtectOptions) {
			c.Metadata.Resource = "https://files.example.com/v1/mcp"
		}), "https://files.example.com/.well-known/oauth-protected-resource/v1/mcp"},
		{"set on purpose", Protect(JWT(issuer, resource), func(c *ProtectOptions) {
			c.Metadata.Resource = "https://other.example.com/mcp"
			c.Bearer.ResourceMetadataURL = "https://docs.example.com/prm.json"
		}), "https://docs.example.com/prm.json"},
		{"invalid JWT", Protect(JWT("http://idp.example.com", resource)), ""},
	} {
		protect, _, err := tc.p.ProtectHTTP(slog.New(slog.DiscardHandler), nil)
		if tc.want == "" {
			if err == nil || !strings.Contains(err.Error(), "auth: JWT: ") {
				t.Errorf("%s: err = %v, want auth: JWT: ...", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		w := httptest.NewRecorder()
		protect(http.NotFoundHandler()).ServeHTTP(w, httptest.NewRequest("POST", "/mcp", nil))
		if got, want := w.Header().Get("WWW-Authenticate"), `Bearer resource_metadata="`+tc.want+`"`; w.Code != 401 || got != want {
			t.Errorf("%s: %d %s, want 401 %s", tc.name, w.Code, got, want)
		}
	}
}

// TestAuthMetadataDefaults checks the metadata fields Protect derives after
// the configure functions ran: scopes_supported from Bearer.Scopes, the
// DPoP fields from Bearer.DPoP; fields set on purpose are kept.
func TestAuthMetadataDefaults(t *testing.T) {
	for _, tc := range []struct {
		name      string
		configure func(*ProtectOptions)
		want      string
	}{
		{"defaults", func(*ProtectOptions) {},
			`{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"bearer_methods_supported":["header"]}`},
		{"scopes", func(c *ProtectOptions) { c.Bearer.Scopes = []string{"files:read"} },
			`{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"scopes_supported":["files:read"],"bearer_methods_supported":["header"]}`},
		{"scopes set on purpose", func(c *ProtectOptions) {
			c.Bearer.Scopes = []string{"files:read"}
			c.Metadata.ScopesSupported = []string{"files:read", "files:write"}
		}, `{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"scopes_supported":["files:read","files:write"],"bearer_methods_supported":["header"]}`},
		{"DPoP required", func(c *ProtectOptions) { c.Bearer.DPoP = &DPoPOptions{Required: true, Algorithms: []string{"ES256"}} },
			`{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"bearer_methods_supported":["header"],"dpop_signing_alg_values_supported":["ES256"],"dpop_bound_access_tokens_required":true}`},
		{"DPoP default algorithms", func(c *ProtectOptions) { c.Bearer.DPoP = &DPoPOptions{} },
			`{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"bearer_methods_supported":["header"],"dpop_signing_alg_values_supported":["` + strings.Join(DefaultAlgorithms, `","`) + `"]}`},
	} {
		_, public, err := Protect(JWT("https://idp.example.com", "https://mcp.example.com/mcp"), tc.configure).ProtectHTTP(slog.New(slog.DiscardHandler), nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(public) != 2 || public[WellKnownPrefix] == nil {
			t.Fatalf("%s: public = %v, want the well-known path and prefix", tc.name, public)
		}
		w := httptest.NewRecorder()
		public["/.well-known/oauth-protected-resource/mcp"].ServeHTTP(w, httptest.NewRequest("GET", "/.well-known/oauth-protected-resource/mcp", nil))
		if got := w.Body.String(); got != tc.want {
			t.Errorf("%s: metadata =\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}
