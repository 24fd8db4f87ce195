package oauthproxy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/oauthclient"
	"github.com/fastmcp-go/fastmcp/oauthserver"
	"github.com/fastmcp-go/fastmcp/oauthserver/oauthproxy"
	"github.com/fastmcp-go/fastmcp/oauthserver/oauthtest"
	"github.com/fastmcp-go/fastmcp/store"
)

// gitHub is a GitHub-shaped upstream (OAuth 2.0, no OIDC): authorize
// approves at once (or refuses with deny), the token endpoint answers
// form-encoded unless asked for JSON, /user names the token's user.
type gitHub struct {
	*httptest.Server
	deny      atomic.Bool
	expiresIn atomic.Int32 // seconds; 0: tokens without expiry or refresh token
	mu        sync.Mutex
	codes     map[string]string // code → PKCE challenge
	tokens    map[string]bool
	refreshes atomic.Int32
}

const ghClientID, ghSecret = "gh-client", "gh-secret"

func startGitHub(t *testing.T) *gitHub {
	g := &gitHub{codes: map[string]string{}, tokens: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /login/oauth/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		back, _ := url.Parse(q.Get("redirect_uri"))
		v := url.Values{"state": {q.Get("state")}}
		if g.deny.Load() {
			v.Set("error", "access_denied")
		} else if q.Get("client_id") == ghClientID && q.Get("code_challenge_method") == "S256" {
			code := fmt.Sprint("code-", time.Now().UnixNano())
			g.mu.Lock()
			g.codes[code] = q.Get("code_challenge")
			g.mu.Unlock()
			v.Set("code", code)
		} else {
			v.Set("error", "invalid_request")
		}
		back.RawQuery = v.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	})
	mux.HandleFunc("POST /login/oauth/access_token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		if r.Form.Get("client_id") != ghClientID || r.Form.Get("client_secret") != ghSecret {
			http.Error(w, "bad client", http.StatusUnauthorized)
			return
		}
		g.mu.Lock()
		defer g.mu.Unlock()
		switch r.Form.Get("grant_type") {
		case "refresh_token":
			if !g.tokens["r:"+r.Form.Get("refresh_token")] {
				http.Error(w, "bad refresh token", http.StatusBadRequest)
				return
			}
			g.refreshes.Add(1)
		default:
			if _, ok := g.codes[r.Form.Get("code")]; !ok || r.Form.Get("code_verifier") == "" {
				http.Error(w, "bad code", http.StatusBadRequest)
				return
			}
			delete(g.codes, r.Form.Get("code"))
		}
		tok := fmt.Sprint("gho_", time.Now().UnixNano())
		g.tokens[tok] = true
		v := url.Values{"access_token": {tok}, "token_type": {"bearer"}, "scope": {"read:user"}}
		if n := g.expiresIn.Load(); n != 0 {
			v.Set("expires_in", fmt.Sprint(n))
			v.Set("refresh_token", "ghr_"+tok)
			g.tokens["r:ghr_"+tok] = true
		}
		if strings.Contains(r.Header.Get("Accept"), "application/json") {
			w.Header().Set("Content-Type", "application/json")
			m := map[string]any{}
			for k := range v {
				m[k] = v.Get(k)
			}
			json.NewEncoder(w).Encode(m)
			return
		}
		w.Header().Set("Content-Type", "application/x-www-form-urlencoded")
		io.WriteString(w, v.Encode())
	})
	mux.HandleFunc("GET /user", func(w http.ResponseWriter, r *http.Request) {
		tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		g.mu.Lock()
		ok := g.tokens[tok]
		g.mu.Unlock()
		if !ok {
			http.Error(w, "bad token", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":583231,"login":"octocat","name":"The Octocat"}`)
	})
	g.Server = httptest.NewServer(mux)
	t.Cleanup(g.Close)
	return g
}

// upstream is the GitHub configuration pointed at g.
func (g *gitHub) upstream() oauthproxy.Upstream {
	up := oauthproxy.GitHub(ghClientID, ghSecret)
	up.AuthURL, up.TokenURL = g.URL+"/login/oauth/authorize", g.URL+"/login/oauth/access_token"
	up.Identify = oauthproxy.GitHubUser(g.URL + "/user")
	return up
}

// proxied is a fastmcp server protected by the proxy on one origin, with a
// tool that calls the upstream's /user with the user's upstream token.
type proxied struct {
	origin string
	kv     *recordingKV
	login  *oauthproxy.Login
}

func startProxied(t *testing.T, g *gitHub) *proxied {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return startProxiedOn(t, ln, g.upstream(), func(ctx context.Context, tok *oauth2.Token) (string, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, g.URL+"/user", nil)
		tok.SetAuthHeader(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return fmt.Sprintf("%d %s", resp.StatusCode, b), nil
	})
}

// startProxiedOn serves on ln a fastmcp server protected by the proxy in
// front of up, with the tool upstream_user, which gives the user's
// upstream token to probe and returns the token's subject and what probe
// says.
func startProxiedOn(t *testing.T, ln net.Listener, up oauthproxy.Upstream, probe func(ctx context.Context, tok *oauth2.Token) (string, error)) *proxied {
	t.Helper()
	origin := "http://" + ln.Addr().String()
	quiet := slog.New(slog.DiscardHandler)
	kv := &recordingKV{KV: store.NewMemoryKV()}
	as, login, err := oauthproxy.New(oauthproxy.Config{Upstream: up},
		oauthserver.Config{Issuer: origin, Resources: []string{origin + "/mcp"}, Store: kv, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	s := fastmcp.New("proxied", "1.0.0", fastmcp.Auth(as.Protect(origin+"/mcp")), fastmcp.Listener(ln), fastmcp.Logger(quiet))
	s.Tool("upstream_user", func(ctx *fastmcp.Context) (string, error) {
		tok, err := login.UpstreamToken(ctx)
		if err != nil {
			return "", err
		}
		said, err := probe(ctx, tok)
		return ctx.Auth().Subject + " " + said, err
	})
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Run(ctx) }()
	t.Cleanup(func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(origin + "/mcp")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusServiceUnavailable {
				break
			}
		}
	}
	return &proxied{origin: origin, kv: kv, login: login}
}

// connect logs our client in through the proxy with browser b.
func (p *proxied) connect(t *testing.T, b *oauthtest.Browser) (*client.Client, error) {
	return client.ConnectHTTP(t.Context(), p.origin+"/mcp", client.WithLogger(slog.New(slog.DiscardHandler)),
		client.OAuth(oauthclient.Config{ClientName: "proxy test", OpenURL: b.OpenURL, Logger: slog.New(slog.DiscardHandler)}))
}

// TestGitHubProxy: our client logs in through the proxy in front of a
// GitHub-shaped upstream; its token is the authorization server's, for
// the MCP resource, naming the GitHub user; a tool reaches the upstream
// with the user's upstream token; the token is kept encrypted.
func TestGitHubProxy(t *testing.T) {
	g := startGitHub(t)
	p := startProxied(t, g)
	cl, err := p.connect(t, oauthtest.New("ignored"))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	res, err := cl.CallTool(t.Context(), "upstream_user", nil)
	if err != nil {
		t.Fatal(err)
	}
	if text := contentText(res); res.IsError || !strings.Contains(text, `200 {"id":583231,"login":"octocat"`) {
		t.Fatalf("upstream_user: %s", text)
	}
	// Nothing kept in the store holds an upstream token in clear.
	g.mu.Lock()
	var issued []string
	for tok := range g.tokens {
		issued = append(issued, tok)
	}
	g.mu.Unlock()
	values := p.kv.written()
	if len(values) == 0 {
		t.Fatal("nothing written to the store")
	}
	for _, v := range values {
		for _, tok := range issued {
			if strings.Contains(v, tok) {
				t.Errorf("the store was given the upstream token %s in clear: %.200s", tok, v)
			}
		}
	}
}

// recordingKV is a store.KV that remembers every value written.
type recordingKV struct {
	store.KV
	mu     sync.Mutex
	values []string
}

func (k *recordingKV) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	k.mu.Lock()
	k.values = append(k.values, string(v))
	k.mu.Unlock()
	return k.KV.Set(ctx, key, v, ttl)
}

