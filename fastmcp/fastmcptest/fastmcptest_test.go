package fastmcptest_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
)

type addArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

type confirm struct {
	OK bool `json:"ok"`
}

// newServer is a server with a tool that logs, one that asks the client to
// confirm, and a resource.
func newServer() *fastmcp.Server {
	s := fastmcp.New("calc", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("add", func(ctx *fastmcp.Context, in addArgs) int {
		ctx.Info("adding")
		return in.A + in.B
	}, fastmcp.Description("Add two integers"))
	s.Tool("confirm", func(ctx *fastmcp.Context) (string, error) {
		var c confirm
		action, err := ctx.Elicit("Go ahead?", &c)
		if err != nil {
			return "", err
		}
		if action != fastmcp.ElicitAccept || !c.OK {
			return "stopped", nil
		}
		return "done", nil
	}, fastmcp.Description("Ask before acting"))
	s.Resource("docs://readme", func() string { return "Read me first." })
	return s
}

// yes answers every elicitation by accepting with {"ok":true}.
var yes = client.WithElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
	return &client.ElicitResult{Action: string(fastmcp.ElicitAccept), Content: []byte(`{"ok":true}`)}, nil
})

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func text(t *testing.T, res *fastmcp.ToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("want one content block, got %d", len(res.Content))
	}
	tc, ok := res.Content[0].(*fastmcp.TextContent)
	if !ok {
		t.Fatalf("want text, got %T", res.Content[0])
	}
	return tc.Text
}

// exercise calls the server's tools and reads its resource through c, on
// the protocol revision version.
func exercise(t *testing.T, c *client.Client, version string) {
	t.Helper()
	if got := c.ProtocolVersion(); got != version {
		t.Errorf("ProtocolVersion() = %s, want %s", got, version)
	}
	res, err := c.CallTool(ctxT(t), "add", addArgs{A: 2, B: 3})
	if err != nil || text(t, res) != "5" {
		t.Fatalf("add: %v, %v", res, err)
	}
	res, err = c.CallTool(ctxT(t), "confirm", nil)
	if err != nil || text(t, res) != "done" {
		t.Fatalf("confirm: %v, %v", res, err)
	}
	rr, err := c.ReadResource(ctxT(t), "docs://readme")
	if err != nil || len(rr.Contents) != 1 {
		t.Fatalf("read: %v, %v", rr, err)
	}
}

// TestClients connects to a server in both eras, in memory and over HTTP,
// and checks the client speaks the era asked for and reaches the server's
// tools (one of which sends a request back to the client) and resources.
func TestClients(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		connect func(testing.TB, *fastmcp.Server, ...client.Option) *client.Client
	}{
		{"memory", fastmcptest.NewClient},
		{"http", fastmcptest.NewHTTPClient},
	} {
		for _, v := range fastmcptest.Versions() {
			t.Run(tc.name+"/"+v, func(t *testing.T) {
				t.Parallel()
				c := tc.connect(t, newServer(), client.WithProtocolVersion(v), yes)
				exercise(t, c, v)
			})
		}
		t.Run(tc.name+"/default", func(t *testing.T) {
			t.Parallel()
			exercise(t, tc.connect(t, newServer(), yes), fastmcptest.Modern)
		})
	}
}

// TestOneServerManyClients serves one server to several clients at once.
func TestOneServerManyClients(t *testing.T) {
	t.Parallel()
	s := newServer()
	for i := range 4 {
		c := fastmcptest.NewClient(t, s, yes, client.WithProtocolVersion(fastmcptest.Versions()[i%2]))
		exercise(t, c, fastmcptest.Versions()[i%2])
	}
}

// TestCleanupLeavesNoGoroutines checks that once a test using the clients
// has ended, neither the clients nor the servers left a goroutine behind
// (goleak.VerifyTestMain would catch it too, but not which test it was).
func TestCleanupLeavesNoGoroutines(t *testing.T) {
	// Not parallel: goleak sees every goroutine of the process.
	opt := goleak.IgnoreCurrent()
	t.Run("clients", func(t *testing.T) {
		for _, v := range fastmcptest.Versions() {
			exercise(t, fastmcptest.NewClient(t, newServer(), client.WithProtocolVersion(v), yes), v)
			exercise(t, fastmcptest.NewHTTPClient(t, newServer(), client.WithProtocolVersion(v), yes), v)
		}
		// A call still running when the test ends.
		s := newServer()
		started := make(chan struct{})
		s.Tool("block", func(ctx *fastmcp.Context) (string, error) {
			close(started)
			<-ctx.Done()
			return "", ctx.Err()
		})
		c := fastmcptest.NewClient(t, s)
		go c.CallTool(context.Background(), "block", nil)
		<-started
	})
	goleak.VerifyNone(t, opt)
}

// TestNewHTTPServer sends a raw request to the endpoint NewHTTPServer
// serves on 127.0.0.1.
func TestNewHTTPServer(t *testing.T) {
	t.Parallel()
	ts := fastmcptest.NewHTTPServer(t, newServer())
	if !strings.HasPrefix(ts.URL, "http://127.0.0.1:") {
		t.Errorf("URL = %s, want one on 127.0.0.1", ts.URL)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"add","arguments":{"a":1,"b":2}}}`
	req, err := http.NewRequestWithContext(ctxT(t), "POST", ts.URL+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "add")
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"text":"3"`) {
		t.Errorf("status %d, body %s", resp.StatusCode, b)
	}
}

// TestExample runs the test functions of the package Example.
func TestExample(t *testing.T) {
	t.Parallel()
	t.Run("directly", testAddDirectly)
	t.Run("add", testAdd)
	t.Run("validation", testAddValidation)
	t.Run("answers", testAnswers)
	t.Run("golden", testAddGolden)
	t.Run("http", testAddHTTP)
	t.Run("stdio", testStdio)
}

// TestDocs checks that every Go snippet of docs/testing.md is taken from a
// file go test compiles and runs (its lines appear there, together and in
// order, leading tabs aside), and that no page of docs/ calls the
// unexported helpers of our own tests.
func TestDocs(t *testing.T) {
	t.Parallel()
	if n := docsnippets.Check(t, []string{"../../docs/testing.md"}, []string{"example_test.go", "../example_prompt_test.go"}); n < 5 {
		t.Fatalf("docs/testing.md has %d Go snippets", n)
	}
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("docs/*.md: %v", err)
	}
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, helper := range []string{"serveInMemory", "connect(t,"} {
			if strings.Contains(string(b), helper) {
				t.Errorf("%s calls %s, a helper of our tests that readers cannot call", p, helper)
			}
		}
	}
}
