package fastmcp_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/transport"
)

// A tool that needs a scope, behind the bearer check: a token without the
// scope gets the 403 step-up challenge, one with it gets the tool's answer.
func ExampleRequireScopes() {
	s := fastmcp.New("files", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	type deleteArgs struct {
		Path string `json:"path"`
	}
	s.Tool("delete", func(in deleteArgs) (string, error) { return "deleted " + in.Path, nil },
		fastmcp.RequireScopes("files:write"))

	// Tokens and their scopes; a real server verifies JWTs (auth.NewJWTVerifier).
	grants := map[string][]string{"reader": {"files:read"}, "writer": {"files:read", "files:write"}}
	verifier := auth.VerifierFunc(func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		scopes, ok := grants[token]
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Subject: token, Scopes: scopes}, nil
	})
	requireToken := auth.RequireBearerToken(verifier, &auth.BearerOptions{
		ResourceMetadataURL: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
	})
	srv := httptest.NewServer(requireToken(s))
	defer srv.Close()
	defer closeNow(s)

	ctx := context.Background()
	for _, token := range []string{"reader", "writer"} {
		c, err := client.ConnectHTTP(ctx, srv.URL+"/mcp", client.WithHTTPHeader(http.Header{"Authorization": {"Bearer " + token}}))
		if err != nil {
			panic(err)
		}
		res, err := c.CallTool(ctx, "delete", map[string]any{"path": "/tmp/x"})
		if he, ok := errors.AsType[*transport.HTTPError](err); ok {
			fmt.Println(token+":", he.StatusCode, he.Header.Get("WWW-Authenticate"))
		} else if err == nil {
			fmt.Println(token+":", res.Text())
		}
		c.Close()
	}
	// Output:
	// reader: 403 Bearer error="insufficient_scope", scope="files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// writer: deleted /tmp/x
}
