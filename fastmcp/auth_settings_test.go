package fastmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
)

// authSetting is one way a test gives the Auth option's values: the
// issuer and audience passed to auth.JWT, a configure function of
// Protect, the environment and the flags. Values may name $IS (the
// issuer), $OTHER (a second authorization server, with other keys) and
// $RES (the MCP endpoint's URL), replaced when the test knows them.
type authSetting struct {
	issuer, audience string
	resource         string // set by a configure function of Protect, when not empty
	env              map[string]string
	flags            []string
	none             bool             // no Auth option
	http             fastmcp.HTTPAuth // the Auth option's, instead of auth.Protect(auth.JWT(…))
}

// clearAuthEnv unsets the auth variables a developer's shell may hold.
func clearAuthEnv(t *testing.T) {
	for _, k := range []string{"FASTMCP_AUTH_ISSUER", "FASTMCP_AUTH_AUDIENCE", "FASTMCP_AUTH_RESOURCE", "FASTMCP_AUTH_JWKS_URL"} {
		t.Setenv(k, "")
	}
}

// server returns a server protected as a says, with its flags parsed and
// its variables set (t.Setenv: the test must not be parallel).
func (a authSetting) server(t *testing.T, r *strings.Replacer, opts ...fastmcp.Option) *fastmcp.Server {
	t.Helper()
	clearAuthEnv(t)
	for k, v := range a.env {
		t.Setenv(k, r.Replace(v))
	}
	var configure []func(*auth.ProtectOptions)
	if a.resource != "" {
		configure = append(configure, func(o *auth.ProtectOptions) { o.Metadata.Resource = r.Replace(a.resource) })
	}
	switch {
	case a.http != nil:
		opts = append(opts, fastmcp.Auth(a.http))
	case !a.none:
		opts = append(opts, fastmcp.Auth(auth.Protect(auth.JWT(r.Replace(a.issuer), r.Replace(a.audience)), configure...)))
	}
	s := newServer(opts...)
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	s.Flags(fs)
	flags := make([]string, len(a.flags))
	for i, f := range a.flags {
		flags[i] = r.Replace(f)
	}
	if err := fs.Parse(flags); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestAuthSettings: the issuer, audience, resource and JWKS URL a served
// request is checked against come from auth.JWT's arguments, the
// environment or the flags (flag over variable), over a real HTTP server
// (Run, and mounted as an http.Handler) with real tokens signed by a test
// authorization server's key: a token for another audience, or signed by
// another key, is refused.
func TestAuthSettings(t *testing.T) {
	is := oauthtest.NewServer(t, oauthtest.Options{})
	other := oauthtest.NewServer(t, oauthtest.Options{})
	const staging = "https://staging.example.com/mcp"
	type token struct{ by, aud string } // by: "is" or "other" (which then claims to be $IS)
	for _, tc := range []struct {
		name           string
		set            authSetting
		accept, refuse []token
		resource       string // the resource the metadata publishes; default $RES
	}{
		{name: "config",
			set:    authSetting{issuer: "$IS", audience: "$RES"},
			accept: []token{{"is", "$RES"}}, refuse: []token{{"is", staging}, {"other", "$RES"}}},
		{name: "environment",
			set:    authSetting{env: map[string]string{"FASTMCP_AUTH_ISSUER": "$IS", "FASTMCP_AUTH_AUDIENCE": "$RES"}},
			accept: []token{{"is", "$RES"}}, refuse: []token{{"is", staging}, {"other", "$RES"}}},
		{name: "flag over environment",
			set:    authSetting{env: map[string]string{"FASTMCP_AUTH_ISSUER": "$IS", "FASTMCP_AUTH_AUDIENCE": staging}, flags: []string{"-auth-audience=$RES"}},
			accept: []token{{"is", "$RES"}}, refuse: []token{{"is", staging}}},
		{name: "config issuer, flag audience",
			set:    authSetting{issuer: "$IS", flags: []string{"-auth-audience", "$RES"}},
			accept: []token{{"is", "$RES"}}, refuse: []token{{"is", staging}}},
		{name: "audience not the endpoint's URL, resource from the environment",
			set:    authSetting{env: map[string]string{"FASTMCP_AUTH_ISSUER": "$IS", "FASTMCP_AUTH_AUDIENCE": "api://files", "FASTMCP_AUTH_RESOURCE": "$RES"}},
			accept: []token{{"is", "api://files"}}, refuse: []token{{"is", "$RES"}}},
		{name: "audience as resource by default",
			set:    authSetting{env: map[string]string{"FASTMCP_AUTH_ISSUER": "$IS", "FASTMCP_AUTH_AUDIENCE": "$BASE/api/mcp"}},
			accept: []token{{"is", "$BASE/api/mcp"}}, refuse: []token{{"is", "$RES"}},
			resource: "$BASE/api/mcp"},
		{name: "JWKS URL from the environment",
			set:    authSetting{issuer: "$IS", audience: "$RES", env: map[string]string{"FASTMCP_AUTH_JWKS_URL": "$OTHER/jwks"}},
			accept: []token{{"other", "$RES"}}, refuse: []token{{"is", "$RES"}}},
	} {
		for _, mounted := range []bool{false, true} {
			name := tc.name + ", Run"
			if mounted {
				name = tc.name + ", mounted"
			}
			t.Run(name, func(t *testing.T) {
				base, opts, serve := serveLater(t, mounted)
				r := strings.NewReplacer("$IS", is.URL(), "$OTHER", other.URL(), "$RES", base+"/mcp", "$BASE", base)
				s := tc.set.server(t, r, opts...)
				serve(s)
				check := func(tk token, want int) {
					as := is
					claims := map[string]any(nil)
					if tk.by == "other" {
						as, claims = other, map[string]any{"iss": is.URL()}
					}
					a := send(t, "POST", base+"/mcp", initializeBody, bearer(mint(t, as, "alice", r.Replace(tk.aud), claims)))
					if a.status != want {
						t.Errorf("token of %s for %s: %d %q, want %d", tk.by, tk.aud, a.status, a.header.Get("WWW-Authenticate"), want)
					}
				}
				for _, tk := range tc.accept {
					check(tk, http.StatusOK)
				}
				for _, tk := range tc.refuse {
					check(tk, http.StatusUnauthorized)
				}
				want := "$RES"
				if tc.resource != "" {
					want = tc.resource
				}
				code, body := get(t, base+"/.well-known/oauth-protected-resource")
				var md struct {
					Resource             string   `json:"resource"`
					AuthorizationServers []string `json:"authorization_servers"`
				}
				if err := json.Unmarshal([]byte(body), &md); code != 200 || err != nil || md.Resource != r.Replace(want) || len(md.AuthorizationServers) != 1 || md.AuthorizationServers[0] != is.URL() {
					t.Errorf("metadata: %d %s, want resource %s and issuer %s", code, body, r.Replace(want), is.URL())
				}
			})
		}
	}
}

// serveLater returns the base URL a server will be served at, the
// options New needs for it, and the function that serves it there: with
// Run on a Listener, or mounted in an httptest.Server.
func serveLater(t *testing.T, mounted bool) (string, []fastmcp.Option, func(*fastmcp.Server)) {
	t.Helper()
	if mounted {
		ts := httptest.NewUnstartedServer(nil)
		return "http://" + ts.Listener.Addr().String(), nil, func(s *fastmcp.Server) {
			ts.Config.Handler = s
			ts.Start()
			t.Cleanup(func() { closeNow(s); ts.Close() })
		}
	}
	ln := listenLoopback(t)
	return "http://" + ln.Addr().String(), []fastmcp.Option{fastmcp.Listener(ln)}, func(s *fastmcp.Server) { serveOn(t, s, ln) }
}

// plainAuth is an HTTPAuth without ProtectHTTPWith: it takes no settings.
type plainAuth struct{}

func (plainAuth) ProtectHTTP(*slog.Logger, func() []string) (func(http.Handler) http.Handler, map[string]http.Handler, error) {
	return func(h http.Handler) http.Handler { return h }, nil, nil
}

// TestAuthSettingErrors: an auth setting that differs from the value the
// code configures, one given to a server without the Auth option or whose
// HTTPAuth or verifier takes none, a value missing everywhere and an
// invalid one stop Run with an error that names the setting (and both
// values of a conflict, a *auth.SettingConflictError); a mounted server
// answers 503.
func TestAuthSettingErrors(t *testing.T) {
	const idp, elsewhere = "https://idp.example.com", "https://mcp.example.com/mcp"
	other := auth.VerifierFunc(func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
		return nil, auth.ErrInvalidToken
	})
	for _, tc := range []struct {
		name     string
		set      authSetting
		want     string
		conflict bool
	}{
		{name: "issuer from the environment differs from auth.JWT's",
			set:  authSetting{issuer: idp, audience: "$RES", env: map[string]string{"FASTMCP_AUTH_ISSUER": "https://idp.staging.example.com"}},
			want: `fastmcp: Auth: auth: setting FASTMCP_AUTH_ISSUER="https://idp.staging.example.com" differs from the issuer the code configures ("https://idp.example.com"): leave one of them empty, or make them equal`, conflict: true},
		{name: "audience flag differs from auth.JWT's",
			set:  authSetting{issuer: idp, audience: "$RES", flags: []string{"-auth-audience=" + elsewhere}},
			want: `fastmcp: Auth: auth: setting flag -auth-audience="https://mcp.example.com/mcp" differs from the audience the code configures ("$RES"): leave one of them empty, or make them equal`, conflict: true},
		{name: "resource from the environment differs from the configured one",
			set:  authSetting{issuer: idp, audience: "api://files", resource: "$RES", env: map[string]string{"FASTMCP_AUTH_RESOURCE": elsewhere}},
			want: `fastmcp: Auth: auth: setting FASTMCP_AUTH_RESOURCE="https://mcp.example.com/mcp" differs from the resource the code configures ("$RES"): leave one of them empty, or make them equal`, conflict: true},
		{name: "no Auth option",
			set:  authSetting{none: true, env: map[string]string{"FASTMCP_AUTH_ISSUER": idp}},
			want: `fastmcp: setting FASTMCP_AUTH_ISSUER="https://idp.example.com" is set, but the server has no Auth option to check tokens with it: give New fastmcp.Auth(auth.Protect(auth.JWT("", ""))), or unset it`},
		{name: "no issuer anywhere",
			set:  authSetting{audience: "$RES"},
			want: `fastmcp: Auth: auth: JWT: the issuer is empty: pass it to auth.JWT, or set the server's auth issuer setting (flag -auth-issuer, FASTMCP_AUTH_ISSUER)`},
		{name: "no audience anywhere",
			set:  authSetting{flags: []string{"-auth-issuer=" + idp}},
			want: `fastmcp: Auth: auth: JWT: the audience is empty: pass it to auth.JWT, or set the server's auth audience setting (flag -auth-audience, FASTMCP_AUTH_AUDIENCE) (with setting flag -auth-issuer="https://idp.example.com")`},
		{name: "invalid issuer from the environment",
			set:  authSetting{audience: "$RES", env: map[string]string{"FASTMCP_AUTH_ISSUER": "http://idp.example.com"}},
			want: `fastmcp: Auth: auth: JWT: auth: issuer "http://idp.example.com": must be an https URL (http only for a loopback host) (with setting FASTMCP_AUTH_ISSUER="http://idp.example.com")`},
		{name: "a verifier other than auth.JWT's",
			set:  authSetting{http: auth.Protect(other), env: map[string]string{"FASTMCP_AUTH_AUDIENCE": elsewhere}},
			want: `fastmcp: Auth: auth: Protect: setting FASTMCP_AUTH_AUDIENCE="https://mcp.example.com/mcp" applies to the verifier of auth.JWT; auth.VerifierFunc takes its configuration from its own options: unset it`},
		{name: "an HTTPAuth without ProtectHTTPWith",
			set:  authSetting{http: plainAuth{}, env: map[string]string{"FASTMCP_AUTH_ISSUER": idp, "FASTMCP_AUTH_JWKS_URL": idp + "/jwks"}},
			want: `fastmcp: Auth: the auth settings (FASTMCP_AUTH_ISSUER, FASTMCP_AUTH_JWKS_URL) need an HTTPAuth with a ProtectHTTPWith method, such as auth.Protect's; fastmcp_test.plainAuth has none`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln := listenLoopback(t)
			base := "http://" + ln.Addr().String()
			r := strings.NewReplacer("$RES", base+"/mcp")
			err := tc.set.server(t, r, fastmcp.Listener(ln)).Run(ctxT(t))
			want := r.Replace(tc.want)
			if err == nil || err.Error() != want {
				t.Fatalf("Run: %v\nwant %s", err, want)
			}
			var conflict *auth.SettingConflictError
			if errors.As(err, &conflict) != tc.conflict {
				t.Errorf("errors.As(%v, *auth.SettingConflictError) = %v", err, !tc.conflict)
			}
			// Mounted, the server answers 503 (and logs the same error).
			base, opts, serve := serveLater(t, true)
			r = strings.NewReplacer("$RES", base+"/mcp")
			serve(tc.set.server(t, r, opts...))
			if a := send(t, "POST", base+"/mcp", initializeBody, nil); a.status != http.StatusServiceUnavailable {
				t.Errorf("mounted: %d %s, want 503", a.status, a.body)
			}
		})
	}
}

