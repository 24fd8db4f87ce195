// Package prismpeer runs Stoplight Prism (npm @stoplight/prism-cli), an
// OpenAPI mock server no one here wrote, for the tests of package openapi:
// it answers every operation of a document with examples and, started with
// --errors, refuses (422, with an sl-violations header) every request the
// document does not allow, logging each violation. A test reads what Prism
// saw with Requests. The test is skipped when the peers are missing (and fails
// under CI=true; see internal/nodepeers).
package prismpeer

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/nodepeers"
)

// Prism is a mock server running until the test ends.
type Prism struct {
	// URL is its base URL, http://127.0.0.1:PORT.
	URL string

	proc *nodepeers.Process
	mu   sync.Mutex
	seen []Request // requests logged, in order
}

// A Request is one request Prism received, as it logged it.
type Request struct {
	Method string // lower case, as Prism logs it: "get", "post", ...
	Path   string // without the query
	// Violations are the document's rules the request broke; empty when
	// Prism accepted it.
	Violations []string
}

var (
	listening = regexp.MustCompile(`Prism is listening on (http://\S+)`)
	received  = regexp.MustCompile(`\[HTTP SERVER\] (\w+) (\S+) .*Request received`)
	// The validator logs each broken rule as an error when it checks the
	// request, and again as "Violation: <location> <message>" when it
	// found a response to answer with: the first is kept.
	violation = regexp.MustCompile(`\[VALIDATOR\] ✖\s+error\s+(.*)$`)
)

// Start runs `prism mock --errors spec` on a free port of 127.0.0.1 and
// stops it when the test ends, logging its output if the test failed.
func Start(t testing.TB, spec string) *Prism {
	t.Helper()
	peers := nodepeers.Require(t, "@stoplight/prism-cli")
	p := &Prism{}
	p.proc, p.URL = peers.Start(t, nodepeers.Command{
		Name: "prism",
		Args: []string{peers.Path("@stoplight/prism-cli", "dist/index.js"), "mock", "--host", "127.0.0.1", "--port", "0", "--errors", spec},
		Line: p.line,
		Kill: true, // Prism has no graceful stop to wait for
	})
	return p
}

// line records what one line of Prism's output says, and returns Prism's
// URL from the line saying it listens.
func (p *Prism) line(s string) (ready string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case listening.MatchString(s):
		return listening.FindStringSubmatch(s)[1]
	case received.MatchString(s):
		m := received.FindStringSubmatch(s)
		p.seen = append(p.seen, Request{Method: m[1], Path: m[2]})
	case violation.MatchString(s) && len(p.seen) > 0:
		if msg := violation.FindStringSubmatch(s)[1]; !strings.HasPrefix(msg, "Violation: ") {
			last := &p.seen[len(p.seen)-1]
			last.Violations = append(last.Violations, msg)
		}
	}
	return ""
}

// Requests returns the requests Prism logged so far, in the order
// received. Prism logs a request when it arrives, and its violations after
// it answered: a test that needs them checks the response (422, with an
// sl-violations header, for a refused request) or waits for the count
// with WaitRequests.
func (p *Prism) Requests() []Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Request, len(p.seen))
	for i, r := range p.seen {
		out[i] = r
		out[i].Violations = slices.Clone(r.Violations)
	}
	return out
}

// WaitRequests waits until Prism has logged n requests (its log is written
// apart from its responses) and returns them; it fails the test after ten
// seconds.
func (p *Prism) WaitRequests(t testing.TB, n int) []Request {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if rs := p.Requests(); len(rs) >= n || time.Now().After(deadline) {
			if len(rs) < n {
				t.Fatalf("prism logged %d requests, want %d:\n%s", len(rs), n, p.Output())
			}
			return rs
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Output returns everything Prism printed.
func (p *Prism) Output() string { return p.proc.Output() }
