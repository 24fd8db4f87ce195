package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
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

// TestCallRaw: call --raw sends arguments the tool's schema refuses, so
// that the server's own validation message is what the user reads;
// without it the command refuses them itself.
func TestCallRaw(t *testing.T) {
	t.Parallel()
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			target := tr.target(t)
			r := cli(t, "", target("call", "add", "a=x", "b=2")...)
			expect(t, r, exitUsage)
			oneLineError(t, r, "a=x: want an integer")

			r = cli(t, "", target("call", "--raw", "add", "a=x", "b=2", "extra=1")...)
			expect(t, r, exitToolError) // fastmcp answers invalid arguments with an error result
			if !strings.Contains(r.stderr, "must be integer") || strings.Contains(r.stderr, "want an integer") {
				t.Errorf("--raw: stderr %q; want the server's validation message", r.stderr)
			}
			r = cli(t, "", target("call", "--raw", "add", "a=1", "b=2")...)
			expect(t, r, exitOK)
		})
	}
}

// TestServerStderrOnFailure: what a server started with -- wrote to its
// stderr is not copied as it comes (its log lines would show twice), but
// shown when the server exits before the command is done, so that a
// server that cannot start says why.
func TestServerStderrOnFailure(t *testing.T) {
	t.Parallel()
	r := cli(t, "", "list", "tools", "--", server, "-stdio", "-no-such-flag")
	expect(t, r, exitConnection)
	if !strings.Contains(r.stderr, "the server's stderr") || !strings.Contains(r.stderr, "flag provided but not defined: -no-such-flag") {
		t.Errorf("stderr %q; want the server's own words", r.stderr)
	}
	r = cli(t, "", "list", "tools", "-v", "--", server, "-stdio", "-no-such-flag")
	if strings.Count(r.stderr, "flag provided but not defined") != 1 {
		t.Errorf("-v: stderr %q; want the server's stderr once", r.stderr)
	}
}
