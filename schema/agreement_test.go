package schema_test

import (
	"bytes"
	"os"
	"reflect"
	"regexp"
	"testing"

	"github.com/fastmcp-go/fastmcp/schema"
	jsonschemav6 "github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSchemaValidatorAgreement proves, rule by rule, that the schema says
// what the validator enforces: for each mirrored rule, values the validator
// accepts and values it rejects are checked both by Bind (the validator) and
// by an independent JSON Schema validator (santhosh-tekuri/jsonschema, with
// format assertion) against the generated schema. The verdicts must match.
func TestSchemaValidatorAgreement(t *testing.T) {
	t.Parallel()
	var (
		tString  = reflect.TypeFor[string]()
		tInt     = reflect.TypeFor[int]()
		tUint    = reflect.TypeFor[uint]()
		tFloat   = reflect.TypeFor[float64]()
		tBool    = reflect.TypeFor[bool]()
		tIntPtr  = reflect.TypeFor[*int]()
		tStrPtr  = reflect.TypeFor[*string]()
		tInts    = reflect.TypeFor[[]int]()
		tStrings = reflect.TypeFor[[]string]()
		tMap     = reflect.TypeFor[map[string]int]()
		tNested  = reflect.TypeFor[[][]string]()
	)
	type valueSet struct {
		accept, reject []string
	}
	tests := []struct {
		rule string
		typ  reflect.Type
		valueSet
	}{
		// required
		{"required", tString, valueSet{[]string{`"x"`, `" "`}, []string{`""`}}},
		{"required", tInt, valueSet{[]string{`1`, `-1`}, []string{`0`}}},
		{"required", tFloat, valueSet{[]string{`0.5`}, []string{`0`, `0.0`}}},
		{"required", tBool, valueSet{[]string{`true`}, []string{`false`}}},
		{"required", tIntPtr, valueSet{[]string{`0`, `5`}, []string{`null`}}},
		{"required", tInts, valueSet{[]string{`[]`, `[1]`}, []string{`null`}}},
		{"required", tMap, valueSet{[]string{`{}`, `{"a":1}`}, []string{`null`}}},
		// sizes
		{"min=2", tString, valueSet{[]string{`"ab"`, `"héé"`, `"日本"`}, []string{`""`, `"a"`, `"é"`}}},
		{"max=3", tString, valueSet{[]string{`""`, `"abc"`, `"日本語"`}, []string{`"abcd"`, `"日本語です"`}}},
		{"len=2", tString, valueSet{[]string{`"ab"`, `"éé"`}, []string{`"a"`, `"abc"`}}},
		{"min=1", tInts, valueSet{[]string{`[1]`, `[1,2]`}, []string{`[]`}}},
		{"max=2", tInts, valueSet{[]string{`[]`, `[1,2]`}, []string{`[1,2,3]`}}},
		{"len=2", tInts, valueSet{[]string{`[1,2]`}, []string{`[1]`, `[1,2,3]`}}},
		{"min=1", tMap, valueSet{[]string{`{"a":1}`}, []string{`{}`}}},
		{"max=1", tMap, valueSet{[]string{`{}`, `{"a":1}`}, []string{`{"a":1,"b":2}`}}},
		{"len=1", tMap, valueSet{[]string{`{"a":1}`}, []string{`{}`, `{"a":1,"b":2}`}}},
		{"min=3", tInt, valueSet{[]string{`3`, `100`}, []string{`2`, `-3`}}},
		{"max=3", tInt, valueSet{[]string{`3`, `-100`}, []string{`4`}}},
		{"len=3", tInt, valueSet{[]string{`3`}, []string{`2`, `4`}}},
		{"min=1.5", tFloat, valueSet{[]string{`1.5`, `2`}, []string{`1.49`, `-2`}}},
		{"max=0x10", tInt, valueSet{[]string{`16`}, []string{`17`}}},
		{"gte=0", tInt, valueSet{[]string{`0`, `7`}, []string{`-1`}}},
		{"lte=10", tUint, valueSet{[]string{`0`, `10`}, []string{`11`}}},
		{"gt=0", tFloat, valueSet{[]string{`0.001`, `1`}, []string{`0`, `-0.5`}}},
		{"lt=1", tFloat, valueSet{[]string{`0.999`, `-5`}, []string{`1`, `1.5`}}},
		{"gt=2", tString, valueSet{[]string{`"abc"`}, []string{`"ab"`}}},
		{"lt=2", tString, valueSet{[]string{`"a"`, `""`}, []string{`"ab"`}}},
		{"gte=2", tStrings, valueSet{[]string{`["a","b"]`}, []string{`["a"]`}}},
		{"lte=1", tStrings, valueSet{[]string{`["a"]`, `[]`}, []string{`["a","b"]`}}},
		{"gt=1", tMap, valueSet{[]string{`{"a":1,"b":2}`}, []string{`{"a":1}`}}},
		// equality
		{"eq=yes", tString, valueSet{[]string{`"yes"`}, []string{`"no"`, `"Yes"`}}},
		{"ne=no", tString, valueSet{[]string{`"yes"`, `""`}, []string{`"no"`}}},
		{"eq=5", tInt, valueSet{[]string{`5`}, []string{`4`}}},
		{"ne=5", tInt, valueSet{[]string{`4`, `0`}, []string{`5`}}},
		{"eq=true", tBool, valueSet{[]string{`true`}, []string{`false`}}},
		{"eq=2", tInts, valueSet{[]string{`[7,8]`}, []string{`[7]`}}},
		// enums
		{"oneof=red green", tString, valueSet{[]string{`"red"`, `"green"`}, []string{`"blue"`, `"Red"`, `""`}}},
		{"oneof='light blue' red", tString, valueSet{[]string{`"light blue"`, `"red"`}, []string{`"light"`, `"blue"`}}},
		{"oneof=1 2 3", tInt, valueSet{[]string{`1`, `3`}, []string{`0`, `4`}}},
		{"oneof=0 7", tUint, valueSet{[]string{`0`, `7`}, []string{`1`}}},
		{"unique", tInts, valueSet{[]string{`[]`, `[1,2,3]`}, []string{`[1,2,1]`}}},
		{"unique", tStrings, valueSet{[]string{`["a","b"]`}, []string{`["a","a"]`}}},
		// formats
		{"email", tString, valueSet{
			[]string{`"a@example.com"`, `"first.last+tag@sub.example.org"`, `"x_y@example.co.uk"`},
			[]string{`"plainaddress"`, `"a@"`, `"a@@example.com"`, `""`, `"a..b@example.com"`}}},
		{"url", tString, valueSet{
			[]string{`"https://example.com"`, `"http://example.com/a?b=c#d"`, `"ftp://files.example.com/x"`, `"mailto:a@example.com"`},
			[]string{`"example.com"`, `"not a url"`, `""`, `"/relative/path"`}}},
		{"uri", tString, valueSet{
			[]string{`"https://example.com/x"`, `"urn:isbn:0451450523"`},
			[]string{`"no scheme"`, `""`, `"rel/path"`}}},
		{"uuid", tString, valueSet{
			[]string{`"123e4567-e89b-12d3-a456-426614174000"`, `"123E4567-E89B-12D3-A456-426614174000"`},
			[]string{`"123e4567e89b12d3a456426614174000"`, `"g23e4567-e89b-12d3-a456-426614174000"`, `""`, `"123e4567-e89b-12d3-a456-42661417400"`}}},
		{"ipv4", tString, valueSet{
			[]string{`"192.168.0.1"`, `"0.0.0.0"`},
			[]string{`"256.1.1.1"`, `"1.2.3"`, `"::1"`, `"01.2.3.4"`, `""`}}},
		{"ipv6", tString, valueSet{
			[]string{`"::1"`, `"2001:db8::8a2e:370:7334"`, `"fe80::1"`},
			[]string{`"1.2.3.4"`, `"2001:db8::g"`, `""`, `"1:2:3:4:5:6:7:8:9"`}}},
		{"ip", tString, valueSet{
			[]string{`"10.0.0.1"`, `"::1"`},
			[]string{`"10.0.0"`, `"host"`, `""`}}},
		{"hostname", tString, valueSet{
			[]string{`"example"`, `"example.com"`, `"a-b.example.org"`},
			[]string{`"1example.com"`, `"-a.com"`, `"a_b.com"`, `""`, `"a..b"`}}},
		{"hostname_rfc1123", tString, valueSet{
			[]string{`"example.com"`, `"1example.com"`, `"a-b"`},
			[]string{`"-a.com"`, `"a_b.com"`, `""`, `"a..b"`}}},
		{"datetime=2006-01-02", tString, valueSet{
			[]string{`"2026-03-01"`, `"2024-02-29"`},
			[]string{`"2026-02-30"`, `"2026-3-1"`, `"01/03/2026"`, `""`, `"2026-03-01T00:00:00Z"`}}},
		{"datetime=2006-01-02T15:04:05Z07:00", tString, valueSet{
			[]string{`"2026-03-01T10:20:30Z"`, `"2026-03-01T10:20:30+02:00"`, `"2026-03-01T10:20:30.5Z"`},
			[]string{`"2026-03-01 10:20:30Z"`, `"2026-03-01T10:20:30"`, `"2026-03-01"`, `""`, `"2026-13-01T10:20:30Z"`}}},
		// patterns
		{"alpha", tString, valueSet{[]string{`"abcXYZ"`}, []string{`"abc1"`, `"ab c"`, `""`, `"é"`}}},
		{"alphanum", tString, valueSet{[]string{`"abc123"`}, []string{`"abc-1"`, `""`, `"日本"`}}},
		{"alphaunicode", tString, valueSet{[]string{`"abc"`, `"日本語"`, `"é"`}, []string{`"ab1"`, `""`, `"a b"`}}},
		{"alphanumunicode", tString, valueSet{[]string{`"abc1"`, `"日本語2"`}, []string{`"a-b"`, `""`}}},
		{"numeric", tString, valueSet{[]string{`"12"`, `"-1.5"`, `"+3"`}, []string{`"1e5"`, `"abc"`, `""`, `"1."`}}},
		{"number", tString, valueSet{[]string{`"123"`, `"0"`}, []string{`"-1"`, `"1.5"`, `""`}}},
		{"hexadecimal", tString, valueSet{[]string{`"ff"`, `"0x1A"`}, []string{`"0x"`, `"fg"`, `""`}}},
		{"hexcolor", tString, valueSet{[]string{`"#fff"`, `"#A0B1C2"`}, []string{`"fff"`, `"#ff"`, `"#ggg"`}}},
		{"e164", tString, valueSet{[]string{`"+14155552671"`, `"14155552671"`}, []string{`"+0123456789"`, `"123"`, `""`}}},
		{"lowercase", tString, valueSet{[]string{`"abc"`, `"abc 1-2"`, `"é"`}, []string{`"aBc"`, `""`, `"É"`}}},
		{"uppercase", tString, valueSet{[]string{`"ABC"`, `"ABC 1-2"`, `"É"`}, []string{`"AbC"`, `""`, `"é"`}}},
		{"contains=a.b", tString, valueSet{[]string{`"xa.bx"`, `"a.b"`}, []string{`"axb"`, `""`}}},
		{"startswith=(v", tString, valueSet{[]string{`"(v1"`}, []string{`"v1"`, `"x(v"`}}},
		{"endswith=$", tString, valueSet{[]string{`"10$"`}, []string{`"$10"`}}},
		{"startswith=a,endswith=z,contains=m", tString, valueSet{[]string{`"amz"`, `"a-m-z"`}, []string{`"az"`, `"mz"`, `"am"`}}},
		// dive
		{"dive,email", tStrings, valueSet{[]string{`[]`, `["a@example.com"]`}, []string{`["a@example.com","x"]`}}},
		{"min=1,dive,gte=1", tInts, valueSet{[]string{`[1,2]`}, []string{`[]`, `[1,0]`}}},
		{"dive,keys,alpha,endkeys,gte=0", tMap, valueSet{[]string{`{}`, `{"ab":0}`}, []string{`{"a1":0}`, `{"ab":-1}`}}},
		{"dive,min=1,dive,uppercase", tNested, valueSet{[]string{`[["A"],["B","C"]]`}, []string{`[[]]`, `[["a"]]`}}},
		// omitempty, omitzero: a value that is sent, the zero value too, is
		// checked by every rule (see TestOmitemptyZero for absence).
		{"omitempty,email", tString, valueSet{[]string{`"a@example.com"`}, []string{`"x"`, `""`}}},
		{"omitempty,min=3", tString, valueSet{[]string{`"abc"`}, []string{`"ab"`, `""`}}},
		{"omitempty,gte=5", tInt, valueSet{[]string{`5`}, []string{`4`, `-1`, `0`}}},
		{"omitempty,lte=5", tStrPtr, valueSet{[]string{`"abc"`, `""`}, []string{`"abcdef"`}}},
		{"omitempty,min=1", tStrPtr, valueSet{[]string{`"a"`}, []string{`""`}}},
		{"omitempty,oneof=red green", tString, valueSet{[]string{`"red"`}, []string{`""`, `"blue"`}}},
		{"omitempty,ne=0", tInt, valueSet{[]string{`1`}, []string{`0`}}},
		{"omitempty,required", tBool, valueSet{[]string{`true`}, []string{`false`}}},
		{"omitzero,min=1", tIntPtr, valueSet{[]string{`1`}, []string{`0`}}},
		{"omitzero,min=1", tInts, valueSet{[]string{`[1]`}, []string{`[]`}}},
		{"dive,omitempty,min=1", tInts, valueSet{[]string{`[]`, `[1]`}, []string{`[0]`, `[1,0]`}}},
		{"dive,omitempty,email", tStrings, valueSet{[]string{`["a@example.com"]`}, []string{`[""]`}}},
		{"dive,keys,omitempty,alpha,endkeys,gte=0", tMap, valueSet{[]string{`{"ab":0}`}, []string{`{"":1}`}}},
	}
	for _, tt := range tests {
		t.Run(tt.rule+"/"+tt.typ.String(), func(t *testing.T) {
			t.Parallel()
			ty, sch := ruleType(t, tt.typ, tt.rule)
			check := func(value string, wantOK bool) {
				args := []byte(`{"v":` + value + `}`)
				_, err := ty.Bind(args)
				validatorOK := err == nil
				if validatorOK != wantOK {
					t.Errorf("validate:%q on %s: validator verdict %v, table says %v (%v)", tt.rule, value, validatorOK, wantOK, err)
				}
				schemaOK := schemaAccepts(t, sch, args)
				if schemaOK != validatorOK {
					t.Errorf("validate:%q on %s: validator says %v, schema %s says %v", tt.rule, value, validatorOK, ty.Schema(), schemaOK)
				}
			}
			for _, v := range tt.accept {
				check(v, true)
			}
			for _, v := range tt.reject {
				check(v, false)
			}
		})
	}
}

// TestAgreementCoversEveryRule keeps the table above complete: every rule
// the package mirrors must have a row.
func TestAgreementCoversEveryRule(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("agreement_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range schema.MirroredRules {
		switch r {
		case "dive", "keys", "endkeys", "omitzero", "omitnil":
			continue // modifiers, exercised through the rules they modify
		}
		if !regexp.MustCompile(`\{"(?:[^"]*,)?` + regexp.QuoteMeta(r) + `(?:[=,"])`).Match(src) {
			t.Errorf("mirrored rule %q has no row in TestSchemaValidatorAgreement", r)
		}
	}
}

// TestOmitemptyZero: under omitempty, absence makes a member optional,
// not its zero value. Left out (or null), the rules are skipped; sent, even
// as the zero value, they apply, as the schema says.
func TestOmitemptyZero(t *testing.T) {
	t.Parallel()
	st := reflect.StructOf([]reflect.StructField{{
		Name: "V",
		Type: reflect.TypeFor[string](),
		Tag:  `json:"v,omitempty" validate:"omitempty,email"`,
	}})
	ty, err := schema.For(st, schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sch := compiles(t, ty.Schema())
	for _, tc := range []struct {
		args string
		ok   bool
	}{
		{`{}`, true},
		{`{"v":null}`, true}, // null counts as absent
		{`{"v":"a@example.com"}`, true},
		{`{"v":""}`, false},
		{`{"v":"x"}`, false},
	} {
		_, err := ty.Bind([]byte(tc.args))
		if (err == nil) != tc.ok {
			t.Errorf("Bind(%s) = %v, want ok=%v", tc.args, err, tc.ok)
		}
		if tc.args != `{"v":null}` && schemaAccepts(t, sch, []byte(tc.args)) != tc.ok {
			t.Errorf("schema on %s: want ok=%v", tc.args, tc.ok)
		}
	}
	// Presence follows the json tag: without omitempty there, the member
	// is required by both.
	ty, sch = ruleType(t, reflect.TypeFor[string](), "omitempty,email")
	if _, err := ty.Bind([]byte(`{}`)); err == nil || schemaAccepts(t, sch, []byte(`{}`)) {
		t.Error("a field without json omitempty must be required")
	}
}

// ruleType builds struct{ V T `json:"v" validate:"rule"` } and its schema.
func ruleType(t *testing.T, typ reflect.Type, rule string) (*schema.Type, *jsonschemav6.Schema) {
	t.Helper()
	st := reflect.StructOf([]reflect.StructField{{
		Name: "V",
		Type: typ,
		Tag:  reflect.StructTag(`json:"v" validate:"` + rule + `"`),
	}})
	ty, err := schema.For(st, schema.Options{})
	if err != nil {
		t.Fatalf("For: %v", err)
	}
	return ty, compiles(t, ty.Schema())
}

func schemaAccepts(t *testing.T, sch *jsonschemav6.Schema, doc []byte) bool {
	t.Helper()
	inst, err := jsonschemav6.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	return sch.Validate(inst) == nil
}
