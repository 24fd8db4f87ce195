package redisstore_test

import (
	"go/build"
	"os/exec"
	"strings"
	"testing"
)

// TestImportsOnlyContracts: the library code of redisstore (not its
// tests, nor the redisurl bridge) reaches neither the server (fastmcp)
// nor the transport nor the session engine, directly or through another
// package: it implements the contracts of package store and imports
// store, protocol and its own dependencies only.
func TestImportsOnlyContracts(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports { // direct imports: only store and protocol of the SDK
		if strings.HasPrefix(imp, "github.com/fastmcp-go/fastmcp/") && imp != "github.com/fastmcp-go/fastmcp/store" && imp != "github.com/fastmcp-go/fastmcp/protocol" {
			t.Errorf("redisstore imports %s; it may import store and protocol only", imp)
		}
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch dep {
		case "github.com/fastmcp-go/fastmcp/fastmcp", "github.com/fastmcp-go/fastmcp/transport",
			"github.com/fastmcp-go/fastmcp/session", "github.com/fastmcp-go/fastmcp/lowlevel", "github.com/fastmcp-go/fastmcp/pubsub":
			t.Errorf("redisstore's library code reaches %s", dep)
		}
	}
}
