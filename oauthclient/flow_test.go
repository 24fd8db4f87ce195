package oauthclient_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
	"github.com/fastmcp-go/fastmcp/oauthclient"
)

// newClient returns an http.Client whose requests to rs go through a
// Transport with cfg (OpenURL defaults to the test browser).
func newClient(t *testing.T, rs *testRS, cfg oauthclient.Config) (*http.Client, *oauthclient.Transport) {
	t.Helper()
	if cfg.OpenURL == nil {
		cfg.OpenURL = browser
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	base := &http.Transport{}
	t.Cleanup(base.CloseIdleConnections)
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Transport: base}
	}
	tr, err := oauthclient.New(rs.URL(), cfg, base)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Transport: tr}, tr
}

// call sends a GET (or, with post, a POST with a body) to rs's endpoint
// and returns the answer's status and body.
func call(t *testing.T, c *http.Client, rs *testRS, post bool) (int, string, error) {
	t.Helper()
	method, body := http.MethodGet, io.Reader(nil)
	if post {
		method, body = http.MethodPost, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, rs.URL(), body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data), nil
}

func mustCall(t *testing.T, c *http.Client, rs *testRS, post bool) {
	t.Helper()
	status, body, err := call(t, c, rs, post)
	if err != nil {
		t.Fatalf("request failed: %v", err)
	}
	if status != http.StatusOK || body != "ok" {
		t.Fatalf("answer %d %q, want 200 ok", status, body)
	}
}

