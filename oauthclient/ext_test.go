package oauthclient_test

import (
	"cmp"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
	"github.com/fastmcp-go/fastmcp/oauthclient"
)

// TestGrants covers the grants without the user: no authorization request,
// no registration, one token request of the grant's type with the
// resource, authenticated as configured.
func TestGrants(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	idp := newIdP(t)
	tests := []struct {
		name      string
		opts      oauthtest.Options
		assertion string           // the JWT bearer assertion accepted; default the ID-JAG idp issues for the server
		client    oauthtest.Client // registered there
		cfg       oauthclient.Config
		grantType string
		check     func(t *testing.T, tr oauthtest.Request)
	}{
		{
			name:      "client credentials, client_secret_basic",
			opts:      oauthtest.Options{AuthMethods: []string{"client_secret_basic"}},
			client:    oauthtest.Client{ID: "svc", Secret: "s3cret", AuthMethod: "client_secret_basic", GrantTypes: []string{"client_credentials"}},
			cfg:       oauthclient.Config{Grant: oauthclient.ClientCredentials{}, Client: &oauthclient.Registration{ClientID: "svc", ClientSecret: "s3cret"}},
			grantType: "client_credentials",
			check: func(t *testing.T, tr oauthtest.Request) {
				if tr.BasicClientID != "svc" {
					t.Errorf("Basic client %q, want svc", tr.BasicClientID)
				}
			},
		},
		{
			name:      "client credentials, client_secret_post",
			opts:      oauthtest.Options{AuthMethods: []string{"client_secret_post"}},
			client:    oauthtest.Client{ID: "svc", Secret: "s3cret", AuthMethod: "client_secret_post", GrantTypes: []string{"client_credentials"}},
			cfg:       oauthclient.Config{Grant: oauthclient.ClientCredentials{}, Client: &oauthclient.Registration{ClientID: "svc", ClientSecret: "s3cret"}},
			grantType: "client_credentials",
			check: func(t *testing.T, tr oauthtest.Request) {
				if tr.Params.Get("client_secret") != "s3cret" || tr.BasicClientID != "" {
					t.Errorf("form %v, Basic %q: want the secret in the form", tr.Params, tr.BasicClientID)
				}
			},
		},
		{
			name:      "client credentials, private_key_jwt",
			opts:      oauthtest.Options{AuthMethods: []string{"private_key_jwt"}},
			client:    oauthtest.Client{ID: "svc", AuthMethod: "private_key_jwt", PublicKey: &key.PublicKey, GrantTypes: []string{"client_credentials"}},
			cfg:       oauthclient.Config{Grant: oauthclient.ClientCredentials{}, Client: &oauthclient.Registration{ClientID: "svc", PrivateKey: key}},
			grantType: "client_credentials",
			check: func(t *testing.T, tr oauthtest.Request) {
				if tr.Params.Get("client_assertion") == "" || tr.BasicClientID != "" || tr.Params.Has("client_secret") {
					t.Errorf("form %v: want a client assertion only", tr.Params)
				}
			},
		},
		{
			name:      "JWT bearer (workload identity)",
			assertion: "workload-jwt",
			client:    oauthtest.Client{ID: "workload", AuthMethod: "none", GrantTypes: []string{oauthtest.JWTBearerGrant}},
			cfg: oauthclient.Config{Client: &oauthclient.Registration{ClientID: "workload"},
				Grant: oauthclient.JWTBearer{Assertion: func(context.Context) (string, error) { return "workload-jwt", nil }}},
			grantType: "urn:ietf:params:oauth:grant-type:jwt-bearer",
			check: func(t *testing.T, tr oauthtest.Request) {
				if tr.Params.Get("assertion") != "workload-jwt" || tr.Params.Get("client_id") != "workload" {
					t.Errorf("form %v", tr.Params)
				}
			},
		},
		{
			name:   "enterprise-managed",
			opts:   oauthtest.Options{AuthMethods: []string{"client_secret_basic"}},
			client: oauthtest.Client{ID: "app", Secret: "app-secret", GrantTypes: []string{oauthtest.JWTBearerGrant}},
			cfg: oauthclient.Config{Client: &oauthclient.Registration{ClientID: "app", ClientSecret: "app-secret"},
				Grant: oauthclient.EnterpriseManaged{
					TokenEndpoint: idp.URL + "/token",
					IDToken:       func(context.Context) (string, error) { return "id-token", nil },
					Client:        &oauthclient.Registration{ClientID: "idp-client"},
				}},
			grantType: "urn:ietf:params:oauth:grant-type:jwt-bearer",
			check: func(t *testing.T, tr oauthtest.Request) {
				if !strings.HasPrefix(tr.Params.Get("assertion"), "jag-for-") || tr.BasicClientID != "app" {
					t.Errorf("form %v, Basic %q: want the ID-JAG and the app's credentials", tr.Params, tr.BasicClientID)
				}
				ex := idp.last()
				if ex.Get("grant_type") != "urn:ietf:params:oauth:grant-type:token-exchange" || ex.Get("client_id") != "idp-client" {
					t.Errorf("token exchange at the identity provider: %v", ex)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var as *oauthtest.Server
			tt.opts.Assertions = func(a string) (string, error) {
				if want := cmp.Or(tt.assertion, "jag-for-"+as.URL()); a != want {
					return "", fmt.Errorf("assertion %q, want %q", a, want)
				}
				return "user", nil
			}
			as = oauthtest.NewServer(t, tt.opts)
			if _, err := as.Register(tt.client); err != nil {
				t.Fatal(err)
			}
			rs := newTestRS(t, func() *oauthtest.Server { return as }, func(rs *testRS) { rs.prmScopes = []string{"mcp:basic"} })
			tt.cfg.OpenURL = func(context.Context, string) error {
				t.Error("a grant without the user opened the browser")
				return errors.New("no")
			}
			c, _ := newClient(t, rs, tt.cfg)
			mustCall(t, c, rs, true)
			auths, tokens, regs := counts(as)
			if auths != 0 || tokens != 1 || regs != 0 {
				t.Errorf("%d authorizations, %d token requests, %d registrations; want 0, 1, 0", auths, tokens, regs)
			}
			tr := as.LastRequest("token")
			if tr.Params.Get("grant_type") != tt.grantType || tr.Params.Get("resource") != rs.URL() || tr.Params.Get("scope") != "mcp:basic" {
				t.Errorf("token request %v: want grant %s, resource %s and scope mcp:basic", tr.Params, tt.grantType, rs.URL())
			}
			tt.check(t, tr)
		})
	}
}

// TestJWTBearerRefused checks that a refused assertion fails the request
// with the authorization server's error, without a retry.
func TestJWTBearerRefused(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{Assertions: func(a string) (string, error) {
		if a != "the-right-one" {
			return "", errors.New("expired")
		}
		return "workload", nil
	}})
	if _, err := as.Register(oauthtest.Client{ID: "workload", AuthMethod: "none", GrantTypes: []string{oauthtest.JWTBearerGrant}}); err != nil {
		t.Fatal(err)
	}
	rs := newTestRS(t, func() *oauthtest.Server { return as }, nil)
	c, _ := newClient(t, rs, oauthclient.Config{Client: &oauthclient.Registration{ClientID: "workload"},
		Grant: oauthclient.JWTBearer{Assertion: func(context.Context) (string, error) { return "expired-jwt", nil }}})
	_, _, err := call(t, c, rs, false)
	oe, ok := errors.AsType[*oauthclient.Error](err)
	if !ok || oe.Code != "invalid_grant" || !errors.Is(err, oauthclient.ErrTokenRequest) {
		t.Fatalf("error %v: want an *Error with code invalid_grant matching ErrTokenRequest", err)
	}
	if _, tokens, _ := counts(as); tokens != 1 {
		t.Errorf("%d token requests, want 1 (no retry)", tokens)
	}
}

