package openapi

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGoldenSchemas pins the published input schemas of every parameter
// style and body kind (styles.yaml), a 3.1 document's with a recursive
// schema (pets31.yaml), and output schemas, in testdata/*.golden
// (go test -run TestGoldenSchemas -update rewrites them).
func TestGoldenSchemas(t *testing.T) {
	for _, file := range []string{"styles.yaml", "pets31.yaml"} {
		d := readDoc(t, file)
		for _, o := range d.operations() {
			m, err := mapOperation(o)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, o.ID+".input.golden", m.input)
			if o.ID == "getItem" || o.ID == "listPets" || o.ID == "createPet" {
				golden(t, o.ID+".output.golden", m.output)
			}
		}
	}
}

func golden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGoldenSchemas -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n got %s\nwant %s", name, got, want)
	}
}
