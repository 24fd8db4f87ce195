package schema

import (
	"reflect"
	"testing"
)

// FuzzCompileCannotFail checks the promise For relies on to compile
// lazily: a schema compileCannotFail accepts compiles.
func FuzzCompileCannotFail(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":"integer","minimum":0},"b":{"type":["string","null"],"maxLength":5,"pattern":"^[a-z]+$"}},"required":["a"]}`,
		`{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},"$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}}}}}`,
		`{"type":"array","items":{"enum":[1,"a",null]},"minItems":1.0,"uniqueItems":true}`,
		`{"anyOf":[{"type":"string","format":"email"},{"const":3}],"x-mcp-header":"Region","default":{}}`,
		`{"type":"object","additionalProperties":false,"propertyNames":{"pattern":"(?<=x)"}}`,
		`{"type":"string","minLength":-1}`,
		`{"type":"number","multipleOf":0}`,
		`{"$ref":"#/$defs/missing"}`,
		`{"type":"strin"}`,
		`{"required":["a","a"]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		tree, err := parseTree([]byte(in))
		if err != nil || !compileCannotFail(tree) {
			return
		}
		if _, err := compileSchema(encodeTree(tree), true); err != nil {
			t.Fatalf("compileCannotFail(%s) but compiling fails: %v", in, err)
		}
	})
}

// TestGeneratedSchemasCompileLazily checks that the schemas of ordinary
// argument types are compiled on first use rather than by For, and that
// the compiled schema then works.
func TestGeneratedSchemasCompileLazily(t *testing.T) {
	t.Parallel()
	type args struct {
		Query string   `json:"query" jsonschema:"description=What to look for" validate:"min=1,max=200"`
		Limit int      `json:"limit,omitempty" jsonschema:"default=10" validate:"gte=1,lte=100"`
		Tags  []string `json:"tags,omitempty" jsonschema:"maxItems=5"`
		Mail  string   `json:"mail,omitempty" jsonschema:"format=email,pattern=^[a-z@.]+$"`
	}
	ty, err := For(reflect.TypeFor[args](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tree, err := parseTree(ty.Schema())
	if err != nil {
		t.Fatal(err)
	}
	if !compileCannotFail(tree) {
		t.Errorf("the schema of an ordinary type is compiled eagerly: %s", ty.Schema())
	}
	if _, err := ty.Bind([]byte(`{"query":"q","mail":"not an email"}`)); err == nil {
		t.Error("Bind accepted a bad email: the lazily compiled schema was not used")
	}
}