func TestDPoP(t *testing.T) {
	for _, nonce := range []bool{false, true} {
		t.Run(map[bool]string{false: "without nonces", true: "with nonces"}[nonce], func(t *testing.T) {
			opts := oauthtest.Options{DPoP: true}
			if nonce {
				opts.DPoPNonce = "as-nonce"
			}
			as := oauthtest.NewServer(t, opts)
			rs := newTestRS(t, func() *oauthtest.Server { return as }, func(rs *testRS) {
				if nonce {
					rs.dpopNonce = "rs-nonce"
				}
			})
			store := oauthclient.NewMemoryStore()
			c, _ := newClient(t, rs, oauthclient.Config{DPoP: true, Store: store})
			mustCall(t, c, rs, true)
			mustCall(t, c, rs, false)
			as.RevokeAccessTokens()
			mustCall(t, c, rs, true) // refreshed with a proof
			rs.mu.Lock()
			last := rs.seen[len(rs.seen)-1]
			rs.mu.Unlock()
			if !strings.HasPrefix(last, "DPoP ") {
				t.Errorf("Authorization %q, want the DPoP scheme", last)
			}
			// The code exchange (refused once for want of the nonce, with
			// nonces) and one refresh: the resource server's nonce
			// challenge is answered by resending, not by a new token.
			wantTokens := 2
			if nonce {
				wantTokens = 3
			}
			if auths, tokens, _ := counts(as); auths != 1 || tokens != wantTokens {
				t.Errorf("%d authorizations, %d token requests; want 1 and %d", auths, tokens, wantTokens)
			}
			// A restarted client has another key: it does not send the
			// stored token, bound to the old one.
			c2, _ := newClient(t, rs, oauthclient.Config{DPoP: true, Store: store})
			mustCall(t, c2, rs, false)
			if auths, _, _ := counts(as); auths != 2 {
				t.Errorf("%d authorizations after a restart, want 2", auths)
			}
		})
	}
}

