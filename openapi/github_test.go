package openapi_test

import (
	"encoding/json"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/internal/nodepeers"
	"github.com/fastmcp-go/fastmcp/openapi"
)

// GitHub's REST API description (npm @octokit/openapi, about a thousand
// operations, 13 MB of JSON), read once per test binary.
var github struct {
	once sync.Once
	data []byte
	err  error
}

func githubDescription(tb testing.TB) []byte {
	tb.Helper()
	peers := nodepeers.Require(tb, "@octokit/openapi")
	github.once.Do(func() {
		github.data, github.err = os.ReadFile(peers.Path("@octokit/openapi", "generated/api.github.com.json"))
	})
	if github.err != nil {
		tb.Fatal(github.err)
	}
	return github.data
}

// TestGitHubNames: every operation of GitHub's REST description is mapped
// to a tool with a valid, unique name, and tools/list serves them all.
//
// It is one goroutine parsing 13 MB: under the race detector it takes 40 s
// and checks nothing more, so it runs without it (.ci/run has a step for
// it; make test's race run skips it).
func TestGitHubNames(t *testing.T) {
	if raceEnabled {
		t.Skip("run without -race: go test -run TestGitHubNames ./ (in module openapi; .ci/run does)")
	}
	d, err := openapi.Parse(githubDescription(t))
	if err != nil {
		t.Fatal(err)
	}
	ops := d.Operations()
	s := fastmcp.New("github", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	comps, err := openapi.Register(s, d, openapi.Config{BaseURL: "https://api.github.com"})
	if err != nil {
		t.Fatal(err)
	}
	if len(comps) != len(ops) {
		t.Fatalf("%d components for %d operations", len(comps), len(ops))
	}
	seen := map[string]bool{}
	for _, c := range comps {
		if seen[c.Name] {
			t.Errorf("name %q given twice", c.Name)
		}
		seen[c.Name] = true
		if !validName(c.Name) {
			t.Errorf("%s %s: invalid tool name %q", c.Operation.Method, c.Operation.Path, c.Name)
		}
	}
	c := fastmcptest.NewClient(t, s)
	listed, size, in, out := 0, 0, 0, 0
	for cursor := ""; ; {
		page, err := c.ListTools(t.Context(), cursor)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(page)
		size += len(b)
		listed += len(page.Tools)
		for _, tl := range page.Tools {
			in += len(tl.InputSchema)
			out += len(tl.OutputSchema)
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if listed != len(comps) {
		t.Fatalf("tools/list served %d tools, want %d", listed, len(comps))
	}
	t.Logf("%d operations → %d tools, tools/list %d bytes (input schemas %d, output schemas %d)", len(ops), listed, size, in, out)
}

// validName is the MCP tool-name rule (SEP-986).
func validName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.' || r == '/') {
			return false
		}
	}
	return true
}

// BenchmarkGitHub: parse GitHub's REST description (Parse), and register
// every operation on a fresh server (Register, the document parsed once).
// Register reports the tools made, the size of tools/list (all pages) and
// the heap the server holds afterwards.
func BenchmarkGitHub(b *testing.B) {
	data := githubDescription(b)
	b.Run("Parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := openapi.Parse(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	d, err := openapi.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Register", func(b *testing.B) {
		var tools int
		var heap uint64
		for i := 0; b.Loop(); i++ {
			s := fastmcp.New("github", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
			comps, err := openapi.Register(s, d, openapi.Config{BaseURL: "https://api.github.com"})
			if err != nil {
				b.Fatal(err)
			}
			tools = len(comps)
			if i == 0 {
				var before, after runtime.MemStats
				s = nil
				runtime.GC()
				runtime.ReadMemStats(&before)
				s = fastmcp.New("github", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
				if _, err := openapi.Register(s, d, openapi.Config{BaseURL: "https://api.github.com"}); err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				heap = after.HeapAlloc - before.HeapAlloc
				runtime.KeepAlive(s)
			}
		}
		b.ReportMetric(float64(tools), "tools")
		b.ReportMetric(float64(heap)/(1<<20), "server-heap-MiB")
		b.ReportMetric(float64(listSize(b, d)), "list-bytes")
	})
}

// listSize returns the size of tools/list for the document d, all pages.
func listSize(b *testing.B, d *openapi.Document) int {
	s := fastmcp.New("github", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	if _, err := openapi.Register(s, d, openapi.Config{BaseURL: "https://api.github.com"}); err != nil {
		b.Fatal(err)
	}
	c := fastmcptest.NewClient(b, s)
	size := 0
	for cursor := ""; ; {
		page, err := c.ListTools(b.Context(), cursor)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := json.Marshal(page)
		size += len(body)
		if cursor = page.NextCursor; cursor == "" {
			return size
		}
	}
}
