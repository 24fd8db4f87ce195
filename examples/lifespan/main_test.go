package main

import (
	"bytes"
	"context"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"net"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/internal/exampletest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRun(t *testing.T) {
	out := exampletest.Run(t, run)
	want := `db: opened memory://notes
put greeting → 1 row(s)
put farewell → 2 row(s)
get greeting → hello
get missing → error: no row with key "missing"
db: closed with 2 row(s)
`
	exampletest.Equal(t, out, want)
}

// TestOpenFails checks that a lifespan error stops the server from
// starting, and comes back to the caller.
func TestOpenFails(t *testing.T) {
	var out bytes.Buffer
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = serve(context.Background(), newServer("postgres://db", &out, fastmcp.Listener(ln)), ln)
	if err == nil || !strings.Contains(err.Error(), "only memory:// databases") {
		t.Fatalf("serve with a bad dsn: %v, want the lifespan's error", err)
	}
	if out.Len() != 0 {
		t.Errorf("output %q, want none", out.String())
	}
}