func (k *recordingKV) Add(ctx context.Context, key string, v []byte, ttl time.Duration) (bool, error) {
	k.mu.Lock()
	k.values = append(k.values, string(v))
	k.mu.Unlock()
	return k.KV.Add(ctx, key, v, ttl)
}

func (k *recordingKV) written() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.values...)
}

// TestUpstreamRefresh: an expired upstream token is refreshed through
// the upstream when a tool asks for it.
func TestUpstreamRefresh(t *testing.T) {
	g := startGitHub(t)
	g.expiresIn.Store(1)
	p := startProxied(t, g)
	cl, err := p.connect(t, oauthtest.New("ignored"))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	time.Sleep(1100 * time.Millisecond) // oauth2 treats a token as expired 10s early: it is already
	res, err := cl.CallTool(t.Context(), "upstream_user", nil)
	if err != nil || res.IsError {
		t.Fatalf("upstream_user: %+v, %v", res, err)
	}
	if n := g.refreshes.Load(); n < 1 {
		t.Errorf("%d refreshes at the upstream, want at least 1", n)
	}
}

// TestUpstreamDenied: the user refusing at the upstream ends the client's
// authorization with access_denied; nothing is issued.
func TestUpstreamDenied(t *testing.T) {
	g := startGitHub(t)
	g.deny.Store(true)
	p := startProxied(t, g)
	_, err := p.connect(t, oauthtest.New("ignored"))
	if err == nil || !strings.Contains(err.Error(), "access_denied") {
		t.Fatalf("connect: %v, want access_denied", err)
	}
}