// TestAuthSettingsInHelp: the auth settings are flags like the others,
// their usage naming the variable, and Settings reports them.
func TestAuthSettingsInHelp(t *testing.T) {
	clearAuthEnv(t)
	t.Setenv("FASTMCP_AUTH_AUDIENCE", "https://mcp.example.com/mcp")
	s := newServer()
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	s.Flags(fs)
	var help strings.Builder
	fs.SetOutput(&help)
	fs.PrintDefaults()
	for _, want := range []string{
		"-auth-issuer string\n    \tissuer of the access tokens the Auth option accepts, e.g. https://idp.example.com (env FASTMCP_AUTH_ISSUER)",
		"-auth-audience string\n    \taudience (aud) the Auth option's access tokens must carry, e.g. https://mcp.example.com/mcp (env FASTMCP_AUTH_AUDIENCE)",
		"-auth-resource string\n    \tURL clients reach the MCP endpoint at, published in the protected resource metadata (env FASTMCP_AUTH_RESOURCE, default the audience)",
		"-auth-jwks-url string\n    \tkey set of the token issuer (env FASTMCP_AUTH_JWKS_URL, default found through the issuer's metadata)",
	} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("-help lacks %q:\n%s", want, help.String())
		}
	}
	if err := fs.Parse([]string{"-auth-issuer=https://idp.example.com"}); err != nil {
		t.Fatal(err)
	}
	set, err := s.Settings()
	if err != nil || set.AuthIssuer != "https://idp.example.com" || set.AuthAudience != "https://mcp.example.com/mcp" || set.AuthResource != "" || set.AuthJWKSURL != "" {
		t.Errorf("Settings: %+v, %v", set, err)
	}
}
