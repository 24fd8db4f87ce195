package fastmcp_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// account answers with the caller's verified access token.
func account(ctx *fastmcp.Context) (string, error) {
	info := ctx.Auth() // nil without the Auth option, and over stdio
	if info == nil {
		return "anonymous", nil
	}
	if missing := info.MissingScopes("files:read"); missing != nil {
		return "", fmt.Errorf("this tool needs the scopes %v", missing)
	}
	return info.Subject + " via " + info.ClientID, nil
}

// ExampleAuth protects a server with JWT access tokens: a request without
// one gets 401 and a challenge naming the metadata document, which says
// where to get one.
func ExampleAuth() {
	s := fastmcp.New("files", "1.0.0",
		fastmcp.Auth(auth.Protect(auth.JWT("https://idp.example.com", "https://mcp.example.com/mcp"))),
		fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("account", account)

	ts := httptest.NewServer(s) // mounted at "/": /mcp, /sse, /message and the metadata
	defer ts.Close()
	defer s.Shutdown(context.Background())

	resp, err := http.Post(ts.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode, resp.Header.Get("WWW-Authenticate"))

	resp, err = http.Get(ts.URL + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(string(body))
	// Output:
	// 401 Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// {"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"bearer_methods_supported":["header"]}
}

// ExampleAuth_config protects a server with a verifier of its own (API
// keys here), which needs the metadata's resource and authorization
// server, and requires a scope of every request.
func ExampleAuth_config() {
	keys := map[string]*auth.TokenInfo{"k-123": {Subject: "ci-bot", ClientID: "ci", Scopes: []string{"files:read"}}}
	lookup := auth.VerifierFunc(func(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
		if info, ok := keys[token]; ok {
			return info, nil
		}
		return nil, auth.ErrInvalidToken
	})
	s := fastmcp.New("files", "1.0.0",
		fastmcp.Auth(auth.Protect(lookup, func(c *auth.ProtectOptions) {
			c.Metadata.Resource = "https://mcp.example.com/mcp"
			c.Metadata.AuthorizationServers = []string{"https://idp.example.com"}
			c.Bearer.Scopes = []string{"files:read"} // every request needs it
		})),
		fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("account", account)

	ts := httptest.NewServer(s)
	defer ts.Close()
	defer s.Shutdown(context.Background())

	for _, token := range []string{"", "wrong", "k-123"} {
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%q: %d %s", token, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))))
	}
	c, err := client.ConnectHTTP(context.Background(), ts.URL+"/mcp",
		client.WithHTTPHeader(http.Header{"Authorization": {"Bearer k-123"}}), client.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		panic(err)
	}
	defer c.Close()
	res, err := c.CallTool(context.Background(), "account", nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("account:", res.Text())
	// Output:
	// "": 401 Bearer scope="files:read", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// "wrong": 401 Bearer error="invalid_token", scope="files:read", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// "k-123": 200
	// account: ci-bot via ci
}

// ExampleAuth_settings leaves the issuer and the audience to the
// deployment: auth.JWT("", "") takes them from the auth settings (the
// -auth-issuer and -auth-audience flags here; FASTMCP_AUTH_ISSUER and
// FASTMCP_AUTH_AUDIENCE in the environment), resolved when the server
// starts serving. The order is New with every option, Flags, Parse, then
// serve (Run, or mounted as here).
func ExampleAuth_settings() {
	args := []string{"-auth-issuer", "https://idp.example.com", "-auth-audience", "https://mcp.example.com/mcp"} // os.Args[1:]

	s := fastmcp.New("files", "1.0.0",
		fastmcp.Auth(auth.Protect(auth.JWT("", ""))), // issuer and audience: from the settings
		fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("account", account)
	fs := flag.NewFlagSet("files", flag.ExitOnError) // flag.CommandLine in a program
	s.Flags(fs)                                      // after New: -auth-issuer, -addr, ...
	fs.Parse(args)                                   // before serving: flag.Parse() in a program

	ts := httptest.NewServer(s) // or s.Run(ctx): either resolves the settings when it starts
	defer ts.Close()
	defer s.Shutdown(context.Background())

	resp, err := http.Get(ts.URL + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(string(body))
	// Output:
	// {"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"bearer_methods_supported":["header"]}
}
