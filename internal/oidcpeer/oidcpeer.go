// Package oidcpeer runs interop/oidc/provider.mjs — panva's oidc-provider
// from npm, certified by the OpenID Foundation, with a headless user — for
// the tests that need an OpenID provider no one here wrote. The test is
// skipped when Node or the peers are missing (and fails under CI=true; see
// internal/nodepeers).
package oidcpeer

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/nodepeers"
)

// Provider is the provider running until the test ends.
type Provider struct {
	// Issuer is its issuer URL, http://127.0.0.1:PORT.
	Issuer string
	mu     sync.Mutex
	log    strings.Builder // its stdout after the ready line, and stderr
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
	cmd := exec.Command(peers.Node, append([]string{script}, args...)...)
	stdin, err := cmd.StdinPipe() // closing it stops the provider
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = p
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan string, 1)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var line struct{ Issuer string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Issuer != "" {
				ready <- line.Issuer
				continue
			}
			p.Write(append(sc.Bytes(), '\n'))
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() {
			<-copied
			cmd.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("oidc-provider's output:\n%s", p.Output())
		}
	})
	select {
	case p.Issuer = <-ready:
	case <-copied:
		t.Fatalf("oidc-provider exited before it was ready:\n%s", p.Output())
	case <-time.After(60 * time.Second):
		t.Fatalf("oidc-provider was not ready after a minute:\n%s", p.Output())
	}
	return p
}

// Write collects the provider's output.
func (p *Provider) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.Write(b)
}

// Output returns what the provider printed besides its ready line.
func (p *Provider) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}
