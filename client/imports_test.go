package client_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestClientDoesNotImportServer: package client must not import the server
// (package fastmcp, lowlevel, schema, auth): a program that only connects
// to servers links none of it.
func TestClientDoesNotImportServer(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch pkg {
		case "github.com/fastmcp-go/fastmcp/fastmcp", "github.com/fastmcp-go/fastmcp/lowlevel",
			"github.com/fastmcp-go/fastmcp/schema", "github.com/fastmcp-go/fastmcp/auth":
			t.Errorf("package client imports %s", pkg)
		}
	}
}
