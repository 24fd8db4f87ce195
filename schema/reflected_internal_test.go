package schema

import (
	"encoding/json"
	"math"
	"math/big"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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

// TestPlainDefName checks the shortcut of defNames against the regular
// expression it saves.
func TestPlainDefName(t *testing.T) {
	for _, name := range []string{"", "A", "searchArgs000", "_a", "a_", "a_b", "a.b-c", "a b", "List[int]", "List[pkg.T]", "é", "a/b", "-", "__"} {
		full := strings.Trim(defNameChars().ReplaceAllString(name, "_"), "_")
		if plainDefName(name) && full != name {
			t.Errorf("plainDefName(%q) but the full rule gives %q", name, full)
		}
		if !plainDefName(name) && full == name && name != "" {
			t.Errorf("!plainDefName(%q) but the full rule keeps it", name)
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

// TestAppendQuotedMatchesJSONText checks appendQuoted's shortcut for plain
// strings against jsontext.AppendQuote, for every ASCII character alone
// and inside text.
func TestAppendQuotedMatchesJSONText(t *testing.T) {
	var cases []string
	for c := range 128 {
		cases = append(cases, string(rune(c)), "ab"+string(rune(c))+"cd")
	}
	cases = append(cases, "", "What to look for in collection 0", "<b>&amp;</b>", "ü", "\u2028", "a\xffb")
	for _, s := range cases {
		want, err := jsontext.AppendQuote(nil, s)
		if err != nil {
			want, _ = jsontext.AppendQuote(nil, strings.ToValidUTF8(s, "\uFFFD"))
		}
		if got := appendQuoted(nil, s); string(got) != string(want) {
			t.Errorf("appendQuoted(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestShapeOfShortcut checks shapeOf's shortcut for types without methods
// against the full look at their methods.
func TestShapeOfShortcut(t *testing.T) {
	for _, typ := range []reflect.Type{
		reflect.TypeFor[string](), reflect.TypeFor[int](), reflect.TypeFor[bool](), reflect.TypeFor[float64](),
		reflect.TypeFor[[]string](), reflect.TypeFor[[]byte](), reflect.TypeFor[[3]int](), reflect.TypeFor[map[string]any](),
		reflect.TypeFor[jsontext.Value](), reflect.TypeFor[json.RawMessage](), reflect.TypeFor[time.Duration](),
		reflect.TypeFor[net.IP](), reflect.TypeFor[big.Int](), reflect.TypeFor[any](), reflect.TypeFor[*int](),
		reflect.TypeFor[struct{ time.Time }](), reflect.TypeFor[time.Time](),
	} {
		s1, bad1 := shapeOf(typ)
		s2, bad2 := shapeByMethods(typ)
		if s1 != s2 || bad1 != bad2 {
			t.Errorf("%s: shapeOf %v %q, shapeByMethods %v %q", typ, s1, bad1, s2, bad2)
		}
	}
}

// TestPlainDefaultAgreesWithDecoder checks that every default plainDefault
// vouches for does decode into its field.
func TestPlainDefaultAgreesWithDecoder(t *testing.T) {
	types := []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[bool](), reflect.TypeFor[int](),
		reflect.TypeFor[int8](), reflect.TypeFor[uint8](), reflect.TypeFor[int64](), reflect.TypeFor[uint64](),
		reflect.TypeFor[float32](), reflect.TypeFor[time.Duration]()}
	vals := []string{"0", "1", "-1", "127", "128", "255", "256", "-129", "9223372036854775807",
		"18446744073709551615", "18446744073709551616", "+1", "007", "1.5", "true", "false", "x", ""}
	for _, typ := range types {
		for _, quoted := range []bool{false, true} {
			a := &analyzer{plans: map[reflect.Type]*plan{}}
			f := &fieldPlan{typ: typ, quoted: quoted}
			f.plan = a.analyze(typ, "f")
			for _, v := range vals {
				if !plainDefault(f, []string{v}) {
					continue
				}
				jt := f.plan.jsonType
				if quoted {
					jt = "string"
				}
				e, err := scalarDefault(jt, v)
				if err != nil {
					continue // refused before plainDefault is asked
				}
				if err := jsonv2.Unmarshal(encodeTree(e), reflect.New(typ).Interface()); err != nil {
					t.Errorf("%s (quoted %v) default %q: plainDefault vouches for it, the decoder says %v", typ, quoted, v, err)
				}
			}
		}
	}
}

// TestKeywordKind checks keywordKind against the keyword lists.
func TestKeywordKind(t *testing.T) {
	for kind, list := range map[int][]string{subschemaMap: schemaMapKeywords, subschemaList: schemaListKeywords, subschemaValue: schemaValueKeywords} {
		for _, k := range list {
			if got := keywordKind(k); got != kind {
				t.Errorf("keywordKind(%q) = %d, want %d", k, got, kind)
			}
		}
	}
	for _, k := range []string{"type", "description", "required", "enum", "x-mcp-header", "$ref", ""} {
		if keywordKind(k) != notSubschema {
			t.Errorf("keywordKind(%q) says it holds subschemas", k)
		}
	}
}
