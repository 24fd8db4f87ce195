package main

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// start serves the protected endpoint on 127.0.0.1 against a test
// authorization server, and returns both.
func start(t *testing.T) (*oauthtest.Server, string) {
	t.Helper()
	as := oauthtest.NewServer(t, oauthtest.Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + ln.Addr().String() + "/mcp"
	h, s, err := handler(as.URL(), endpoint)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(func() {
		s.Shutdown(context.Background())
		srv.Close()
	})
	return as, endpoint
}

// bearer returns an http.Client that sends token.
func bearer(token string) *http.Client {
	return &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+token)
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestTools: a fastmcp client with a token calls whoami and admin.
func TestTools(t *testing.T) {
	as, endpoint := start(t)
	tests := []struct {
		name, tool string
		scopes     []string
		want       string // the text returned, or the error's
		wantErr    bool
	}{
		{"whoami", "whoami", []string{"mcp"}, "alice", false},
		{"admin with the scope", "admin", []string{"mcp", "admin"}, "admin for alice with scopes [mcp admin]", false},
		{"admin without it", "admin", []string{"mcp"}, "403", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			token, err := as.Token(oauthtest.TokenRequest{Subject: "alice", Audience: []string{endpoint}, Scopes: tt.scopes})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			c, err := client.ConnectHTTP(ctx, endpoint, client.WithHTTPClient(bearer(token)))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			res, err := c.CallTool(ctx, tt.tool, nil)
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("got %v, %v; want an error with %q", res, err, tt.want)
				}
				return
			}
			if err != nil || res.IsError || res.Text() != tt.want {
				t.Fatalf("got %+v, %v; want %q", res, err, tt.want)
			}
		})
	}
}

// TestChallenges: what a client without the right token is told.
func TestChallenges(t *testing.T) {
	as, endpoint := start(t)
	metadata := strings.Replace(endpoint, "/mcp", "/.well-known/oauth-protected-resource/mcp", 1)
	token := func(aud string, scopes ...string) string {
		tok, err := as.Token(oauthtest.TokenRequest{Audience: []string{aud}, Scopes: scopes})
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"admin"}}`
	tests := []struct {
		name, token, body string
		header            map[string]string
		status            int
		challenge         string
	}{
		{"no token", "", call, nil, 401, `Bearer scope="mcp", resource_metadata="` + metadata + `"`},
		{"another audience", token("http://127.0.0.1:1/mcp", "mcp"), call, nil, 401, `Bearer error="invalid_token", scope="mcp", resource_metadata="` + metadata + `"`},
		{"without scope mcp", token(endpoint), call, nil, 403, `Bearer error="insufficient_scope", scope="mcp", resource_metadata="` + metadata + `"`},
		{"admin without scope admin", token(endpoint, "mcp"), call, nil, 403, `Bearer error="insufficient_scope", scope="mcp admin", resource_metadata="` + metadata + `"`},
		{"admin named in headers only", token(endpoint, "mcp"), `{}`,
			map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "admin"}, 403, `Bearer error="insufficient_scope", scope="mcp admin", resource_metadata="` + metadata + `"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", endpoint, strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tt.token != "" {
				req.Header.Set("Authorization", "Bearer "+tt.token)
			}
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if got := res.Header.Get("WWW-Authenticate"); res.StatusCode != tt.status || got != tt.challenge {
				t.Fatalf("got %d %s\nwant %d %s", res.StatusCode, got, tt.status, tt.challenge)
			}
		})
	}
}

// TestSSE: the legacy HTTP+SSE endpoints, under the resource's path, are
// protected too.
func TestSSE(t *testing.T) {
	as, endpoint := start(t)
	token, err := as.Token(oauthtest.TokenRequest{Audience: []string{endpoint}, Scopes: []string{"mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	get := func(token string) *http.Response {
		t.Helper()
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		req, _ := http.NewRequestWithContext(ctx, "GET", endpoint+"/sse", nil)
		req.Header.Set("Accept", "text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
	if res := get(""); res.StatusCode != 401 || !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), `Bearer scope="mcp", resource_metadata=`) {
		t.Fatalf("without a token: %d %q", res.StatusCode, res.Header.Get("WWW-Authenticate"))
	}
	res := get(token)
	if res.StatusCode != 200 {
		t.Fatalf("with a token: %d", res.StatusCode)
	}
	buf := make([]byte, 256)
	n, _ := res.Body.Read(buf)
	if got := string(buf[:n]); !strings.Contains(got, "event: endpoint") || !strings.Contains(got, "/mcp/message?") {
		t.Fatalf("first event %q, want the endpoint under /mcp", got)
	}
	msg, err := http.Post(endpoint+"/message?sessionId=x", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	msg.Body.Close()
	if msg.StatusCode != 401 {
		t.Fatalf("message without a token: %d", msg.StatusCode)
	}
}
