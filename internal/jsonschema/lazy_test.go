package jsonschema

import (
	"strings"
	"testing"
)

// loadedAtInit records, as the test binary starts (after the package's
// initialisation, before any test), whether the metaschemas were compiled.
var loadedAtInit = Draft2020.sch != nil

// TestDraftsLoadOnFirstCompiler checks that the metaschemas are compiled
// by the first NewCompiler, not when the package is initialised, and that
// compiling then still checks schemas against them.
func TestDraftsLoadOnFirstCompiler(t *testing.T) {
	if loadedAtInit {
		t.Fatal("the metaschemas were compiled when the package was initialised")
	}
	c := NewCompiler()
	for _, d := range []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020} {
		if d.sch == nil {
			t.Fatalf("NewCompiler did not load the metaschema of %s", d)
		}
		for name, s := range d.allVocabs {
			if s == nil {
				t.Fatalf("NewCompiler did not load vocabulary %s of %s", name, d)
			}
		}
	}
	err := c.AddResource("mem://bad.json", map[string]any{"type": "nonsense"})
	if err == nil {
		_, err = c.Compile("mem://bad.json")
	}
	if err == nil || !strings.Contains(err.Error(), "type") {
		t.Fatalf("compiling a schema with an invalid type: error %v, want one about its type", err)
	}

	c = NewCompiler()
	if err := c.AddResource("mem://good.json", map[string]any{"type": "string", "minLength": 1}); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem://good.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(""); err == nil {
		t.Error(`"" passed minLength 1`)
	}
	if err := sch.Validate("x"); err != nil {
		t.Errorf(`"x" failed: %v`, err)
	}
}
