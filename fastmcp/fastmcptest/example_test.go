package fastmcptest_test

import (
	"context"
	"flag"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// update rewrites the golden files: go test -update.
var update = flag.Bool("update", false, "rewrite the golden files in testdata")

type AddArgs struct {
	A int `json:"a"`
	B int `json:"b" validate:"gte=0"`
}

// add is the tool's handler: a plain function.
func add(in AddArgs) int { return in.A + in.B }

// newCalc builds the server under test.
func newCalc() *fastmcp.Server {
	s := fastmcp.New("calc", "1.0.0")
	s.Tool("add", add, fastmcp.Description("Add two integers"))
	return s
}

// testAddDirectly (TestAddDirectly) calls the handler as the function it
// is: no server, no client, no validation.
func testAddDirectly(t *testing.T) {
	if got := add(AddArgs{A: 2, B: 3}); got != 5 {
		t.Errorf("add(2, 3) = %d, want 5", got)
	}
}

// In your package this is func TestAdd(t *testing.T); here TestExample runs
// it. It calls the tool through a client in memory, once per protocol era.
func testAdd(t *testing.T) {
	for _, v := range fastmcptest.Versions() {
		t.Run(v, func(t *testing.T) {
			c := fastmcptest.NewClient(t, newCalc(), client.WithProtocolVersion(v))
			res, err := c.CallTool(t.Context(), "add", AddArgs{A: 2, B: 3})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Text(); got != "5" {
				t.Errorf("add(2, 3) = %s, want 5", got)
			}
		})
	}
}

// testAddValidation (TestAddValidation) checks what only the server does:
// arguments are validated before the handler runs.
func testAddValidation(t *testing.T) {
	c := fastmcptest.NewClient(t, newCalc())
	res, err := c.CallTool(t.Context(), "add", AddArgs{A: 2, B: -3})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError {
		t.Errorf("add(2, -3) = %v, want an error result", res.Content)
	}
}

// testAnswers (TestAnswers) answers what a tool asks the client and shows
// the tool's log messages in the test's output.
func testAnswers(t *testing.T) {
	s := newCalc()
	s.Tool("reset", func(ctx *fastmcp.Context) (string, error) {
		ctx.Info("asking before a reset")
		var answer struct {
			OK bool `json:"ok"`
		}
		if action, err := ctx.Elicit("Reset everything?", &answer); err != nil || action != fastmcp.ElicitAccept || !answer.OK {
			return "kept", err
		}
		return "reset", nil
	}, fastmcp.Description("Reset, once the user agrees"))
	c := fastmcptest.NewClient(t, s,
		client.WithElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
			return client.AcceptElicitation(map[string]bool{"ok": true})
		}),
		client.WithLogLevel(protocol.LevelInfo),
		client.WithLogHandler(func(m *protocol.LoggingMessageParams) { t.Log(m.Data) }),
	)
	res, err := c.CallTool(t.Context(), "reset", nil)
	if err != nil || res.Text() != "reset" {
		t.Fatalf("reset: %v, %v", res, err)
	}
}

// testAddGolden (TestAddGolden) compares the whole exchange with
// testdata/add_<revision>.txtar; go test -update rewrites the files.
func testAddGolden(t *testing.T) {
	for _, v := range fastmcptest.Versions() {
		t.Run(v, func(t *testing.T) {
			c, tr := fastmcptest.Record(t, newCalc(), client.WithProtocolVersion(v))
			if _, err := c.CallTool(t.Context(), "add", AddArgs{A: 2, B: 3}); err != nil {
				t.Fatal(err)
			}
			tr.CheckGolden(t, filepath.Join("testdata", "add_"+v+".txtar"), *update)
		})
	}
}

// testAddHTTP (TestAddHTTP) calls the tool over Streamable HTTP on
// 127.0.0.1.
func testAddHTTP(t *testing.T) {
	c := fastmcptest.NewHTTPClient(t, newCalc())
	res, err := c.CallTool(t.Context(), "add", AddArgs{A: 2, B: 3})
	if err != nil || res.IsError {
		t.Fatalf("add: %v, %v", res, err)
	}
}

// testStdio (TestStdio) builds a server program and talks to it over
// stdio, as a host would. The program here is examples/hello, which serves
// over stdio when started as "hello serve".
func testStdio(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "server")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", bin, "../../examples/hello").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	c, err := client.ConnectCommand(t.Context(), &client.Command{Path: bin, Args: []string{"serve"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	res, err := c.CallTool(t.Context(), "greet", map[string]string{"name": "Ada"})
	if err != nil || !strings.Contains(res.Text(), "Ada") {
		t.Fatalf("greet: %v, %v", res, err)
	}
}

// Tests of a server: its handler called directly, through a client in
// memory in both protocol eras, against golden transcripts, over HTTP and
// over stdio. The test functions are run by go test (here
// by TestExample).
func Example() {}