func TestFlows(t *testing.T) {
	const cimdURL = "https://client.example.com/metadata.json"
	tests := []struct {
		name  string
		opts  oauthtest.Options
		tp    tamper
		setup func(*testing.T, *oauthtest.Server) // run on the oauthtest server before the flow
		rs    func(*testRS)
		cfg   oauthclient.Config
		check func(t *testing.T, as *oauthtest.Server, rs *testRS)
	}{
		{name: "resource metadata named in the challenge"},
		{name: "path-aware well-known resource metadata", rs: func(rs *testRS) { rs.noHint = true }},
		{name: "root well-known resource metadata naming the origin", rs: func(rs *testRS) {
			rs.noHint, rs.prmPath, rs.resource = true, "/.well-known/oauth-protected-resource", "origin"
		}},
		{name: "issuer with a path, RFC 8414 metadata", opts: oauthtest.Options{Path: "/tenant1"}},
		{name: "issuer with a path, OpenID metadata inserted", opts: oauthtest.Options{Path: "/tenant1"}, tp: tamper{only: oidcMetadata + "/tenant1"}},
		{name: "issuer with a path, OpenID metadata appended", opts: oauthtest.Options{Path: "/tenant1"}, tp: tamper{only: "/tenant1" + oidcMetadata}},
		{name: "issuer without a path, OpenID metadata", tp: tamper{only: oidcMetadata}},
		{name: "iss neither advertised nor sent", tp: tamper{
			metadata: func(m map[string]any, _ string) { delete(m, "authorization_response_iss_parameter_supported") },
			redirect: func(q url.Values, _ string) { q.Del("iss") },
		}},
		{name: "iss advertised and sent"}, // as oauthtest does
		{
			name: "client_secret_basic",
			opts: oauthtest.Options{AuthMethods: []string{"client_secret_basic"}},
			check: func(t *testing.T, as *oauthtest.Server, _ *testRS) {
				tr := as.LastRequest("token")
				if tr.BasicClientID == "" || tr.Params.Has("client_secret") {
					t.Errorf("token request: Basic %q, form %v; want Basic auth only", tr.BasicClientID, tr.Params)
				}
			},
		},
		{
			name: "client_secret_post",
			opts: oauthtest.Options{AuthMethods: []string{"client_secret_post"}},
			check: func(t *testing.T, as *oauthtest.Server, _ *testRS) {
				tr := as.LastRequest("token")
				if tr.BasicClientID != "" || tr.Params.Get("client_secret") == "" || tr.Params.Get("client_id") == "" {
					t.Errorf("token request: Basic %q, form %v; want client_id and client_secret in the form", tr.BasicClientID, tr.Params)
				}
			},
		},
		{
			name: "public client",
			check: func(t *testing.T, as *oauthtest.Server, _ *testRS) {
				tr := as.LastRequest("token")
				if tr.BasicClientID != "" || tr.Params.Has("client_secret") || tr.Params.Get("client_id") == "" {
					t.Errorf("token request: Basic %q, form %v; want client_id only", tr.BasicClientID, tr.Params)
				}
				if reg := as.LastRequest("register").Metadata; reg["application_type"] != "native" || !slices.Contains(reg["grant_types"].([]any), any("refresh_token")) {
					t.Errorf("registration %v: want application_type native and grant type refresh_token", reg)
				}
			},
		},
		{
			name: "pre-registered client",
			opts: oauthtest.Options{AuthMethods: []string{"client_secret_basic"}},
			setup: func(t *testing.T, as *oauthtest.Server) {
				// Characters Basic authentication must form-encode (RFC 6749 §2.3.1).
				if _, err := as.Register(oauthtest.Client{ID: "pre id", Secret: "pre:secret", RedirectURIs: []string{"http://127.0.0.1/callback"}}); err != nil {
					t.Fatal(err)
				}
			},
			cfg: oauthclient.Config{Client: &oauthclient.Registration{ClientID: "pre id", ClientSecret: "pre:secret"}},
			check: func(t *testing.T, as *oauthtest.Server, _ *testRS) {
				if tr := as.LastRequest("token"); tr.BasicClientID != "pre id" {
					t.Errorf("token request Basic client %q, want %q", tr.BasicClientID, "pre id")
				}
			},
		},
		{
			name: "client ID metadata document",
			tp:   tamper{metadata: func(m map[string]any, _ string) { m["client_id_metadata_document_supported"] = true }},
			setup: func(t *testing.T, as *oauthtest.Server) {
				// As if the server had fetched the document at cimdURL.
				if _, err := as.Register(oauthtest.Client{ID: cimdURL, AuthMethod: "none", RedirectURIs: []string{"http://127.0.0.1/callback"}}); err != nil {
					t.Fatal(err)
				}
			},
			cfg: oauthclient.Config{ClientMetadataURL: cimdURL, Client: &oauthclient.Registration{ClientID: "unused"}},
			check: func(t *testing.T, as *oauthtest.Server, _ *testRS) {
				if got := as.LastRequest("authorize").Params.Get("client_id"); got != cimdURL {
					t.Errorf("client_id %q, want %q", got, cimdURL)
				}
			},
		},
		{
			name: "client ID metadata document not supported: registers",
			cfg:  oauthclient.Config{ClientMetadataURL: cimdURL},
			check: func(t *testing.T, as *oauthtest.Server, _ *testRS) {
				if regs := as.Requests("register"); len(regs) != 1 {
					t.Errorf("%d registrations, want 1", len(regs))
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := newTampered(t, tt.opts, tt.tp)
			if tt.setup != nil {
				tt.setup(t, as)
			}
			rs := newTestRS(t, func() *oauthtest.Server { return as }, tt.rs)
			c, _ := newClient(t, rs, tt.cfg)
			mustCall(t, c, rs, true)
			mustCall(t, c, rs, false) // with the same token
			auths, tokens, regs := counts(as)
			if auths != 1 || tokens != 1 {
				t.Errorf("%d authorization and %d token requests, want 1 and 1", auths, tokens)
			}
			wantRegs := 1
			if tt.cfg.Client != nil { // the client ID metadata document case too
				wantRegs = 0
			}
			if regs != wantRegs {
				t.Errorf("%d registrations, want %d", regs, wantRegs)
			}
			q := as.LastRequest("authorize").Params
			wantResource := rs.URL()
			if rs.resource == "origin" {
				wantResource = rs.srv.URL
			}
			if q.Get("resource") != wantResource || q.Get("code_challenge_method") != "S256" || q.Get("state") == "" {
				t.Errorf("authorization request %v: want resource %s, S256 and a state", q, wantResource)
			}
			if got := as.LastRequest("token").Params.Get("resource"); got != wantResource {
				t.Errorf("token request resource %q, want %q", got, wantResource)
			}
			if tt.check != nil {
				tt.check(t, as, rs)
			}
		})
	}
}

// TestLegacyServer covers 2025-03-26 servers: no resource metadata, the
// authorization server at the server's origin, with or without metadata.
func TestLegacyServer(t *testing.T) {
	for _, metadata := range []bool{true, false} {
		t.Run(map[bool]string{true: "metadata at the root", false: "default endpoints"}[metadata], func(t *testing.T) {
			as, err := oauthtest.New(oauthtest.Options{}) // served by rs, at its origin
			if err != nil {
				t.Fatal(err)
			}
			rs := newTestRS(t, func() *oauthtest.Server { return as }, func(rs *testRS) {
				rs.prmPath, rs.legacy, rs.legacyNoMetadata = "-", as, !metadata
			})
			c, _ := newClient(t, rs, oauthclient.Config{})
			mustCall(t, c, rs, true)
			if got := as.LastRequest("authorize").Params.Get("resource"); got != rs.URL() {
				t.Errorf("resource %q, want the server URL %q", got, rs.URL())
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	tests := []struct {
		name string
		as   tamper // how oauthtest misbehaves
		rs   func(*testRS)
		cfg  oauthclient.Config
		want error
		// authorizations the authorization server may see
		auths int
	}{
		{name: "resource metadata for another resource", rs: func(rs *testRS) { rs.resource = "https://evil.example.com/mcp" }, want: oauthclient.ErrResourceMismatch},
		{name: "metadata of another issuer", as: tamper{metadata: func(m map[string]any, _ string) { m["issuer"] = "https://attacker.example.com" }}, want: oauthclient.ErrIssuerMismatch},
		{name: "wrong iss", as: tamper{redirect: func(q url.Values, _ string) { q.Set("iss", "https://evil.example.com") }}, want: oauthclient.ErrIssuerMismatch, auths: 1},
		{name: "iss that matches only after normalization", as: tamper{redirect: func(q url.Values, iss string) { q.Set("iss", iss+"/") }}, want: oauthclient.ErrIssuerMismatch, auths: 1},
		{name: "iss advertised but missing", as: tamper{redirect: func(q url.Values, _ string) { q.Del("iss") }}, want: oauthclient.ErrIssuerMismatch, auths: 1},
		{name: "no PKCE", as: tamper{metadata: func(m map[string]any, _ string) { delete(m, "code_challenge_methods_supported") }}, want: oauthclient.ErrNoPKCE},
		{name: "plain http endpoint on another host", as: tamper{metadata: func(m map[string]any, _ string) {
			for _, e := range []string{"authorization", "token", "registration"} {
				m[e+"_endpoint"] = "http://as.example.com/" + e
			}
		}}, want: oauthclient.ErrInsecureURL},
		{name: "no way to register", as: tamper{metadata: func(m map[string]any, _ string) { delete(m, "registration_endpoint") }}, want: oauthclient.ErrNoRegistration},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := newTampered(t, oauthtest.Options{}, tt.as)
			rs := newTestRS(t, func() *oauthtest.Server { return as }, tt.rs)
			c, _ := newClient(t, rs, tt.cfg)
			status, _, err := call(t, c, rs, true)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got status %d, error %v; want an error matching %v", status, err, tt.want)
			}
			var oe *oauthclient.Error
			if !errors.As(err, &oe) || oe.Op == "" {
				t.Errorf("error %v is not an *oauthclient.Error naming its step", err)
			}
			auths, tokens, _ := counts(as)
			if auths != tt.auths || tokens != 0 {
				t.Errorf("%d authorization and %d token requests, want %d and 0", auths, tokens, tt.auths)
			}
		})
	}
}

func TestNoOpenURL(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	rs := newTestRS(t, func() *oauthtest.Server { return as }, nil)
	tr, err := oauthclient.New(rs.URL(), oauthclient.Config{Logger: slog.New(slog.DiscardHandler)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	_, _, err = call(t, &http.Client{Transport: tr}, rs, false)
	if !errors.Is(err, oauthclient.ErrNoBrowser) {
		t.Fatalf("error %v, want ErrNoBrowser", err)
	}
}

func TestScopeSelection(t *testing.T) {
	tests := []struct {
		name string
		as   oauthtest.Options
		rs   func(*testRS)
		cfg  oauthclient.Config
		want string // the scope parameter; "" means none
	}{
		{name: "from the challenge", rs: func(rs *testRS) { rs.need, rs.hintScope, rs.prmScopes = []string{"mcp:basic"}, true, []string{"other"} }, want: "mcp:basic"},
		{name: "from scopes_supported", rs: func(rs *testRS) { rs.prmScopes = []string{"mcp:basic", "mcp:read", "mcp:write"} }, want: "mcp:basic mcp:read mcp:write"},
		{name: "omitted"},
		{name: "configured, added", rs: func(rs *testRS) { rs.prmScopes = []string{"mcp:basic"} }, cfg: oauthclient.Config{Scopes: []string{"files:read"}}, want: "mcp:basic files:read"},
		{name: "offline_access when offered", as: oauthtest.Options{ScopesSupported: []string{"mcp:basic", "offline_access"}}, rs: func(rs *testRS) { rs.prmScopes = []string{"mcp:basic"} }, want: "mcp:basic offline_access"},
		{name: "no offline_access when not offered", as: oauthtest.Options{ScopesSupported: []string{"mcp:basic", "mcp:read"}}, rs: func(rs *testRS) { rs.prmScopes = []string{"mcp:basic"} }, want: "mcp:basic"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := oauthtest.NewServer(t, tt.as)
			rs := newTestRS(t, func() *oauthtest.Server { return as }, tt.rs)
			c, _ := newClient(t, rs, tt.cfg)
			mustCall(t, c, rs, false)
			q := as.LastRequest("authorize").Params
			if q.Get("scope") != tt.want || (tt.want == "" && q.Has("scope")) {
				t.Errorf("scope %q (present: %v), want %q", q.Get("scope"), q.Has("scope"), tt.want)
			}
		})
	}
}

// TestConsentPrompt checks that a request for offline_access to an OpenID
// provider carries prompt=consent (OpenID Connect Core §11; issue 29,
// item 10), and no other request does.
func TestConsentPrompt(t *testing.T) {
	offline := []string{"mcp:basic", "offline_access"}
	tests := []struct {
		name string
		opts oauthtest.Options
		tp   tamper
		cfg  oauthclient.Config
		want string // the prompt parameter; "" means none
	}{
		{name: "OpenID provider", opts: oauthtest.Options{ScopesSupported: offline}, tp: tamper{only: oidcMetadata}, want: "consent"},
		{name: "openid in scopes_supported", opts: oauthtest.Options{ScopesSupported: append([]string{"openid"}, offline...)}, tp: tamper{only: oauthMetadata}, want: "consent"},
		{name: "consent among prompt_values_supported", opts: oauthtest.Options{ScopesSupported: offline}, tp: tamper{only: oidcMetadata,
			metadata: func(m map[string]any, _ string) { m["prompt_values_supported"] = []string{"none", "login", "consent"} }}, want: "consent"},
		{name: "turned off", opts: oauthtest.Options{ScopesSupported: offline}, tp: tamper{only: oidcMetadata}, cfg: oauthclient.Config{NoConsentPrompt: true}},
		{name: "plain OAuth server", opts: oauthtest.Options{ScopesSupported: offline}, tp: tamper{only: oauthMetadata}},
		{name: "no offline_access", opts: oauthtest.Options{ScopesSupported: []string{"openid", "mcp:basic"}}, tp: tamper{only: oidcMetadata}},
		{name: "consent not among prompt_values_supported", opts: oauthtest.Options{ScopesSupported: offline}, tp: tamper{only: oidcMetadata,
			metadata: func(m map[string]any, _ string) { m["prompt_values_supported"] = []string{"none", "login"} }}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := newTampered(t, tt.opts, tt.tp)
			rs := newTestRS(t, func() *oauthtest.Server { return as }, func(rs *testRS) { rs.prmScopes = []string{"mcp:basic"} })
			c, _ := newClient(t, rs, tt.cfg)
			mustCall(t, c, rs, false)
			q := as.LastRequest("authorize").Params
			if q.Get("prompt") != tt.want || (tt.want == "" && q.Has("prompt")) {
				t.Errorf("prompt %q (present: %v), want %q", q.Get("prompt"), q.Has("prompt"), tt.want)
			}
		})
	}
}

func TestStepUp(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	rs := newTestRS(t, func() *oauthtest.Server { return as }, func(rs *testRS) {
		rs.need, rs.stepUp, rs.hintScope = []string{"mcp:basic"}, []string{"mcp:write"}, true
	})
	c, _ := newClient(t, rs, oauthclient.Config{})
	mustCall(t, c, rs, false)
	mustCall(t, c, rs, true)
	mustCall(t, c, rs, true)
	var got []string
	for _, q := range as.Requests("authorize") {
		got = append(got, q.Params.Get("scope"))
	}
	if want := []string{"mcp:basic", "mcp:basic mcp:write"}; !slices.Equal(got, want) {
		t.Errorf("authorization scopes %q, want %q", got, want)
	}
}

func TestRetryLimit(t *testing.T) {
	for _, max := range []int{0, 1, 5} {
		as := oauthtest.NewServer(t, oauthtest.Options{UserScopes: []string{"mcp:basic"}}) // the user never grants mcp:admin
		rs := newTestRS(t, func() *oauthtest.Server { return as }, func(rs *testRS) { rs.need, rs.hintScope = []string{"mcp:admin"}, true })
		c, _ := newClient(t, rs, oauthclient.Config{MaxAuthorizations: max})
		_, _, err := call(t, c, rs, false)
		if !errors.Is(err, oauthclient.ErrRetryLimit) {
			t.Fatalf("MaxAuthorizations %d: error %v, want ErrRetryLimit", max, err)
		}
		want := max
		if want == 0 {
			want = 3
		}
		if auths, _, _ := counts(as); auths != want {
			t.Errorf("MaxAuthorizations %d: %d authorizations, want %d", max, auths, want)
		}
	}
}

func TestRefresh(t *testing.T) {
	t.Run("on 401", func(t *testing.T) {
		as := oauthtest.NewServer(t, oauthtest.Options{})
		rs := newTestRS(t, func() *oauthtest.Server { return as }, nil)
		c, _ := newClient(t, rs, oauthclient.Config{})
		mustCall(t, c, rs, false)
		as.RevokeAccessTokens()
		mustCall(t, c, rs, true)
		auths, tokens, _ := counts(as)
		if auths != 1 || tokens != 2 {
			t.Fatalf("%d authorizations, %d token requests; want 1 and 2", auths, tokens)
		}
		tr := as.LastRequest("token")
		if tr.Params.Get("grant_type") != "refresh_token" || tr.Params.Get("resource") != rs.URL() {
			t.Errorf("second token request %v: want a refresh with the resource", tr.Params)
		}
	})
	t.Run("expired, before sending", func(t *testing.T) {
		as := oauthtest.NewServer(t, oauthtest.Options{TokenLifetime: time.Second})
		rs := newTestRS(t, func() *oauthtest.Server { return as }, nil)
		c, _ := newClient(t, rs, oauthclient.Config{})
		// A token about to expire is refreshed before it is sent: each
		// call here gets a new one, and the server never refuses one.
		mustCall(t, c, rs, false)
		mustCall(t, c, rs, false)
		var grants []string
		for _, tr := range as.Requests("token") {
			grants = append(grants, tr.Params.Get("grant_type"))
		}
		if want := []string{"authorization_code", "refresh_token", "refresh_token"}; !slices.Equal(grants, want) {
			t.Errorf("token requests %q, want %q", grants, want)
		}
		rs.mu.Lock()
		defer rs.mu.Unlock()
		if rs.calls != 3 { // 401 without a token, then one request per call
			t.Errorf("%d requests reached the server, want 3 (no 401 for an expiring token)", rs.calls)
		}
	})
	t.Run("refused: authorizes again", func(t *testing.T) {
		as := oauthtest.NewServer(t, oauthtest.Options{})
		rs := newTestRS(t, func() *oauthtest.Server { return as }, nil)
		c, _ := newClient(t, rs, oauthclient.Config{})
		mustCall(t, c, rs, false)
		as.RevokeAccessTokens()
		as.RevokeRefreshTokens()
		mustCall(t, c, rs, false)
		if auths, _, _ := counts(as); auths != 2 {
			t.Fatalf("%d authorizations, want 2", auths)
		}
	})
}

// TestConcurrentCallsShare checks that calls refused at the same time
// share one authorization, and later one refresh.
func TestConcurrentCallsShare(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	rs := newTestRS(t, func() *oauthtest.Server { return as }, nil)
	c, _ := newClient(t, rs, oauthclient.Config{})
	parallel := func() {
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { mustCall(t, c, rs, true) })
		}
		wg.Wait()
	}
	parallel()
	if auths, tokens, _ := counts(as); auths != 1 || tokens != 1 {
		t.Fatalf("%d authorizations, %d token requests; want 1 and 1", auths, tokens)
	}
	as.RevokeAccessTokens()
	parallel()
	if auths, tokens, _ := counts(as); auths != 1 || tokens != 2 {
		t.Fatalf("after revoking: %d authorizations, %d token requests; want 1 and 2", auths, tokens)
	}
}

