package fastmcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
)

// protectedServer is a server protected by the Auth option with a
// JWTVerifier of an oauthtest authorization server, for the resource base+"/mcp", where
// base is the address of ln. Its tools:
//   - whoami: "subject client scopes" of ctx.Auth(), or "nobody";
//   - ask: elicits a Profile, then answers "subject username" (a multi
//     round-trip request in protocol 2026-07-28).
type protectedServer struct {
	t                     testing.TB
	s                     *fastmcp.Server
	is                    *oauthtest.Server
	base, resource, mdURL string
}

func newProtectedServer(t *testing.T, addr net.Addr, configure func(*auth.ProtectOptions), opts ...fastmcp.Option) *protectedServer {
	t.Helper()
	p := &protectedServer{t: t, is: oauthtest.NewServer(t, oauthtest.Options{}), base: "http://" + addr.String()}
	p.resource = p.base + "/mcp"
	p.mdURL = p.base + "/.well-known/oauth-protected-resource/mcp"
	if configure == nil {
		configure = func(*auth.ProtectOptions) {}
	}
	opts = append([]fastmcp.Option{fastmcp.Auth(auth.Protect(auth.JWT(p.is.URL(), p.resource), configure))}, opts...)
	p.s = newServer(opts...)
	type none struct{}
	p.s.Tool("whoami", func(ctx *fastmcp.Context, _ none) (string, error) {
		info := ctx.Auth()
		if info == nil {
			return "nobody", nil
		}
		return info.Subject + " " + info.ClientID + " " + strings.Join(info.Scopes, ","), nil
	})
	p.s.Tool("ask", func(ctx *fastmcp.Context, _ none) (string, error) {
		var who Profile
		if _, err := ctx.Elicit("Who?", &who); err != nil {
			return "", err
		}
		return ctx.Auth().Subject + " " + who.Username, nil
	})
	return p
}

// serveProtected serves a protectedServer with Run on a Listener on 127.0.0.1.
func serveProtected(t *testing.T, configure func(*auth.ProtectOptions), opts ...fastmcp.Option) *protectedServer {
	t.Helper()
	ln := listenLoopback(t)
	p := newProtectedServer(t, ln.Addr(), configure, append(opts, fastmcp.Listener(ln))...)
	serveOn(t, p.s, ln)
	return p
}

func listenLoopback(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// mountProtected serves a protectedServer mounted at "/" of an
// httptest.Server.
func mountProtected(t *testing.T, configure func(*auth.ProtectOptions), opts ...fastmcp.Option) *protectedServer {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	p := newProtectedServer(t, ts.Listener.Addr(), configure, opts...)
	ts.Config.Handler = p.s
	ts.Start()
	t.Cleanup(func() { closeNow(p.s); ts.Close() })
	return p
}

// token returns a valid token of subject for the server, with overrides.
func (p *protectedServer) token(subject string, overrides map[string]any) string {
	return mint(p.t, p.is, subject, p.resource, overrides)
}

// mint returns a token of as for subject and audience, through client
// "app" with scope "files:read" unless the overrides say otherwise.
func mint(t testing.TB, as *oauthtest.Server, subject, audience string, overrides map[string]any) string {
	return as.MustToken(t, oauthtest.TokenRequest{Subject: subject, ClientID: "app", Audience: []string{audience}, Scopes: []string{"files:read"}, Claims: overrides})
}

// answer is an HTTP response with its body read.
type answer struct {
	status int
	header http.Header
	body   string
}

// send sends one HTTP request with header.
func send(t *testing.T, method, url, body string, header map[string]string) answer {
	t.Helper()
	req, err := http.NewRequestWithContext(ctxT(t), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if req.Method == http.MethodGet && strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return answer{resp.StatusCode, resp.Header, ""} // an open stream: not read
	}
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, string(b)}
}

