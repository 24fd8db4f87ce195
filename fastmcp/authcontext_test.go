package fastmcp_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// TestContextAuth checks that a handler reads, with Context.Auth, the
// token the bearer middleware in front of the server verified for that
// very request, over each HTTP transport and era, and nil in memory.
func TestContextAuth(t *testing.T) {
	s := newServer()
	type none struct{}
	s.Tool("whoami", func(ctx *fastmcp.Context, _ none) (string, error) {
		info := ctx.Auth()
		if info == nil {
			return "nobody", nil
		}
		return info.Subject, nil
	})
	verify := auth.VerifierFunc(func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		sub, ok := strings.CutPrefix(token, "token-of-")
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Subject: sub}, nil
	})
	protect := auth.RequireBearerToken(verify, &auth.BearerOptions{ResourceMetadataURL: "http://127.0.0.1/.well-known/oauth-protected-resource/mcp"})
	ts := httptest.NewServer(protect(s))
	t.Cleanup(ts.Close)
	t.Cleanup(func() { closeNow(s) })

	for _, tc := range []struct {
		name, path string
		era        client.Option
	}{
		{"streamable-legacy", "/mcp", legacy},
		{"streamable-modern", "/mcp", eras[1].opt},
		{"sse", "/sse", legacy},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, user := range []string{"alice", "bob"} {
				h := http.Header{"Authorization": {"Bearer token-of-" + user}}
				c, err := client.ConnectHTTP(ctxT(t), ts.URL+tc.path, tc.era, client.WithHTTPHeader(h), client.WithLogger(quietLogger))
				if err != nil {
					t.Fatal(err)
				}
				res, err := c.CallTool(ctxT(t), "whoami", nil)
				c.Close()
				if err != nil {
					t.Fatal(err)
				}
				if got := textOf(t, res); got != user {
					t.Errorf("whoami with %s's token = %q", user, got)
				}
			}
		})
	}

	t.Run("memory", func(t *testing.T) {
		res, err := connect(t, s).CallTool(ctxT(t), "whoami", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := textOf(t, res); got != "nobody" {
			t.Errorf("whoami in memory = %q, want nobody", got)
		}
	})

	t.Run("refused", func(t *testing.T) {
		_, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", legacy, client.WithLogger(quietLogger))
		if err == nil {
			t.Fatal("connected without a token")
		}
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatal(err)
		}
	})
}
