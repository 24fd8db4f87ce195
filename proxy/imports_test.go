package proxy_test

import (
	"os/exec"
	"strings"
	"testing"
)

// goList runs go list with args, or skips the test without a go command.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %s: %v", strings.Join(args, " "), err)
	}
	return strings.Fields(string(out))
}

// TestServerDoesNotImportProxy: package fastmcp reaches the proxy only
// through internal/serverlink, and the client only through
// internal/clientlink, so a server that builds no proxy links neither.
func TestServerDoesNotImportProxy(t *testing.T) {
	for _, pkg := range goList(t, "-deps", "../fastmcp") {
		switch pkg {
		case "github.com/fastmcp-go/fastmcp/proxy", "github.com/fastmcp-go/fastmcp/client":
			t.Errorf("package fastmcp imports %s", pkg)
		}
	}
}

// TestProxyImports: the proxy drives the server and the client through
// their exported API and the two bridges, and nothing else of the
// module's (no auth, no transport, no task or apps runtime).
func TestProxyImports(t *testing.T) {
	allowed := map[string]bool{
		"client": true, "fastmcp": true, "protocol": true, "session": true, "lowlevel": true, "schema": true,
		"internal/clientlink": true, "internal/serverlink": true, "internal/jsonobj": true, "internal/appswire": true,
	}
	for _, pkg := range goList(t, "-f", `{{join .Imports " "}}`, ".") {
		rest, ours := strings.CutPrefix(pkg, "github.com/fastmcp-go/fastmcp/")
		if ours && !allowed[rest] {
			t.Errorf("package proxy imports %s", pkg)
		}
	}
}
