package schema

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/invopop/jsonschema"
)

// TestIsEmptySchemaCoversEveryField checks isEmptySchema against
// reflect.DeepEqual with the zero Schema, one non-zero field at a time, so
// that a field added to invopop's Schema cannot go unnoticed.
func TestIsEmptySchemaCoversEveryField(t *testing.T) {
	t.Parallel()
	if !isEmptySchema(&jsonschema.Schema{}) {
		t.Fatal("the zero Schema is not empty")
	}
	if isEmptySchema(jsonschema.TrueSchema) || isEmptySchema(jsonschema.FalseSchema) {
		t.Fatal("a boolean schema is empty")
	}
	st := reflect.TypeFor[jsonschema.Schema]()
	for i := range st.NumField() {
		f := st.Field(i)
		if !f.IsExported() {
			continue
		}
		s := &jsonschema.Schema{}
		v := reflect.ValueOf(s).Elem().Field(i)
		switch v.Kind() {
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0)) // empty but not nil: DeepEqual tells them apart
		case reflect.Map:
			v.Set(reflect.MakeMap(v.Type()))
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
		case reflect.Interface:
			v.Set(reflect.ValueOf(0))
		case reflect.String:
			v.SetString("x")
		case reflect.Bool:
			v.SetBool(true)
		default:
			t.Fatalf("field %s has kind %s: teach this test and isEmptySchema about it", f.Name, v.Kind())
		}
		if want := reflect.DeepEqual(&jsonschema.Schema{}, s); isEmptySchema(s) != want {
			t.Errorf("with %s set, isEmptySchema = %v, DeepEqual says %v", f.Name, !want, want)
		}
	}
}

// TestValueNumbersMatchEncodingJSON checks the numbers the converter
// writes itself against encoding/json's.
func TestValueNumbersMatchEncodingJSON(t *testing.T) {
	vals := []any{0, 1, -1, 10, math.MaxInt64, math.MinInt64,
		0.0, 1.0, -1.5, 95.5, 1e-6, 1e-7, 123456789e-15, 1e20, 1e21, 1.5e300, -2.5e-300,
		math.SmallestNonzeroFloat64, math.MaxFloat64, 0.1, 1.0 / 3}
	for _, v := range vals {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var c treeConverter
		got := c.value(v)
		if c.failed || got != number(want) {
			t.Errorf("value(%v) = %v (failed %v), encoding/json writes %s", v, got, c.failed, want)
		}
	}
	for _, n := range []json.Number{"", "0", "10", "-1.5e3", "1.", ".5", "+1", "01", "1e", "x", "- 1", "1 "} {
		var c, want treeConverter
		got := c.value(n)
		wantV := want.value(any(struct{ N json.Number }{n})) // the general path: encoding/json, parsed
		if c.failed != want.failed {
			t.Errorf("value(json.Number %q) failed %v, encoding/json %v", n, c.failed, want.failed)
			continue
		}
		if !c.failed && string(encodeTree(got)) != string(encodeTree(wantV.(*object).members[0].val)) {
			t.Errorf("value(json.Number %q) = %v, encoding/json gives %v", n, got, wantV)
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		var c treeConverter
		if c.value(v); !c.failed {
			t.Errorf("value(%v) did not fail", v)
		}
	}
}

// TestKeywordKind checks that keywords without subschemas are told apart.
func TestKeywordKind(t *testing.T) {
	for _, k := range []string{"type", "description", "required", "enum", "x-mcp-header", "$ref", ""} {
		if keywordKind(k) != notSubschema {
			t.Errorf("keywordKind(%q) says it holds subschemas", k)
		}
	}
}
