package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/schema/internal/check"
)

// rawSchema is the state of a Type made by FromJSON.
type rawSchema struct {
	compiled check.Checker
	strict   bool
	known    map[string]bool // top-level property names
	defaults []rawDefault    // top-level defaults, in schema order
}

type rawDefault struct {
	name   string
	val    any  // tree form
	nullOK bool // the property accepts null, so null does not mean "use the default"
}

var (
	anyType = reflect.TypeFor[any]()
	mapType = reflect.TypeFor[map[string]any]()
)

// FromJSON wraps a hand-written JSON Schema. Schema returns the bytes
// exactly as given (nothing is added or stripped). The schema must be an
// object with "type":"object"; it is compiled with the full JSON Schema
// engine, santhosh-tekuri/jsonschema (draft 2020-12 unless "$schema" names
// another draft), every "$ref" must resolve inside the document, and
// external references are refused. Formats ("email", "uri", ...) are
// asserted. The engine is linked by importing package
// schema/jsonvalidate (import _ "github.com/fastmcp-go/fastmcp/schema/jsonvalidate");
// without it FromJSON returns an error that says so. Package schema does
// not import it itself, because its package init costs every program about
// 2.5 ms and 1.7 MB at start; schemas For generates do not need it.
//
// Bind decodes the arguments strictly into a map[string]any (numbers are
// float64), fills in the "default" of missing top-level properties, and
// validates the result against the schema. Options.Strict rejects members
// not listed in the top-level "properties" even where the schema allows
// them; KeepRefs and Output have no effect.
func FromJSON(schema []byte, opts Options) (*Type, error) {
	tree, err := parseTree(schema)
	if err != nil {
		return nil, fmt.Errorf("schema: FromJSON: not valid JSON: %v", err)
	}
	root, ok := tree.(*object)
	if !ok {
		return nil, fmt.Errorf("schema: FromJSON: the schema must be a JSON object with \"type\":\"object\"")
	}
	typ, ok := root.get("type")
	if !ok {
		return nil, fmt.Errorf("schema: FromJSON: the schema has no top-level \"type\", but tool arguments are an object: add \"type\":\"object\"")
	}
	if typ != "object" {
		return nil, fmt.Errorf("schema: FromJSON: top-level \"type\" is %s, but tool arguments are an object: set \"type\":\"object\"", encodeTree(typ))
	}
	if check.Full == nil {
		return nil, fmt.Errorf("schema: FromJSON: a hand-written schema is checked by a full JSON Schema engine, which is not linked: add import _ %q", jsonValidatePkg)
	}
	compiled, err := check.Full(instanceOf(tree))
	if err != nil {
		return nil, fmt.Errorf("schema: FromJSON: the schema does not compile: %v", err)
	}
	headers, err := findHeaders(root)
	if err != nil {
		return nil, fmt.Errorf("schema: FromJSON: %w", err)
	}
	rs := &rawSchema{compiled: compiled, strict: opts.Strict, known: map[string]bool{}}
	t := &Type{
		goType:  mapType,
		schema:  bytes.Clone(schema),
		headers: headers,
		raw:     rs,
	}
	required := map[string]bool{}
	if list, ok := root.get("required"); ok {
		if l, ok := list.([]any); ok {
			for _, r := range l {
				if s, ok := r.(string); ok {
					required[s] = true
				}
			}
		}
	}
	if props := root.getObject("properties"); props != nil {
		for _, m := range props.members {
			rs.known[m.key] = true
			f := Field{Name: m.key, Required: required[m.key], Type: anyType, Schema: json.RawMessage(encodeTree(m.val))}
			if ps, ok := m.val.(*object); ok {
				f.Description = ps.getString("description")
				f.Type = rawGoType(ps.getString("type"))
				if d, ok := ps.get("default"); ok {
					rs.defaults = append(rs.defaults, rawDefault{name: m.key, val: d, nullOK: allowsNull(ps)})
				}
			}
			t.fields = append(t.fields, f)
		}
	}
	return t, nil
}

// HeadersOf returns the properties of a JSON Schema annotated with
// "x-mcp-header", in schema order, checked as FromJSON checks them (the
// Headers of the Type FromJSON would make). It only reads the schema, so it
// needs no JSON Schema engine.
func HeadersOf(schema []byte) ([]Header, error) {
	tree, err := parseTree(schema)
	if err != nil {
		return nil, fmt.Errorf("schema: HeadersOf: not valid JSON: %v", err)
	}
	root, ok := tree.(*object)
	if !ok {
		return nil, fmt.Errorf("schema: HeadersOf: the schema must be a JSON object")
	}
	hs, err := findHeaders(root)
	if err != nil {
		return nil, fmt.Errorf("schema: HeadersOf: %w", err)
	}
	return hs, nil
}

func rawGoType(jsonType string) reflect.Type {
	switch jsonType {
	case "string":
		return reflect.TypeFor[string]()
	case "number", "integer":
		return reflect.TypeFor[float64]()
	case "boolean":
		return reflect.TypeFor[bool]()
	case "array":
		return reflect.TypeFor[[]any]()
	case "object":
		return mapType
	}
	return anyType
}

func (t *Type) bindRaw(args jsontext.Value) (reflect.Value, error) {
	rs := t.raw
	var is issues
	data := normalizeArgs(args)
	inst, err := decodeInstance(data)
	if err != nil {
		var sc scanner
		sc.syntaxIssue(err, nil, &is)
		return reflect.Value{}, is.err()
	}
	obj, ok := inst.(map[string]any)
	if !ok {
		is.add(nil, "type", "arguments must be a JSON object, got "+jsonTypeOf(inst))
		return reflect.Value{}, is.err()
	}
	for _, d := range rs.defaults {
		if v, present := obj[d.name]; !present || (v == nil && !d.nullOK) {
			obj[d.name] = instanceOf(d.val)
		}
	}
	if rs.strict {
		for k := range obj {
			if !rs.known[k] {
				is.add(path(nil).member(k), "unknown", msgUnknown)
			}
		}
	}
	if f := rs.compiled.Check(inst); f != nil {
		is.addFindings(f, inst, nil, nil)
	}
	if !is.empty() {
		return reflect.Value{}, is.err()
	}
	if _, err := floatNumbers(obj); err != nil {
		is.add(nil, "type", "a number is out of range: "+err.Error())
		return reflect.Value{}, is.err()
	}
	return reflect.ValueOf(obj), nil
}

// allowsNull reports whether a property schema lists "null" among its types.
func allowsNull(s *object) bool {
	switch v, _ := s.get("type"); v := v.(type) {
	case string:
		return v == "null"
	case []any:
		return slices.Contains(v, any("null"))
	}
	return !s.has("type")
}

// instanceOf converts a tree value to the validator's instance form.
func instanceOf(v any) any {
	switch v := v.(type) {
	case number:
		return json.Number(v)
	case *object:
		m := make(map[string]any, len(v.members))
		for _, e := range v.members {
			m[e.key] = instanceOf(e.val)
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = instanceOf(e)
		}
		return out
	}
	return v
}

func jsonTypeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "number"
}
