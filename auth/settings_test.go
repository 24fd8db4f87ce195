package auth

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/fastmcp-go/fastmcp/authinfo"
)

// TestProtectHTTPWithSettings: the settings fill in what the
// configuration leaves empty, whatever the verifier (the resource), or of
// a verifier from JWT or NewJWTVerifier (the issuer and audience); the
// challenges and metadata follow a resource the settings give; a value
// that differs from the configuration's is a *SettingConflictError.
func TestProtectHTTPWithSettings(t *testing.T) {
	const issuer, resource = "https://idp.example.com", "https://mcp.example.com/mcp"
	env := func(name, v string) authinfo.Setting { return authinfo.Setting{Value: v, From: "FASTMCP_AUTH_" + name} }
	lookup := VerifierFunc(func(context.Context, string, *http.Request) (*TokenInfo, error) { return nil, ErrInvalidToken })
	built, err := NewJWTVerifier(JWTOptions{Issuer: issuer, Audience: "api://files"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		p         *Protection
		set       authinfo.Settings
		challenge string // the 401's resource_metadata; empty: a conflict
		metadata  string
	}{
		{"resource of another verifier", Protect(lookup, func(c *ProtectOptions) { c.Metadata.AuthorizationServers = []string{issuer} }),
			authinfo.Settings{Resource: env("RESOURCE", "https://files.example.com/v1/mcp")},
			"https://files.example.com/.well-known/oauth-protected-resource/v1/mcp",
			`{"resource":"https://files.example.com/v1/mcp","authorization_servers":["https://idp.example.com"],"bearer_methods_supported":["header"]}`},
		{"issuer and audience of JWT", Protect(JWT("", "")),
			authinfo.Settings{Issuer: env("ISSUER", issuer), Audience: env("AUDIENCE", resource)},
			"https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
			`{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"bearer_methods_supported":["header"]}`},
		{"resource beside NewJWTVerifier's audience", Protect(built),
			authinfo.Settings{Issuer: env("ISSUER", issuer), Resource: env("RESOURCE", resource)},
			"https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
			`{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"bearer_methods_supported":["header"]}`},
		{"audience differs from NewJWTVerifier's", Protect(built), authinfo.Settings{Audience: env("AUDIENCE", resource)}, "", ""},
		{"JWKS URL differs from JWT's", Protect(JWT(issuer, resource, func(o *JWTOptions) { o.JWKSURL = issuer + "/jwks" })),
			authinfo.Settings{JWKSURL: env("JWKS_URL", issuer+"/keys")}, "", ""},
	} {
		protect, public, err := tc.p.ProtectHTTPWith(tc.set, slog.New(slog.DiscardHandler), nil)
		if tc.challenge == "" {
			var conflict *SettingConflictError
			if !errors.As(err, &conflict) {
				t.Errorf("%s: err = %v, want a *SettingConflictError", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		w := httptest.NewRecorder()
		protect(http.NotFoundHandler()).ServeHTTP(w, httptest.NewRequest("POST", "/mcp", nil))
		if got, want := w.Header().Get("WWW-Authenticate"), `Bearer resource_metadata="`+tc.challenge+`"`; w.Code != 401 || got != want {
			t.Errorf("%s: %d %s, want 401 %s", tc.name, w.Code, got, want)
		}
		w = httptest.NewRecorder()
		public[WellKnownPrefix].ServeHTTP(w, httptest.NewRequest("GET", WellKnownPrefix, nil))
		if got := w.Body.String(); got != tc.metadata {
			t.Errorf("%s: metadata =\n%s\nwant\n%s", tc.name, got, tc.metadata)
		}
	}
}