func TestFileStoreReuse(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	rs := newTestRS(t, func() *oauthtest.Server { return as }, nil)
	path := filepath.Join(t.TempDir(), "sub", "tokens.json")
	c, _ := newClient(t, rs, oauthclient.Config{Store: oauthclient.NewFileStore(path)})
	mustCall(t, c, rs, false)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", fi.Mode().Perm())
	}
	// A restarted client: a new Transport on the same file.
	c2, tr2 := newClient(t, rs, oauthclient.Config{Store: oauthclient.NewFileStore(path), OpenURL: func(context.Context, string) error {
		t.Error("the restarted client authorized again")
		return errors.New("no")
	}})
	if tok, err := tr2.Token(t.Context()); err != nil || tok == nil || tok.RefreshToken == "" {
		t.Fatalf("stored token %v, %v; want one with a refresh token", tok, err)
	}
	mustCall(t, c2, rs, false)
	// ... that refreshes after a restart (rediscovering the token endpoint).
	as.RevokeAccessTokens()
	c3, _ := newClient(t, rs, oauthclient.Config{Store: oauthclient.NewFileStore(path)})
	mustCall(t, c3, rs, false)
	if auths, tokens, _ := counts(as); auths != 1 || tokens != 2 {
		t.Fatalf("%d authorizations, %d token requests; want 1 and 2", auths, tokens)
	}
}