// TestCallbackBoundToBrowser: the callback of a sign-in started in one
// browser, opened in another (login CSRF), is refused; replayed in the
// first, it is refused too.
func TestCallbackBoundToBrowser(t *testing.T) {
	g := startGitHub(t)
	p := startProxied(t, g)
	// Start an authorization in browser A and stop at the upstream's
	// redirect to the callback.
	reg := registerClient(t, p.origin)
	a := oauthtest.New("a")
	a.Client.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.Path, oauthproxy.DefaultCallbackPath) {
			return http.ErrUseLastResponse
		}
		return nil
	}
	authURL := p.origin + "/authorize?" + url.Values{
		"response_type": {"code"}, "client_id": {reg}, "redirect_uri": {"http://127.0.0.1:1/cb"}, "state": {"s-123456789"},
		"code_challenge": {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"}, "code_challenge_method": {"S256"},
	}.Encode()
	resp, err := a.Client.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	callback := resp.Header.Get("Location")
	if !strings.Contains(callback, oauthproxy.DefaultCallbackPath) {
		t.Fatalf("stopped at %d %q, want the upstream's redirect to the callback", resp.StatusCode, callback)
	}
	// Browser B opens it: refused.
	resp, err = http.Get(callback)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("the callback in another browser: %d, want 400", resp.StatusCode)
	}
	// A opens it: accepted once (then on to the consent page), and a
	// replay is refused.
	a.Client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	for i, want := range []int{http.StatusSeeOther, http.StatusBadRequest} {
		resp, err = a.Client.Get(callback)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("the callback, time %d, in the browser that started it: %d, want %d", i+1, resp.StatusCode, want)
		}
	}
}

// registerClient registers a public client with redirect URI
// http://127.0.0.1:1/cb and returns its ID.
func registerClient(t *testing.T, origin string) string {
	t.Helper()
	resp, err := http.Post(origin+"/register", "application/json",
		strings.NewReader(`{"redirect_uris":["http://127.0.0.1:1/cb"],"token_endpoint_auth_method":"none","client_name":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		ClientID string `json:"client_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || r.ClientID == "" {
		t.Fatalf("registration: %d %v", resp.StatusCode, err)
	}
	return r.ClientID
}

// contentText is the text of a result's first content block.
func contentText(res *client.ToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*client.TextContent); ok {
		return tc.Text
	}
	return fmt.Sprintf("%T", res.Content[0])
}
