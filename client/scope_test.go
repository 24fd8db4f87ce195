package client_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestInsufficientScopeError: a valid token without the scopes the
// server's bearer middleware requires is refused with 403
// insufficient_scope; the client's error names the scopes to ask for, as a
// typed error, and still wraps the HTTP error.
func TestInsufficientScopeError(t *testing.T) {
	t.Parallel()
	s := newServer()
	verify := auth.VerifierFunc(func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		scopes := map[string][]string{"some": {"mcp"}, "all": {"mcp", "files:write"}}[token]
		return &auth.TokenInfo{Subject: "alice", Scopes: scopes}, nil
	})
	ts := httptest.NewServer(auth.RequireBearerToken(verify, &auth.BearerOptions{
		ResourceMetadataURL: "https://mcp.example.com/.well-known/oauth-protected-resource",
		Scopes:              []string{"mcp", "files:write"},
	})(s))
	t.Cleanup(ts.Close)
	t.Cleanup(func() { closeNow(s) })

	_, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", client.WithLogger(quietLogger), client.WithHTTPHeader(http.Header{"Authorization": {"Bearer some"}}))
	se, ok := errors.AsType[*client.InsufficientScopeError](err)
	if !ok {
		t.Fatalf("ConnectHTTP = %v, want an *InsufficientScopeError", err)
	}
	if want := []string{"mcp", "files:write"}; !slices.Equal(se.Scopes, want) {
		t.Errorf("Scopes = %q, want %q", se.Scopes, want)
	}
	if se.ResourceMetadata != "https://mcp.example.com/.well-known/oauth-protected-resource" {
		t.Errorf("ResourceMetadata = %q", se.ResourceMetadata)
	}
	if !strings.Contains(err.Error(), "get a token granted the scopes mcp files:write") {
		t.Errorf("error text %q does not name the scopes", err)
	}
	if he, ok := errors.AsType[*transport.HTTPError](err); !ok || he.StatusCode != http.StatusForbidden {
		t.Errorf("the error does not wrap the HTTP 403: %v", err)
	}

	c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", client.WithLogger(quietLogger), client.WithHTTPHeader(http.Header{"Authorization": {"Bearer all"}}))
	if err != nil {
		t.Fatalf("with both scopes: %v", err)
	}
	c.Close()
}
