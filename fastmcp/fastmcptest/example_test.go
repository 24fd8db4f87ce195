package fastmcptest_test

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
)

// update rewrites the golden files: go test -update.
var update = flag.Bool("update", false, "rewrite the golden files in testdata")

type AddArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

// newCalc builds the server under test.
func newCalc() *fastmcp.Server {
	s := fastmcp.New("calc", "1.0.0")
	s.Tool("add", func(in AddArgs) int { return in.A + in.B }, fastmcp.Description("Add two integers"))
	return s
}

// In your package this is func TestAdd(t *testing.T); here TestExample runs
// it. It calls the tool through a client in memory, once per protocol era.
func testAdd(t *testing.T) {
	for _, v := range fastmcptest.Versions() {
		t.Run(v, func(t *testing.T) {
			c := fastmcptest.NewClient(t, newCalc(), fastmcp.ProtocolVersion(v))
			res, err := c.CallTool(t.Context(), "add", AddArgs{A: 2, B: 3})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Content[0].(*fastmcp.TextContent).Text; got != "5" {
				t.Errorf("add(2, 3) = %s, want 5", got)
			}
		})
	}
}

// testAddGolden (TestAddGolden) compares the whole exchange with
// testdata/add_<revision>.txtar; go test -update rewrites the files.
func testAddGolden(t *testing.T) {
	for _, v := range fastmcptest.Versions() {
		t.Run(v, func(t *testing.T) {
			c, tr := fastmcptest.Record(t, newCalc(), fastmcp.ProtocolVersion(v))
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

// Tests of a server: in memory in both protocol eras, against golden
// transcripts, and over HTTP. The test functions are run by go test (here
// by TestExample).
func Example() {}
