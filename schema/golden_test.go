package schema_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/schema"
	jsonschemav6 "github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got (indented) with testdata/name.json.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	pretty := jsontext.Value(bytes.Clone(got))
	if err := pretty.Indent(); err != nil {
		t.Fatalf("schema is not valid JSON: %v\n%s", err, got)
	}
	pretty = append(pretty, '\n')
	file := filepath.Join("testdata", name+".json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, pretty, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(pretty, want) {
		t.Errorf("schema differs from %s (run go test -update if the change is intended)\ngot:\n%s\nwant:\n%s", file, pretty, want)
	}
}

// compiles checks that a schema is valid 2020-12 with a real validator.
func compiles(t *testing.T, s []byte) *jsonschemav6.Schema {
	t.Helper()
	doc, err := jsonschemav6.UnmarshalJSON(bytes.NewReader(s))
	if err != nil {
		t.Fatalf("schema does not parse: %v", err)
	}
	c := jsonschemav6.NewCompiler()
	c.DefaultDraft(jsonschemav6.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("mem://test/schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem://test/schema.json")
	if err != nil {
		t.Fatalf("schema does not compile: %v\n%s", err, s)
	}
	return sch
}

func TestGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		typ  reflect.Type
		opts schema.Options
	}{
		{"add", reflect.TypeFor[AddArgs](), schema.Options{}},
		{"add_pointer", reflect.TypeFor[*AddArgs](), schema.Options{}},
		{"primitives", reflect.TypeFor[Primitives](), schema.Options{}},
		{"nested", reflect.TypeFor[Nested](), schema.Options{}},
		{"nested_keeprefs", reflect.TypeFor[Nested](), schema.Options{KeepRefs: true}},
		{"nested_strict", reflect.TypeFor[Nested](), schema.Options{Strict: true}},
		{"collections", reflect.TypeFor[Collections](), schema.Options{}},
		{"pointers", reflect.TypeFor[Pointers](), schema.Options{}},
		{"times", reflect.TypeFor[Times](), schema.Options{}},
		{"embedded", reflect.TypeFor[Embedded](), schema.Options{}},
		{"enums", reflect.TypeFor[Enums](), schema.Options{}},
		{"defaults", reflect.TypeFor[Defaults](), schema.Options{}},
		{"recursive", reflect.TypeFor[TreeNode](), schema.Options{}},
		{"recursive_inner", reflect.TypeFor[Forest](), schema.Options{}},
		{"recursive_inner_keeprefs", reflect.TypeFor[Forest](), schema.Options{KeepRefs: true}},
		{"recursive_strict", reflect.TypeFor[Person](), schema.Options{Strict: true}},
		{"recursive_mutual", reflect.TypeFor[Dept](), schema.Options{}},
		{"mirrored", reflect.TypeFor[Mirrored](), schema.Options{}},
		{"misc", reflect.TypeFor[Misc](), schema.Options{}},
		{"headers", reflect.TypeFor[HeaderArgs](), schema.Options{}},
		{"empty", reflect.TypeFor[Empty](), schema.Options{}},
		{"empty_strict", reflect.TypeFor[Empty](), schema.Options{Strict: true}},
		{"output_pointers", reflect.TypeFor[Pointers](), schema.Options{Output: true}},
		{"output_nested_keeprefs", reflect.TypeFor[Nested](), schema.Options{Output: true, KeepRefs: true}},
		{"output_misc", reflect.TypeFor[Misc](), schema.Options{Output: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ty, err := schema.For(tt.typ, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			s := ty.Schema()
			compiles(t, s)
			golden(t, tt.name, s)
			golden(t, tt.name+".fields", encodeFields(t, ty.Fields()))
			if ty.GoType() != tt.typ {
				t.Errorf("GoType() = %v, want %v", ty.GoType(), tt.typ)
			}
			// Schema is computed once.
			if &ty.Schema()[0] != &s[0] {
				t.Error("Schema() is not cached")
			}
			again, err := schema.For(tt.typ, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again.Schema(), s) {
				t.Error("For is not deterministic")
			}
		})
	}
}

func TestGoldenElicitation(t *testing.T) {
	t.Parallel()
	ty, err := schema.Elicitation(reflect.TypeFor[Booking]())
	if err != nil {
		t.Fatal(err)
	}
	compiles(t, ty.Schema())
	golden(t, "elicitation", ty.Schema())
	golden(t, "elicitation.fields", encodeFields(t, ty.Fields()))
}

// encodeFields writes fields as JSON for a golden file.
func encodeFields(t *testing.T, fields []schema.Field) jsontext.Value {
	t.Helper()
	type field struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Required    bool            `json:"required"`
		Type        string          `json:"type"`
		Index       []int           `json:"index"`
		Schema      json.RawMessage `json:"schema"`
	}
	out := make([]field, len(fields))
	for i, f := range fields {
		out[i] = field{f.Name, f.Description, f.Required, f.Type.String(), f.Index, f.Schema}
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
