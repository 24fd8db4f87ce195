// Package oidcpeer runs interop/oidc/provider.mjs — panva's oidc-provider
// from npm, certified by the OpenID Foundation, with a headless user — for
// the tests that need an OpenID provider no one here wrote. The test is
// skipped when Node or the peers are missing (and fails under CI=true; see
// internal/nodepeers).
package oidcpeer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/nodepeers"
)

// Provider is the provider running until the test ends.
type Provider struct {
	// Issuer is its issuer URL, http://127.0.0.1:PORT.
	Issuer string
	proc   *nodepeers.Process
}

// Start starts the provider with the command-line args of provider.mjs
// (--resource URL is required; see its comment for the others) and stops
// it when the test ends, logging its output if the test failed.
func Start(t *testing.T, args ...string) *Provider {
	t.Helper()
	peers := nodepeers.Require(t, "oidc-provider")
	_, here, _, _ := runtime.Caller(0)
	src, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "interop", "oidc", "provider.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	// Run from inside the peers' directory, so that it resolves
	// oidc-provider there (as scripts/interop.sh runs interop/js).
	dir, err := os.MkdirTemp(peers.Dir, "oidc-test.")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	script := filepath.Join(dir, "provider.mjs")
	if err := os.WriteFile(script, src, 0o600); err != nil {
		t.Fatal(err)
	}
	p := &Provider{}
	p.proc, p.Issuer = peers.Start(t, nodepeers.Command{
		Name: "oidc-provider",
		Args: append([]string{script}, args...),
		Line: func(s string) string { // its ready line: {"issuer": URL}
			var line struct{ Issuer string }
			if json.Unmarshal([]byte(s), &line) == nil {
				return line.Issuer
			}
			return ""
		},
	})
	return p
}

// Output returns what the provider printed.
func (p *Provider) Output() string { return p.proc.Output() }
