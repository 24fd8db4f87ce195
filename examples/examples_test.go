// Package examples_test checks that every example is listed in the
// README and has a test that runs it (so CI does), and that no example
// needs the protocol package.
package examples_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestEveryExampleListedAndTested(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "conformance" { // conformance is run by make conformance
			continue
		}
		n++
		name := d.Name()
		if !strings.Contains(string(readme), "(examples/"+name+"/") {
			t.Errorf("examples/%s is not linked from the README's Examples", name)
		}
		if _, err := os.Stat(filepath.Join(name, "main.go")); err != nil {
			t.Errorf("examples/%s has no main.go", name)
		}
		tests, _ := filepath.Glob(filepath.Join(name, "*_test.go"))
		if len(tests) == 0 {
			t.Errorf("examples/%s has no test: add one that runs it and checks its output", name)
		}
	}
	if n == 0 {
		t.Fatal("no examples found")
	}
}

// TestNoProtocolImport fails when a non-test .go file under examples/
// imports the protocol package: ordinary code (a server, a client, a
// middleware, the conformance server and client) spells what it needs with
// the fastmcp, client and lowlevel names, which alias the wire types.
func TestNoProtocolImport(t *testing.T) {
	const forbidden = "github.com/fastmcp-go/fastmcp/protocol"
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		n++
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == forbidden || strings.HasPrefix(p, forbidden+"/") {
				t.Errorf("%s imports %s: use the aliases of package fastmcp, client or lowlevel instead", fset.Position(imp.Pos()), p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("found only %d example files: is the walk looking in the right place?", n)
	}
}