func bearer(token string) map[string]string {
	return map[string]string{"Authorization": "Bearer " + token}
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestAuthChallenges checks every refusal of the protected endpoints
// (Streamable HTTP, legacy /sse and /message) with its exact
// WWW-Authenticate header, and that /healthz and HandleHTTP routes need no
// token.
func TestAuthChallenges(t *testing.T) {
	t.Parallel()
	ln := listenLoopback(t)
	p := newProtectedServer(t, ln.Addr(), nil, fastmcp.Listener(ln))
	p.s.HandleHTTP("GET /version", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "1.0.0") }))
	serveOn(t, p.s, ln)
	now := time.Now()
	noToken := `Bearer resource_metadata="` + p.mdURL + `"`
	invalid := `Bearer error="invalid_token", resource_metadata="` + p.mdURL + `"`
	tokens := []struct {
		name, authorization, challenge string
		status                         int
	}{
		{"missing", "", noToken, 401},
		{"other scheme", "Basic YWxpY2U6cHc=", noToken, 401},
		{"garbage", "Bearer not-a-jwt", invalid, 401},
		{"wrong audience", "Bearer " + mint(t, p.is, "alice", "http://127.0.0.1:1/mcp", nil), invalid, 401},
		{"other issuer", "Bearer " + p.token("alice", map[string]any{"iss": "http://127.0.0.1:1"}), invalid, 401},
		{"expired", "Bearer " + p.token("alice", map[string]any{"exp": now.Add(-time.Hour).Unix(), "iat": now.Add(-2 * time.Hour).Unix()}), invalid, 401},
		{"not yet valid", "Bearer " + p.token("alice", map[string]any{"nbf": now.Add(time.Hour).Unix()}), invalid, 401},
	}
	endpoints := []struct{ method, path, body string }{
		{"POST", "/mcp", initializeBody},
		{"GET", "/mcp", ""},
		{"GET", "/mcp/sse", ""},
		{"POST", "/mcp/message?sessionId=x", `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
	}
	for _, e := range endpoints {
		for _, tc := range tokens {
			h := map[string]string{}
			if tc.authorization != "" {
				h["Authorization"] = tc.authorization
			}
			a := send(t, e.method, p.base+e.path, e.body, h)
			if a.status != tc.status || a.header.Get("WWW-Authenticate") != tc.challenge || len(a.header.Values("WWW-Authenticate")) != 1 {
				t.Errorf("%s %s, %s: %d %q, want %d %q", e.method, e.path, tc.name, a.status, a.header.Values("WWW-Authenticate"), tc.status, tc.challenge)
			}
		}
	}
	// A token in the query string is refused, even a valid one.
	a := send(t, "POST", p.base+"/mcp?access_token="+p.token("alice", nil), initializeBody, nil)
	if want := `Bearer error="invalid_request", error_description="access tokens are not accepted in the query string", resource_metadata="` + p.mdURL + `"`; a.status != 400 || a.header.Get("WWW-Authenticate") != want {
		t.Errorf("token in query: %d %q", a.status, a.header.Get("WWW-Authenticate"))
	}
	// A valid token passes, whatever the case of the scheme.
	for _, scheme := range []string{"Bearer", "bearer", "BEARER"} {
		a := send(t, "POST", p.base+"/mcp", initializeBody, map[string]string{"Authorization": scheme + " " + p.token("alice", nil)})
		if a.status != 200 || !strings.Contains(a.body, `"serverInfo"`) {
			t.Errorf("valid token with scheme %s: %d %s", scheme, a.status, a.body)
		}
	}
	// What is not an MCP endpoint needs no token.
	for _, path := range []string{"/healthz", "/version"} {
		if a := send(t, "GET", p.base+path, "", nil); a.status != 200 {
			t.Errorf("GET %s without a token: %d %s", path, a.status, a.body)
		}
	}
}

// TestAuthScopes checks the challenges when ProtectOptions.Bearer.Scopes are
// required of every request: scope in the 401, and 403 insufficient_scope
// for a valid token without them; and that the metadata advertises them.
func TestAuthScopes(t *testing.T) {
	t.Parallel()
	p := serveProtected(t, func(c *auth.ProtectOptions) { c.Bearer.Scopes = []string{"files:read", "files:write"} })
	is, resource, md := p.is, p.resource, p.mdURL
	for _, tc := range []struct {
		name, token, challenge string
		status                 int
	}{
		{"missing", "", `Bearer scope="files:read files:write", resource_metadata="` + md + `"`, 401},
		{"expired", mint(t, is, "alice", resource, map[string]any{"exp": time.Now().Add(-time.Hour).Unix(), "scope": "files:read files:write"}),
			`Bearer error="invalid_token", scope="files:read files:write", resource_metadata="` + md + `"`, 401},
		{"too few scopes", mint(t, is, "alice", resource, map[string]any{"scope": "files:read"}),
			`Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="` + md + `"`, 403},
		{"enough", mint(t, is, "alice", resource, map[string]any{"scope": "files:write files:read admin"}), "", 200},
	} {
		h := map[string]string{}
		if tc.token != "" {
			h = bearer(tc.token)
		}
		a := send(t, "POST", p.base+"/mcp", initializeBody, h)
		if a.status != tc.status || a.header.Get("WWW-Authenticate") != tc.challenge {
			t.Errorf("%s: %d %q, want %d %q", tc.name, a.status, a.header.Get("WWW-Authenticate"), tc.status, tc.challenge)
		}
	}
	a := send(t, "GET", md, "", nil)
	var doc map[string]any
	if err := json.Unmarshal([]byte(a.body), &doc); err != nil || !reflect.DeepEqual(doc["scopes_supported"], []any{"files:read", "files:write"}) {
		t.Errorf("metadata = %s (%v), want scopes_supported files:read files:write", a.body, err)
	}
}

// TestAuthMetadata checks the protected resource metadata document: its
// content, its paths (the resource's and the root), that it needs no token
// and is served to any origin (a browser fetches it cross-origin,
// preflight included), from Run on a Listener and from a Server mounted at "/".
func TestAuthMetadata(t *testing.T) {
	t.Parallel()
	for _, serve := range []struct {
		name string
		fn   func(*testing.T, func(*auth.ProtectOptions), ...fastmcp.Option) *protectedServer
	}{{"Listener", serveProtected}, {"mounted", mountProtected}} {
		t.Run(serve.name, func(t *testing.T) {
			t.Parallel()
			p := serve.fn(t, func(c *auth.ProtectOptions) { c.Metadata.ResourceName = "Files" })
			want := map[string]any{
				"resource":                 p.resource,
				"authorization_servers":    []any{p.is.URL()},
				"bearer_methods_supported": []any{"header"},
				"resource_name":            "Files",
			}
			foreign := map[string]string{"Origin": "https://app.example"}
			for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
				a := send(t, "GET", p.base+path, "", foreign)
				var got map[string]any
				if err := json.Unmarshal([]byte(a.body), &got); err != nil || a.status != 200 || !reflect.DeepEqual(got, want) {
					t.Errorf("GET %s = %d %s, want 200 %v", path, a.status, a.body, want)
				}
				if a.header.Get("Content-Type") != "application/json" || a.header.Get("Access-Control-Allow-Origin") != "*" {
					t.Errorf("GET %s headers = %v", path, a.header)
				}
				pre := send(t, "OPTIONS", p.base+path, "", map[string]string{"Origin": "https://app.example", "Access-Control-Request-Method": "GET"})
				if pre.status != 204 || pre.header.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(pre.header.Get("Access-Control-Allow-Methods"), "GET") {
					t.Errorf("preflight of %s = %d %v", path, pre.status, pre.header)
				}
			}
			// The MCP endpoint keeps its Origin check (the token is valid).
			h := bearer(p.token("alice", nil))
			h["Origin"] = "https://app.example"
			if a := send(t, "POST", p.base+"/mcp", initializeBody, h); a.status != 403 {
				t.Errorf("POST /mcp from a foreign origin = %d %s, want 403", a.status, a.body)
			}
			if a := send(t, "GET", p.base+"/.well-known/oauth-protected-resource/other", "", nil); a.status != 404 {
				t.Errorf("metadata of another resource = %d, want 404", a.status)
			}
		})
	}
}

// TestAuthMetadataRouteConflict: a HandleHTTP route on the metadata path
// wins over the generated document, with a log line, and serving goes on.
func TestAuthMetadataRouteConflict(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	ln := listenLoopback(t)
	p := newProtectedServer(t, ln.Addr(), nil, fastmcp.Logger(slog.New(slog.NewTextHandler(&logs, nil))), fastmcp.Listener(ln))
	p.s.HandleHTTP("/.well-known/oauth-protected-resource/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "mine")
	}))
	serveOn(t, p.s, ln)
	if a := send(t, "GET", p.mdURL, "", nil); a.status != 200 || a.body != "mine" {
		t.Errorf("GET %s = %d %q, want the route's answer", p.mdURL, a.status, a.body)
	}
	if a := send(t, "GET", p.base+"/.well-known/oauth-protected-resource", "", nil); a.status != 200 || !strings.Contains(a.body, `"resource":"`+p.resource+`"`) {
		t.Errorf("root metadata = %d %s", a.status, a.body)
	}
	if n := strings.Count(logs.String(), "the protected resource metadata is not served at /.well-known/oauth-protected-resource/mcp"); n != 1 {
		t.Errorf("%d log lines about the conflict, want 1:\n%s", n, logs.String())
	}
}

// TestAuthContextThroughOption checks that handlers read the verified token
// with Context.Auth, served by Run on a Listener and mounted, in both eras and
// over the legacy SSE transport.
func TestAuthContextThroughOption(t *testing.T) {
	t.Parallel()
	for _, serve := range []struct {
		name string
		fn   func(*testing.T, func(*auth.ProtectOptions), ...fastmcp.Option) *protectedServer
	}{{"Listener", serveProtected}, {"mounted", mountProtected}} {
		t.Run(serve.name, func(t *testing.T) {
			t.Parallel()
			p := serve.fn(t, nil)
			for _, tc := range []struct {
				name, path string
				era        client.Option
			}{
				{"legacy", "/mcp", legacy},
				{"modern", "/mcp", eras[1].opt},
				{"sse", "/mcp/sse", legacy},
			} {
				for _, user := range []string{"alice", "bob"} {
					h := http.Header{"Authorization": {"Bearer " + p.token(user, map[string]any{"client_id": "app-" + user, "scope": "a b"})}}
					c, err := client.ConnectHTTP(ctxT(t), p.base+tc.path, tc.era, client.WithHTTPHeader(h), client.WithLogger(quietLogger))
					if err != nil {
						t.Fatalf("%s as %s: %v", tc.name, user, err)
					}
					res, err := c.CallTool(ctxT(t), "whoami", nil)
					c.Close()
					if err != nil {
						t.Fatal(err)
					}
					if got, want := textOf(t, res), user+" app-"+user+" a,b"; got != want {
						t.Errorf("%s: whoami with %s's token = %q, want %q", tc.name, user, got, want)
					}
				}
			}
			// Without a token the client cannot connect, and says why.
			_, err := client.ConnectHTTP(ctxT(t), p.base+"/mcp", client.WithLogger(quietLogger))
			if err == nil || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "401") {
				t.Errorf("connect without a token: %v", err)
			}
		})
	}
}

// TestAuthPrincipalBinding checks that a session and a requestState are
// bound to the token's principal: another subject's token gets 404 for the
// session and an invalid requestState, while the same user with a
// refreshed token keeps both.
func TestAuthPrincipalBinding(t *testing.T) {
	t.Parallel()
	p := serveProtected(t, nil)
	alice1, alice2, bob := p.token("alice", nil), p.token("alice", map[string]any{"iat": time.Now().Add(-time.Second).Unix()}), p.token("bob", nil)
	if alice1 == alice2 {
		t.Fatal("the refreshed token is the same token")
	}

	t.Run("session", func(t *testing.T) {
		a := send(t, "POST", p.base+"/mcp", initializeBody, bearer(alice1))
		sid := a.header.Get("Mcp-Session-Id")
		if a.status != 200 || sid == "" {
			t.Fatalf("initialize: %d %v %s", a.status, a.header, a.body)
		}
		ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
		for _, tc := range []struct {
			who, token string
			status     int
		}{{"bob", bob, 404}, {"alice, refreshed", alice2, 200}, {"alice", alice1, 200}} {
			h := bearer(tc.token)
			h["Mcp-Session-Id"] = sid
			h["MCP-Protocol-Version"] = "2025-11-25"
			if a := send(t, "POST", p.base+"/mcp", ping, h); a.status != tc.status {
				t.Errorf("ping on alice's session as %s: %d %s, want %d", tc.who, a.status, a.body, tc.status)
			}
		}
	})

	t.Run("requestState", func(t *testing.T) {
		call := func(token, extra string) answer {
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{}` + extra +
				`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}}}`
			h := bearer(token)
			h["MCP-Protocol-Version"] = "2026-07-28"
			h["Mcp-Method"] = "tools/call"
			h["Mcp-Name"] = "ask"
			return send(t, "POST", p.base+"/mcp", body, h)
		}
		a := call(alice1, "")
		m := regexp.MustCompile(`"requestState":"([^"]+)"`).FindStringSubmatch(a.body)
		if a.status != 200 || m == nil || !strings.Contains(a.body, `"input_required"`) {
			t.Fatalf("first round: %d %s", a.status, a.body)
		}
		answer := `,"inputResponses":{"elicit-1":{"action":"accept","content":{"username":"ada","email":"a@b.c"}}},"requestState":"` + m[1] + `"`
		if a := call(bob, answer); !strings.Contains(a.body, `"error"`) || !strings.Contains(a.body, "requestState") || strings.Contains(a.body, "ada") {
			t.Errorf("alice's requestState replayed by bob: %d %s, want an invalid requestState error", a.status, a.body)
		}
		if a := call(alice2, answer); !strings.Contains(a.body, `"text":"alice ada"`) {
			t.Errorf("alice's requestState with her refreshed token: %d %s", a.status, a.body)
		}
	})
}

