package main

import (
	"os/exec"
	"strings"
	"testing"
)

// cliOnly are the modules only the command (and its tests) may import: a
// program that imports the library never links them.
var cliOnly = []string{"github.com/spf13/", "golang.org/x/term", "github.com/creack/pty", "github.com/inconshreveable/mousetrap"}

// TestLibraryImports: no package of the module but the command depends on
// the command's libraries.
func TestLibraryImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps=false", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "github.com/fastmcp-go/fastmcp/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, " ")
		if pkg == "github.com/fastmcp-go/fastmcp/cmd/fastmcp" {
			continue
		}
		for _, d := range strings.Fields(deps) {
			for _, c := range cliOnly {
				if strings.HasPrefix(d, c) {
					t.Errorf("%s depends on %s, which only cmd/fastmcp may use", pkg, d)
				}
			}
		}
	}
}
