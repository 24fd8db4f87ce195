package preview

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestFormFields(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []field
	}{
		{"no schema", ``, nil},
		{"no properties", `{"type":"object"}`, []field{}},
		{
			"scalar kinds in schema order",
			`{"type":"object","properties":{
				"z":{"type":"string","description":"last letter","format":"email"},
				"n":{"type":"number","default":1.5},
				"i":{"type":"integer","title":"Count"},
				"b":{"type":"boolean","default":true}
			},"required":["z","i"]}`,
			[]field{
				{Name: "z", Kind: kindString, Description: "last letter", Format: "email", Required: true},
				{Name: "n", Kind: kindNumber, Default: "1.5"},
				{Name: "i", Kind: kindInteger, Title: "Count", Required: true},
				{Name: "b", Kind: kindBoolean, Default: "true"},
			},
		},
		{
			"enum keeps JSON texts",
			`{"properties":{"color":{"type":"string","enum":["red", "green"],"default":"red"},"level":{"enum":[1,2]}}}`,
			[]field{
				{Name: "color", Kind: kindEnum, Options: []string{`"red"`, `"green"`}, Default: `"red"`},
				{Name: "level", Kind: kindEnum, Options: []string{"1", "2"}},
			},
		},
		{
			"nullable scalar is its type",
			`{"properties":{"s":{"type":["string","null"]}}}`,
			[]field{{Name: "s", Kind: kindString}},
		},
		{
			"arrays, objects, unions and untyped are JSON",
			`{"properties":{"a":{"type":"array","default":[1,2]},"o":{"type":"object"},"u":{"type":["string","integer"]},"x":{},"t":true}}`,
			[]field{
				{Name: "a", Kind: kindJSON, Default: "[\n  1,\n  2\n]"},
				{Name: "o", Kind: kindJSON},
				{Name: "u", Kind: kindJSON},
				{Name: "x", Kind: kindJSON},
				{Name: "t", Kind: kindJSON},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := formFields(json.RawMessage(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("formFields =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

func TestFormFieldsBadSchema(t *testing.T) {
	for _, s := range []string{`[]`, `{"properties":[1]}`, `{"properties":{"a":1,}}`} {
		if _, err := formFields(json.RawMessage(s)); !errors.Is(err, errBadSchema) {
			t.Errorf("formFields(%s) error = %v, want errBadSchema", s, err)
		}
	}
}

func TestFormArguments(t *testing.T) {
	fields, err := formFields(json.RawMessage(`{"properties":{
		"s":{"type":"string"},
		"rs":{"type":"string"},
		"n":{"type":"number"},
		"i":{"type":"integer"},
		"b":{"type":"boolean"},
		"e":{"enum":["a",2]},
		"j":{"type":"array"}
	},"required":["rs","i"]}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		values  map[string]string
		want    string // JSON of the arguments
		wantErr string // substring of the error
	}{
		{"required only", map[string]string{"i": "3"}, `{"i":3,"rs":""}`, ""},
		{"every kind", map[string]string{
			"s": " spaced ", "rs": "x", "n": "2.5", "i": " -7 ", "b": "false", "e": "2", "j": "[1, {\"a\": true}]",
		}, `{"b":false,"e":2,"i":-7,"j":[1,{"a":true}],"n":2.5,"rs":"x","s":" spaced "}`, ""},
		{"string enum value", map[string]string{"i": "1", "e": `"a"`}, `{"e":"a","i":1,"rs":""}`, ""},
		{"empty optional left out", map[string]string{"i": "1", "n": "  ", "j": ""}, `{"i":1,"rs":""}`, ""},
		{"missing required integer", map[string]string{}, "", `"i": required`},
		{"not an integer", map[string]string{"i": "1.5"}, "", `"i": "1.5" is not an integer`},
		{"not a number", map[string]string{"i": "1", "n": "NaN"}, "", `"n": "NaN" is not a number`},
		{"not a boolean", map[string]string{"i": "1", "b": "yes"}, "", `"b": "yes" is not true or false`},
		{"not an option", map[string]string{"i": "1", "e": `"b"`}, "", `"e": "b" is not one of "a", 2`},
		{"bad JSON", map[string]string{"i": "1", "j": "[1,"}, "", `"j": not valid JSON`},
		{"unknown field", map[string]string{"i": "1", "zz": "1"}, "", `"zz": the tool's input schema has no such property`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, err := formArguments(fields, tt.values)
			if tt.wantErr != "" {
				var fe *fieldError
				if !errors.As(err, &fe) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want a *fieldError containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(args)
			if string(got) != tt.want {
				t.Errorf("arguments = %s, want %s", got, tt.want)
			}
		})
	}
}

// FuzzFormFields checks that any schema either fails with errBadSchema or
// gives fields whose defaults are accepted back as arguments.
func FuzzFormFields(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"integer","default":3},"b":{"enum":["x"],"default":"x"}},"required":["a"]}`)
	f.Add(`{"properties":{"j":{"type":"array","default":[1]},"s":{"type":"string","default":"d"}}}`)
	f.Add(`{"properties":{"n":{"type":["number","null"],"default":null}}}`)
	f.Fuzz(func(t *testing.T, schema string) {
		fields, err := formFields(json.RawMessage(schema))
		if err != nil {
			if !errors.Is(err, errBadSchema) {
				t.Fatalf("error %v does not match errBadSchema", err)
			}
			return
		}
		values := map[string]string{}
		for _, fl := range fields {
			if fl.Default != "" {
				values[fl.Name] = fl.Default
			}
		}
		args, err := formArguments(fields, values)
		if err != nil {
			return // a default of the wrong type (an integer schema defaulting to 1.5) is the server's mistake
		}
		for name, v := range args {
			if !json.Valid(v) {
				t.Fatalf("argument %s is not JSON: %s", name, v)
			}
		}
	})
}
