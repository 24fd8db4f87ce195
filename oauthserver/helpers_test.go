package oauthserver

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/oauthserver/oauthtest"
	"github.com/fastmcp-go/fastmcp/store"
)

// testResource is the resource the test servers issue tokens for.
const testResource = "http://127.0.0.1:9/mcp"

// testAS is an authorization server listening on 127.0.0.1.
type testAS struct {
	*Server
	URL string
}

// startAS starts a server on a real socket; cfg's Issuer defaults to its
// address, Resources and Login get defaults.
func startAS(t *testing.T, cfg Config) *testAS {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://" + ln.Addr().String()
	if cfg.Issuer == "" {
		cfg.Issuer = addr
	}
	as := startASOn(t, ln, cfg)
	as.URL = addr
	return as
}

// withTestDefaults fills in Resources, Login and a quiet Logger.
func withTestDefaults(cfg Config) Config {
	if cfg.Resources == nil {
		cfg.Resources = []string{testResource}
	}
	if cfg.Login == nil {
		cfg.Login = DemoLogin()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return cfg
}

// callbackHost is the host of the test clients' redirect URIs: nothing
// listens there, the browser stops at the redirect.
const callbackURI = "http://127.0.0.1:1/callback"

// newBrowser returns a browser that stops at redirects to the callback.
func newBrowser(user string) *oauthtest.Browser {
	b := oauthtest.New(user)
	b.Client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Host == "127.0.0.1:1" {
			return http.ErrUseLastResponse
		}
		return nil
	}
	return b
}

// pkce is a code verifier and its S256 challenge.
type pkcePair struct{ verifier, challenge string }

func newPKCE() pkcePair {
	v := randomString(32)
	sum := sha256.Sum256([]byte(v))
	return pkcePair{v, b64(sum[:])}
}

// authURL is an authorization request of client with PKCE.
func (as *testAS) authURL(clientID string, p pkcePair, extra url.Values) string {
	q := url.Values{
		"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {callbackURI},
		"state": {"state-1234567"}, "code_challenge": {p.challenge}, "code_challenge_method": {"S256"},
		"resource": {testResource},
	}
	for k, v := range extra {
		q[k] = v
	}
	for k, v := range q {
		if len(v) == 1 && v[0] == "" {
			delete(q, k)
		}
	}
	return as.URL + "/authorize?" + q.Encode()
}

// authorize runs the browser flow and returns the callback's query.
func (as *testAS) authorize(t *testing.T, b *oauthtest.Browser, u string) url.Values {
	t.Helper()
	resp, body, err := b.Open(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, callbackURI) {
		t.Fatalf("authorization ended with %d, Location %q: %s", resp.StatusCode, loc, body)
	}
	cb, err := url.Parse(loc)
	if err != nil {
		t.Fatal(err)
	}
	return cb.Query()
}

// code runs the browser flow and returns the code.
func (as *testAS) code(t *testing.T, clientID string, p pkcePair) string {
	t.Helper()
	q := as.authorize(t, newBrowser("alice"), as.authURL(clientID, p, nil))
	if q.Get("code") == "" {
		t.Fatalf("no code: %v", q)
	}
	return q.Get("code")
}

// tokenResponse is a token endpoint's answer, success or error.
type tokenResponse struct {
	Status       int    `json:"-"`
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
	Error        string `json:"error"`
}

// post posts form to the server's path, with basic auth when user is set.
func (as *testAS) post(t *testing.T, path string, form url.Values, user, pass string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, as.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if user != "" {
		req.SetBasicAuth(url.QueryEscape(user), url.QueryEscape(pass))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// token posts a token request.
func (as *testAS) token(t *testing.T, form url.Values) tokenResponse {
	t.Helper()
	status, b := as.post(t, "/token", form, "", "")
	var tr tokenResponse
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatalf("token response %d %s: %v", status, b, err)
	}
	tr.Status = status
	return tr
}

// redeem exchanges a code of a public client.
func (as *testAS) redeem(t *testing.T, clientID, code string, p pkcePair) tokenResponse {
	t.Helper()
	return as.token(t, url.Values{
		"grant_type": {"authorization_code"}, "client_id": {clientID}, "code": {code},
		"redirect_uri": {callbackURI}, "code_verifier": {p.verifier},
	})
}

// refresh redeems a refresh token of a public client.
func (as *testAS) refresh(t *testing.T, clientID, rt string) tokenResponse {
	t.Helper()
	return as.token(t, url.Values{"grant_type": {"refresh_token"}, "client_id": {clientID}, "refresh_token": {rt}})
}

// introspect asks whether token is active, as the confidential client rs.
func (as *testAS) active(t *testing.T, token string) bool {
	t.Helper()
	status, b := as.post(t, "/introspect", url.Values{"token": {token}}, rsID, rsSecret)
	var r struct {
		Active bool `json:"active"`
	}
	if err := json.Unmarshal(b, &r); err != nil || status != http.StatusOK {
		t.Fatalf("introspection %d %s: %v", status, b, err)
	}
	return r.Active
}

// The test clients: a public one, another public one, and a confidential
// one (a resource server that introspects).
const (
	publicID = "public-app"
	otherID  = "other-app"
	rsID     = "resource-server"
	rsSecret = "0123456789abcdef0123456789abcdef-rs"
)

var testClients = []Client{
	{ID: publicID, Name: "Public App", RedirectURIs: []string{callbackURI}},
	{ID: otherID, Name: "Other App", RedirectURIs: []string{callbackURI}},
	{ID: rsID, Secret: rsSecret, RedirectURIs: []string{"https://rs.example/cb"}},
}

// sharedKV is a KV for servers that act as one.
func sharedKV() store.KV { return store.NewMemoryKV() }