// syncBuffer collects log output written from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestAuthConfigErrors checks that an invalid Auth option is an error
// saying what to fix, returned by Run on an address and on a Listener
// (which serve nothing) and, for a mounted Server, 503 with one logged error;
// never a panic.
func TestAuthConfigErrors(t *testing.T) {
	t.Parallel()
	custom := auth.VerifierFunc(func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
		return &auth.TokenInfo{Subject: "x"}, nil
	})
	for _, tc := range []struct {
		name string
		opt  fastmcp.Option
		want string
	}{
		{"nil HTTPAuth", fastmcp.Auth(nil), "fastmcp: Auth: nil HTTPAuth"},
		{"nil verifier", fastmcp.Auth(auth.Protect(nil)), "fastmcp: Auth: auth: Protect: the token verifier is nil"},
		{"issuer not https", fastmcp.Auth(auth.Protect(auth.JWT("http://idp.example.com", "https://mcp.example.com/mcp"))), "fastmcp: Auth: auth: JWT: "},
		{"no audience", fastmcp.Auth(auth.Protect(auth.JWT("https://idp.example.com", ""))), "fastmcp: Auth: auth: JWT: "},
		{"custom verifier without resource", fastmcp.Auth(auth.Protect(custom)), "ProtectOptions.Metadata.Resource is empty: set it"},
		{"custom verifier without authorization servers", fastmcp.Auth(auth.Protect(custom, func(c *auth.ProtectOptions) {
			c.Metadata.Resource = "https://mcp.example.com/mcp"
		})), "ProtectOptions.Metadata.AuthorizationServers is empty"},
		{"audience not a URL", fastmcp.Auth(auth.Protect(auth.JWT("https://idp.example.com", "api://files"))),
			"ProtectOptions.Metadata.Resource, the JWT verifier's audience by default: auth: resource"},
		{"invalid resource", fastmcp.Auth(auth.Protect(auth.JWT("https://idp.example.com", "https://mcp.example.com/mcp"), func(c *auth.ProtectOptions) {
			c.Metadata.Resource = "mcp.example.com/mcp"
		})), "ProtectOptions.Metadata.Resource: auth: resource"},
		{"HMAC DPoP", fastmcp.Auth(auth.Protect(auth.JWT("https://idp.example.com", "https://mcp.example.com/mcp"), func(c *auth.ProtectOptions) {
			c.Bearer.DPoP = &auth.DPoPOptions{Algorithms: []string{"HS256"}}
		})), "fastmcp: Auth: auth: Protect: ProtectOptions.Bearer: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := newServer(tc.opt, fastmcp.Addr("127.0.0.1:0")).Run(ctxT(t))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run over HTTP: %v, want an error containing %q", err, tc.want)
			}
			ln := listenLoopback(t)
			err = newServer(tc.opt, fastmcp.Listener(ln)).Run(ctxT(t))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run on a Listener: %v, want an error containing %q", err, tc.want)
			}
			if _, err := ln.Accept(); err == nil {
				t.Error("the listener was left open")
			}

			var logs syncBuffer
			s := newServer(tc.opt, fastmcp.Logger(slog.New(slog.NewTextHandler(&logs, nil))))
			ts := httptest.NewServer(s)
			defer ts.Close()
			for range 2 {
				if a := send(t, "POST", ts.URL+"/mcp", initializeBody, nil); a.status != 503 {
					t.Errorf("mounted: %d %s, want 503", a.status, a.body)
				}
			}
			if a := send(t, "GET", ts.URL+"/.well-known/oauth-protected-resource", "", nil); a.status != 503 {
				t.Errorf("mounted metadata: %d %s, want 503", a.status, a.body)
			}
			if n := strings.Count(logs.String(), "level=ERROR"); n != 1 || !strings.Contains(logs.String(), tc.want) {
				t.Errorf("mounted logged %d errors, want 1 containing %q:\n%s", n, tc.want, logs.String())
			}
		})
	}
}

