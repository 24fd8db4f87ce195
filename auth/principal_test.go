package auth_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// TestPrincipalBindsSessions: with the transport's principal taken from
// the verified token (PrincipalFromRequest), a session opened with
// alice's token answers alice's next token (refreshed) but is 404 with
// bob's, as issue 10's session binding does for other callers.
func TestPrincipalBindsSessions(t *testing.T) {
	users := map[string]*auth.TokenInfo{
		"alice-1": {Issuer: "https://idp", Subject: "alice", ClientID: "app"},
		"alice-2": {Issuer: "https://idp", Subject: "alice", ClientID: "app"},
		"bob":     {Issuer: "https://idp", Subject: "bob", ClientID: "app"},
	}
	v := auth.VerifierFunc(func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if info, ok := users[token]; ok {
			return info, nil
		}
		return nil, errors.New("unknown token")
	})
	s := fastmcp.New("p", "1", fastmcp.HTTPPrincipal(auth.PrincipalFromRequest))
	mw := auth.RequireBearerToken(v, &auth.BearerOptions{ResourceMetadataURL: "http://127.0.0.1/.well-known/oauth-protected-resource/mcp"})
	srv := httptest.NewServer(mw(s))
	defer srv.Close()
	defer s.Shutdown(context.Background())

	post := func(token, session, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, resp.Header.Get("Mcp-Session-Id")
	}
	status, session := post("alice-1", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	if status != 200 || session == "" {
		t.Fatalf("initialize: %d, session %q", status, session)
	}
	const ping = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	if status, _ := post("alice-2", session, ping); status != 200 {
		t.Errorf("alice with a refreshed token: %d, want 200", status)
	}
	if status, _ := post("bob", session, ping); status != 404 {
		t.Errorf("bob on alice's session: %d, want 404", status)
	}
}
