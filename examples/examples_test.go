// Package examples_test checks that every example is listed in the
// README and has a test that runs it (so CI does).
package examples_test

import (
	"os"
	"path/filepath"
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
