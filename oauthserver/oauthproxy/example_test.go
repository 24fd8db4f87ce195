package oauthproxy_test

import (
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/oauthserver"
	"github.com/fastmcp-go/fastmcp/oauthserver/oauthproxy"
)

// ExampleNew protects an MCP server with a proxy in front of GitHub: MCP
// clients register with the proxy and get its tokens; users sign in at
// GitHub; a tool calls GitHub's API with the user's GitHub token.
func ExampleNew() {
	up := oauthproxy.GitHub("Ov23liExampleClientID", os.Getenv("GITHUB_CLIENT_SECRET")) // your GitHub OAuth app
	as, proxy, err := oauthproxy.New(oauthproxy.Config{Upstream: up}, oauthserver.Config{
		Issuer:    "https://mcp.example.com",
		Resources: []string{"https://mcp.example.com/mcp"},
	})
	if err != nil {
		log.Fatal(err)
	}
	s := fastmcp.New("repos", "1.0.0", fastmcp.Auth(as.Protect("https://mcp.example.com/mcp")))
	s.Tool("github_user", func(ctx *fastmcp.Context) (string, error) {
		tok, err := proxy.UpstreamToken(ctx) // the user's GitHub token, never sent to the client
		if err != nil {
			return "", err
		}
		req, _ := http.NewRequestWithContext(ctx, "GET", "https://api.github.com/user", nil)
		tok.SetAuthHeader(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		return resp.Status, nil
	})

	// A client's authorization request goes on to GitHub.
	w := httptest.NewRecorder()
	as.ServeHTTP(w, httptest.NewRequest("GET", "/.well-known/oauth-authorization-server", nil))
	fmt.Println(w.Code, w.Header().Get("Content-Type"))
	// Output:
	// 200 application/json
}