// TestAuthorizationServerMigration: when the resource metadata names
// another authorization server, the client registers there and never
// shows it the first one's client ID (SEP-2352).
func TestAuthorizationServerMigration(t *testing.T) {
	as1 := oauthtest.NewServer(t, oauthtest.Options{})
	as2 := oauthtest.NewServer(t, oauthtest.Options{})
	var mu sync.Mutex
	current := as1
	rs := newTestRS(t, func() *oauthtest.Server { mu.Lock(); defer mu.Unlock(); return current }, nil)
	c, _ := newClient(t, rs, oauthclient.Config{})
	mustCall(t, c, rs, false)
	mu.Lock()
	current = as2
	mu.Unlock()
	mustCall(t, c, rs, false)
	if _, _, regs := counts(as2); regs != 1 {
		t.Fatalf("%d registrations at the new server, want 1", regs)
	}
	first := as1.LastRequest("authorize").Params.Get("client_id")
	if got := as2.LastRequest("authorize").Params.Get("client_id"); got == first || got == "" {
		t.Errorf("client_id at the new server %q, first server's %q", got, first)
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	tests := []struct {
		name   string
		server string
		cfg    oauthclient.Config
	}{
		{"relative server URL", "/mcp", oauthclient.Config{}},
		{"redirect not on loopback", "https://x.example/mcp", oauthclient.Config{RedirectURL: "http://example.com/cb"}},
		{"https redirect", "https://x.example/mcp", oauthclient.Config{RedirectURL: "https://127.0.0.1/cb"}},
		{"client metadata URL not https", "https://x.example/mcp", oauthclient.Config{ClientMetadataURL: "http://x.example/md.json"}},
		{"client metadata URL without path", "https://x.example/mcp", oauthclient.Config{ClientMetadataURL: "https://x.example"}},
		{"client without ID", "https://x.example/mcp", oauthclient.Config{Client: &oauthclient.Registration{ClientSecret: "s"}}},
	}
	for _, tt := range tests {
		if _, err := oauthclient.New(tt.server, tt.cfg, nil); err == nil {
			t.Errorf("%s: New succeeded", tt.name)
		}
	}
}

// TestOtherOriginGetsNoToken: a request to another origin than the
// server's goes out without the token, and a 401 there starts nothing.
func TestOtherOriginGetsNoToken(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	rs := newTestRS(t, func() *oauthtest.Server { return as }, nil)
	other := newTestRS(t, func() *oauthtest.Server { return as }, nil)
	c, _ := newClient(t, rs, oauthclient.Config{})
	mustCall(t, c, rs, false)
	status, _, err := call(t, c, other, false)
	if err != nil || status != http.StatusUnauthorized {
		t.Fatalf("other origin: status %d, error %v; want its 401 as is", status, err)
	}
	other.mu.Lock()
	defer other.mu.Unlock()
	if len(other.seen) != 1 || other.seen[0] != "" {
		t.Errorf("other origin saw Authorization %q, want none", other.seen)
	}
	if auths, _, _ := counts(as); auths != 1 {
		t.Errorf("%d authorizations, want 1", auths)
	}
}

// TestRedirectPortKept: a second authorization (a step-up) listens on the
// port registered the first time, as authorization servers that compare
// redirect URIs exactly require.
func TestRedirectPortKept(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	rs := newTestRS(t, func() *oauthtest.Server { return as }, func(rs *testRS) {
		rs.need, rs.stepUp, rs.hintScope = []string{"mcp:basic"}, []string{"mcp:write"}, true
	})
	c, _ := newClient(t, rs, oauthclient.Config{})
	mustCall(t, c, rs, false)
	mustCall(t, c, rs, true)
	auths, _, regs := counts(as)
	if auths != 2 || regs != 1 {
		t.Fatalf("%d authorizations, %d registrations; want 2 and 1", auths, regs)
	}
	q := as.Requests("authorize")
	first, second := q[0].Params.Get("redirect_uri"), q[1].Params.Get("redirect_uri")
	if first != second || strings.HasSuffix(first, ":0/callback") {
		t.Errorf("redirect URIs %q then %q, want the same port both times", first, second)
	}
}
