package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestInsufficientScope: a server that refuses the token with 403
// insufficient_scope gets one error line naming the scopes to ask for.
func TestInsufficientScope(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="mcp files:write", resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`)
		http.Error(w, "insufficient scope", http.StatusForbidden)
	}))
	t.Cleanup(ts.Close)
	r := cli(t, "", "list", "tools", "-H", "Authorization: Bearer t0k3n", ts.URL)
	if r.code == 0 {
		t.Fatalf("exit code 0 against a 403; stderr:\n%s", r.stderr)
	}
	oneLineError(t, r, "it needs the scopes: mcp files:write")
}
