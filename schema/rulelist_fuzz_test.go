package schema

import (
	"reflect"
	"testing"

	"github.com/fastmcp-go/fastmcp/schema/internal/check"
)

// FuzzRulesAgreeWithEngine checks the rule list (engine.go) against the
// full engine on arbitrary schemas and values: a schema the rule list
// accepts compiles with the engine, and for every value both give the same
// issues (TestRulesAgreeWithEngine does so over the generated zoo).
func FuzzRulesAgreeWithEngine(f *testing.F) {
	for _, s := range [][2]string{
		{`{"type":"object","properties":{"a":{"type":"integer","minimum":0},"b":{"type":["string","null"],"maxLength":5,"pattern":"^[a-z]+$"}},"required":["a"]}`, `{"a":-1,"b":"ABCDEFG"}`},
		{`{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},"$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}}}}}`, `{"n":{"next":{"next":1}}}`},
		{`{"type":"array","items":{"enum":[1,"a",null]},"minItems":1.0,"uniqueItems":true}`, `[1,1.0,"b"]`},
		{`{"anyOf":[{"type":"string","format":"email"},{"const":3}],"x-mcp-header":"Region","default":{}}`, `"a@b"`},
		{`{"type":"object","additionalProperties":false,"patternProperties":{"^[0-9]+$":{"type":"string"}}}`, `{"1":2,"x":1}`},
		{`{"oneOf":[{"multipleOf":0.5},{"exclusiveMaximum":3}],"not":{"const":7}}`, `2`},
		{`{"type":"string","format":"date-time"}`, `"2026-02-30T10:00:00Z"`},
		{`{"type":"object","minProperties":2,"propertyNames":{"maxLength":2}}`, `{"abc":1}`},
		{`{"type":"string","minLength":-1}`, `""`},
		{`{"if":{"type":"integer"},"then":{"minimum":10},"else":{"type":"string","format":"uuid"}}`, `"x"`},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, schemaDoc, value string) {
		tree, err := parseTree([]byte(schemaDoc))
		if err != nil {
			return
		}
		root, ok := tree.(*object)
		if !ok {
			return
		}
		rc, err := newRuleChecker(root)
		if err != nil {
			return
		}
		full, err := check.Full(instanceOf(tree))
		if err != nil {
			t.Fatalf("the rule list accepts %s but the engine does not compile it: %v", schemaDoc, err)
		}
		inst, err := decodeInstance([]byte(value))
		if err != nil {
			return
		}
		var a, b issues
		if f := rc.Check(inst); f != nil {
			a.addFindings(f, inst, nil, nil)
		}
		if f := full.Check(inst); f != nil {
			b.addFindings(f, inst, nil, nil)
		}
		if !reflect.DeepEqual(a.list, b.list) && !samePropertyNames(a.list, b.list) {
			t.Fatalf("schema %s, value %s:\n rule list: %v\n    engine: %v", schemaDoc, value, a.err(), b.err())
		}
	})
}

// samePropertyNames reports whether two issue lists differ only in the
// paths of propertyNames issues, which the engine gets wrong (see
// normalize in rulelist_test.go).
func samePropertyNames(a, b []Issue) bool {
	if len(a) != len(b) {
		return false
	}
	count := func(l []Issue) map[Issue]int {
		m := map[Issue]int{}
		for _, x := range l {
			if x.Rule == "propertyNames" {
				x.Path = "?"
			}
			m[x]++
		}
		return m
	}
	return reflect.DeepEqual(count(a), count(b))
}

// TestGeneratedSchemasUseTheRuleList checks that the schema of an ordinary
// argument type is checked by the rule list, and that Bind uses it.
func TestGeneratedSchemasUseTheRuleList(t *testing.T) {
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
	if _, ok := ty.checker.(*ruleChecker); !ok {
		t.Fatalf("the schema of an ordinary type is checked by %T, not the rule list", ty.checker)
	}
	if _, err := ty.Bind([]byte(`{"query":"q","mail":"not an email"}`)); err == nil {
		t.Error("Bind accepted a bad email: the rule list was not used")
	}
}
