package fastmcptest_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDepsStaySmall: a test that imports fastmcptest pulls no
// golang.org/x/tools (its golden transcripts use the package's own txtar
// reader), so the helpers add nothing to a user's go.mod beyond the SDK.
func TestDepsStaySmall(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "golang.org/x/tools") {
			t.Errorf("package fastmcptest imports %s", pkg)
		}
	}
}