// TestDPoPNotSupported: with DPoP configured and an authorization server
// that does not support it, tokens are plain bearer tokens.
func TestDPoPNotSupported(t *testing.T) {
	as := oauthtest.NewServer(t, oauthtest.Options{})
	rs := newTestRS(t, func() *oauthtest.Server { return as }, nil)
	c, _ := newClient(t, rs, oauthclient.Config{DPoP: true})
	mustCall(t, c, rs, false)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if last := rs.seen[len(rs.seen)-1]; !strings.HasPrefix(last, "Bearer ") {
		t.Errorf("Authorization %q, want Bearer", last)
	}
}

// idp is an identity provider's token endpoint for the token exchange of
// the enterprise-managed grant (RFC 8693, for an ID-JAG): a part of the
// flow that is not an MCP authorization server, so a few lines here
// rather than a feature of oauthtest.
type idp struct {
	URL   string
	mu    sync.Mutex
	forms []url.Values
}

func newIdP(t *testing.T) *idp {
	p := &idp{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ParseForm() != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		f := r.PostForm
		p.mu.Lock()
		p.forms = append(p.forms, f)
		p.mu.Unlock()
		if r.URL.Path != "/token" || f.Get("grant_type") != "urn:ietf:params:oauth:grant-type:token-exchange" || f.Get("subject_token") != "id-token" ||
			f.Get("subject_token_type") != "urn:ietf:params:oauth:token-type:id_token" ||
			f.Get("requested_token_type") != "urn:ietf:params:oauth:token-type:id-jag" || f.Get("resource") == "" {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"access_token": "jag-for-" + f.Get("audience"), "token_type": "N_A",
			"issued_token_type": "urn:ietf:params:oauth:token-type:id-jag"})
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// last returns the last token request's form.
func (p *idp) last() url.Values {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.forms) == 0 {
		return nil
	}
	return p.forms[len(p.forms)-1]
}
