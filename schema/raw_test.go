package schema_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/schema"
)

const addressSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"}},"additionalProperties":false}`

func TestFromJSON(t *testing.T) {
	t.Parallel()
	ty, err := schema.FromJSON([]byte(addressSchema), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ty.Schema(), []byte(addressSchema)) {
		t.Errorf("schema not published byte for byte:\n%s", ty.Schema())
	}
	if ty.GoType() != reflect.TypeFor[map[string]any]() {
		t.Errorf("GoType = %v", ty.GoType())
	}
	fs := ty.Fields()
	if len(fs) != 2 || fs[0].Name != "name" || fs[0].Type != reflect.TypeFor[string]() || fs[1].Name != "address" || string(fs[1].Schema) != `{"$ref":"#/$defs/address"}` {
		t.Errorf("fields = %+v", fs)
	}

	v, err := ty.Bind([]byte(`{"name":"Ada","address":{"city":"London","zip":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"name": "Ada", "address": map[string]any{"city": "London", "zip": 1.0}}
	if got := v.Interface().(map[string]any); !reflect.DeepEqual(got, want) {
		t.Errorf("Bind = %#v, want %#v", got, want)
	}

	tests := []struct {
		args string
		want string
	}{
		{`{"name":1,"address":{"city":2},"extra":true}`, "address.city: must be string, got number; extra: unknown field; name: must be string, got number"},
		{`{"Name":"x"}`, "Name: unknown field"},
		{`{"name":"a","name":"b"}`, "name: duplicate member name: send each member once"},
		{`[]`, "arguments must be a JSON object, got array"},
		{`{"name":`, "invalid JSON: unexpected end of input"},
		{`{"address":{"street":"a","street":"b"}}`, "address.street: duplicate member name: send each member once"},
	}
	for _, tt := range tests {
		_, err := ty.Bind([]byte(tt.args))
		if err == nil || err.Error() != tt.want {
			t.Errorf("Bind(%s)\n got: %v\nwant: %s", tt.args, err, tt.want)
		}
		if _, ok := errors.AsType[*schema.ValidationError](err); !ok {
			t.Errorf("Bind(%s): not a *ValidationError: %T", tt.args, err)
		}
	}
	for _, args := range []string{"", "null", "{}"} {
		v, err := ty.Bind([]byte(args))
		if err != nil || v.Len() != 0 {
			t.Errorf("Bind(%q) = %v, %v", args, v, err)
		}
	}
}

func TestFromJSONFeatures(t *testing.T) {
	t.Parallel()
	s := `{"type":"object","properties":{"n":{"type":"integer","default":3,"minimum":1},"tags":{"type":"array","items":{"type":"string","format":"email"}},"opt":{"type":["string","null"],"default":"x"},"r":{"type":"string","x-mcp-header":"Region"}},"required":["r"]}`
	ty, err := schema.FromJSON([]byte(s), schema.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if hs := ty.Headers(); len(hs) != 1 || hs[0].Name != "Region" || hs[0].Path[0] != "r" {
		t.Errorf("headers = %+v", hs)
	}
	v, err := ty.Bind([]byte(`{"r":"eu","opt":null}`))
	if err != nil {
		t.Fatal(err)
	}
	m := v.Interface().(map[string]any)
	if m["n"] != 3.0 || m["opt"] != nil {
		t.Errorf("defaults: %#v", m)
	}
	_, err = ty.Bind([]byte(`{"n":0,"tags":["a@b.co","nope"],"x":1}`))
	want := "n: must be >= 1; r: is required; tags[1]: must be a valid email; x: unknown field"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

func TestFromJSONErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		schema string
		want   string
	}{
		{`{"type":"array"}`, `top-level "type" is "array", but tool arguments are an object: set "type":"object"`},
		{`{"properties":{}}`, `has no top-level "type"`},
		{`true`, `must be a JSON object`},
		{`{"type":"object",`, `not valid JSON`},
		{`{"type":"object","type":"object"}`, `not valid JSON`},
		{`{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`, `does not compile`},
		{`{"type":"object","properties":{"a":{"$ref":"other.json"}}}`, `is not allowed: put the definition under $defs`},
		{`{"type":"object","properties":{"a":{"type":"strin"}}}`, `does not compile`},
		{`{"type":"object","properties":{"a":{"type":"number","x-mcp-header":"A"}}}`, `must have type string, integer or boolean`},
		{`{"type":"object","$defs":{"d":{"type":"string","x-mcp-header":"A"}}}`, `is not reachable`},
		{`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A:B"}}}`, `not allowed in an HTTP header name`},
	}
	for _, tt := range tests {
		_, err := schema.FromJSON([]byte(tt.schema), schema.Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("FromJSON(%s) = %v, want an error containing %q", tt.schema, err, tt.want)
		}
	}
	// A draft-07 schema is honoured: "definitions" and format assertion.
	d7 := `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"e":{"type":"string","format":"email"}},"properties":{"e":{"$ref":"#/definitions/e"}}}`
	ty, err := schema.FromJSON([]byte(d7), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ty.Bind([]byte(`{"e":"x"}`)); err == nil || err.Error() != "e: must be a valid email" {
		t.Errorf("draft-07 Bind = %v", err)
	}
}

// TestFromJSONEngine pins what the schema engine must keep doing for
// FromJSON: every failure in one answer, each at the instance's own path
// (array indexes included); malformed keyword values refused at
// registration; the older drafts that "$schema" may name honoured.
func TestFromJSONEngine(t *testing.T) {
	t.Parallel()
	s := `{"type":"object","required":["a","b"],"properties":{"list":{"type":"array","items":{"type":"object","properties":{"x":{"minimum":3}}}},"c":{"type":"string"}}}`
	ty, err := schema.FromJSON([]byte(s), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = ty.Bind([]byte(`{"list":[{"x":5},{"x":1}],"c":1}`))
	want := "a: is required; b: is required; c: must be string, got number; list[1].x: must be >= 3"
	if err == nil || err.Error() != want {
		t.Errorf("Bind\n got: %v\nwant: %s", err, want)
	}
	for _, bad := range []string{
		`{"type":"object","properties":{"a":{"minLength":-1}}}`,
		`{"type":"object","properties":{"a":{"pattern":"("}}}`,
	} {
		if _, err := schema.FromJSON([]byte(bad), schema.Options{}); err == nil || !strings.Contains(err.Error(), "does not compile") {
			t.Errorf("FromJSON(%s) = %v, want a compile error", bad, err)
		}
	}
	for _, draft := range []string{"http://json-schema.org/draft-04/schema#", "https://json-schema.org/draft/2019-09/schema"} {
		ty, err := schema.FromJSON([]byte(`{"$schema":"`+draft+`","type":"object","properties":{"a":{"type":"string"}}}`), schema.Options{})
		if err != nil {
			t.Errorf("%s: %v", draft, err)
			continue
		}
		if _, err := ty.Bind([]byte(`{"a":1}`)); err == nil || err.Error() != "a: must be string, got number" {
			t.Errorf("%s: Bind = %v", draft, err)
		}
	}
}