// TestAuthStdio runs a server with the Auth option over stdio in a real
// process: it serves, without authorization (ctx.Auth() is nil), and says
// once in its log that the option is ignored.
func TestAuthStdio(t *testing.T) {
	t.Parallel()
	var stderr syncBuffer
	cmd := stdioServerCommand(t, "auth")
	cmd.Stderr = &stderr
	c, err := client.ConnectCommand(ctxT(t), cmd, client.WithLogger(quietLogger))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(ctxT(t), "auth", nil)
	if err != nil || textOf(t, res) != "no token" {
		t.Errorf("auth tool over stdio: %v %v", res, err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("close: %v\n%s", err, stderr.String())
	}
	if n := strings.Count(stderr.String(), "the Auth option is ignored over stdio"); n != 1 {
		t.Errorf("%d log lines about Auth over stdio, want 1:\n%s", n, stderr.String())
	}
}

// TestAuthMountedAtMCPPath follows docs/auth.md for a Server mounted in
// one's own mux at /mcp: the metadata path mounted beside it serves the
// document, and the endpoint is protected.
func TestAuthMountedAtMCPPath(t *testing.T) {
	t.Parallel()
	ts := httptest.NewUnstartedServer(nil)
	p := newProtectedServer(t, ts.Listener.Addr(), nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", p.s)
	mux.Handle("/.well-known/oauth-protected-resource/mcp", p.s) // the metadata document
	ts.Config.Handler = mux
	ts.Start()
	t.Cleanup(func() { closeNow(p.s); ts.Close() })
	if a := send(t, "GET", p.mdURL, "", nil); a.status != 200 || !strings.Contains(a.body, `"resource":"`+p.resource+`"`) {
		t.Errorf("metadata = %d %s", a.status, a.body)
	}
	if a := send(t, "POST", p.resource, initializeBody, nil); a.status != 401 || a.header.Get("WWW-Authenticate") != `Bearer resource_metadata="`+p.mdURL+`"` {
		t.Errorf("POST /mcp without a token = %d %q", a.status, a.header.Get("WWW-Authenticate"))
	}
	if a := send(t, "POST", p.resource, initializeBody, bearer(p.token("alice", nil))); a.status != 200 {
		t.Errorf("POST /mcp with a token = %d %s", a.status, a.body)
	}
}

// TestAuthCORS checks what a browser-based client on an origin the
// DNS-rebinding policy admits (a loopback origin here) gets from the
// protected MCP endpoints: preflights answered without a token, and the
// 401 challenge readable (Access-Control-Expose-Headers names
// WWW-Authenticate); a foreign origin gets neither.
func TestAuthCORS(t *testing.T) {
	t.Parallel()
	p := serveProtected(t, nil)
	const local, foreign = "http://localhost:3000", "https://evil.example"
	for _, path := range []string{"/mcp", "/mcp/sse", "/mcp/message?sessionId=x"} {
		pre := send(t, "OPTIONS", p.base+path, "", map[string]string{"Origin": local, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type, mcp-protocol-version"})
		if pre.status != 204 || pre.header.Get("Access-Control-Allow-Origin") != local || !strings.Contains(strings.ToLower(pre.header.Get("Access-Control-Allow-Headers")), "authorization") {
			t.Errorf("preflight of %s from %s = %d %v", path, local, pre.status, pre.header)
		}
		if pre := send(t, "OPTIONS", p.base+path, "", map[string]string{"Origin": foreign, "Access-Control-Request-Method": "POST"}); pre.status != 403 || pre.header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("preflight of %s from %s = %d %v", path, foreign, pre.status, pre.header)
		}
	}
	a := send(t, "POST", p.base+"/mcp", initializeBody, map[string]string{"Origin": local})
	if a.status != 401 || a.header.Get("Access-Control-Allow-Origin") != local || !strings.Contains(a.header.Get("Access-Control-Expose-Headers"), "WWW-Authenticate") || a.header.Get("WWW-Authenticate") == "" {
		t.Errorf("POST /mcp from %s without a token = %d %v", local, a.status, a.header)
	}
	h := bearer(p.token("alice", nil))
	h["Origin"] = local
	if a := send(t, "POST", p.base+"/mcp", initializeBody, h); a.status != 200 || a.header.Get("Access-Control-Allow-Origin") != local || !strings.Contains(a.header.Get("Access-Control-Expose-Headers"), "Mcp-Session-Id") {
		t.Errorf("POST /mcp from %s with a token = %d %v", local, a.status, a.header)
	}
}

// TestAuthScopesSupportedFromFeatures checks that scopes_supported names
// the base scope (Bearer.Scopes) and every scope RequireScopes names, as
// the features are when the document is asked for, and that a 403 for a
// feature names the base scope too, so that a client asking for the
// challenge's scopes keeps it (issue 29, item 11: a client asked an OpenID
// provider for no scope of the resource, and was denied).
func TestAuthScopesSupportedFromFeatures(t *testing.T) {
	t.Parallel()
	type none struct{}
	scopesOf := func(p *protectedServer) any {
		t.Helper()
		var doc map[string]any
		if a := send(t, "GET", p.mdURL, "", nil); json.Unmarshal([]byte(a.body), &doc) != nil {
			t.Fatalf("metadata %d %q", a.status, a.body)
		}
		return doc["scopes_supported"]
	}

	p := serveProtected(t, func(c *auth.ProtectOptions) { c.Bearer.Scopes = []string{"mcp"} })
	p.s.Tool("admin", func(*fastmcp.Context, none) (string, error) { return "ok", nil }, fastmcp.RequireScopes("admin"))
	p.s.Prompt("report", func(*fastmcp.Context, none) (string, error) { return "ok", nil }, fastmcp.RequireScopes("reports:read"))
	if got, want := scopesOf(p), []any{"mcp", "admin", "reports:read"}; !reflect.DeepEqual(got, want) {
		t.Errorf("scopes_supported = %v, want %v", got, want)
	}
	p.s.RemoveTool("admin")
	p.s.Tool("files", func(*fastmcp.Context, none) (string, error) { return "ok", nil }, fastmcp.RequireScopes("files:write"))
	if got, want := scopesOf(p), []any{"mcp", "files:write", "reports:read"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after changes, scopes_supported = %v, want %v", got, want)
	}
	a := send(t, "POST", p.base+"/mcp", initializeBody, nil)
	if want := `Bearer scope="mcp", resource_metadata="` + p.mdURL + `"`; a.status != 401 || a.header.Get("WWW-Authenticate") != want {
		t.Errorf("no token: %d %q, want 401 %q", a.status, a.header.Get("WWW-Authenticate"), want)
	}
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"files","arguments":{}}}`
	a = send(t, "POST", p.base+"/mcp", call, bearer(p.token("alice", map[string]any{"scope": "mcp"})))
	if want := `Bearer error="insufficient_scope", scope="mcp files:write", resource_metadata="` + p.mdURL + `"`; a.status != 403 || a.header.Get("WWW-Authenticate") != want {
		t.Errorf("files without its scope: %d %q, want 403 %q", a.status, a.header.Get("WWW-Authenticate"), want)
	}

	// Without a base scope: the features' scopes alone. Set on purpose:
	// as set.
	p = serveProtected(t, nil)
	p.s.Tool("admin", func(*fastmcp.Context, none) (string, error) { return "ok", nil }, fastmcp.RequireScopes("admin"))
	if got, want := scopesOf(p), []any{"admin"}; !reflect.DeepEqual(got, want) {
		t.Errorf("without a base scope, scopes_supported = %v, want %v", got, want)
	}
	p = serveProtected(t, func(c *auth.ProtectOptions) { c.Metadata.ScopesSupported = []string{"custom"} })
	p.s.Tool("admin", func(*fastmcp.Context, none) (string, error) { return "ok", nil }, fastmcp.RequireScopes("admin"))
	if got, want := scopesOf(p), []any{"custom"}; !reflect.DeepEqual(got, want) {
		t.Errorf("set explicitly, scopes_supported = %v, want %v", got, want)
	}
}
