package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

const argsSchema = `{
	"type": "object",
	"properties": {
		"n": {"type": "integer"},
		"x": {"type": "number"},
		"ok": {"type": "boolean"},
		"name": {"type": "string"},
		"tags": {"type": "array", "items": {"type": "string"}},
		"nums": {"type": "array", "items": {"type": "integer"}},
		"point": {"type": "object"},
		"maybe": {"type": ["integer", "null"]},
		"either": {"anyOf": [{"type": "boolean"}, {"type": "string"}]},
		"color": {"type": "string", "enum": ["red", "green"]},
		"hero": {"type": "string", "oneOf": [{"const": "h1", "title": "Superman"}, {"const": "h2", "title": "Batman"}]},
		"free": {}
	},
	"required": ["n"]
}`

// TestParseArgs types key=value words by the schema.
func TestParseArgs(t *testing.T) {
	o, err := parseObjectSchema([]byte(argsSchema))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		words   []string
		args    string // --args
		want    string // the arguments as JSON, or the error
		isUsage bool
	}{
		{[]string{"n=3"}, "", `{"n":3}`, false},
		{[]string{"n=-12", "x=2.5", "ok=yes", "name=42"}, "", `{"n":-12,"name":"42","ok":true,"x":2.5}`, false},
		{[]string{"x=1e3", "ok=false"}, "", `{"ok":false,"x":1e3}`, false},
		{[]string{"x=.5"}, "", `{"x":0.5}`, false},
		{[]string{"tags=a,b , c"}, "", `{"tags":["a","b","c"]}`, false},
		{[]string{"tags=[\"a b\"]"}, "", `{"tags":["a b"]}`, false},
		{[]string{"nums=1,2"}, "", `{"nums":[1,2]}`, false},
		{[]string{"point={\"x\":1}"}, "", `{"point":{"x":1}}`, false},
		{[]string{"maybe=null"}, "", `{"maybe":null}`, false},
		{[]string{"maybe=7"}, "", `{"maybe":7}`, false},
		{[]string{"either=true", "name="}, "", `{"either":true,"name":""}`, false},
		{[]string{"either=maybe"}, "", `{"either":"maybe"}`, false},
		{[]string{"color=red"}, "", `{"color":"red"}`, false},
		{[]string{"hero=Batman"}, "", `{"hero":"h2"}`, false},
		{[]string{"hero=h1"}, "", `{"hero":"h1"}`, false},
		{[]string{"free=[1]", "name=a=b"}, "", `{"free":[1],"name":"a=b"}`, false},
		{[]string{"free=hello"}, "", `{"free":"hello"}`, false},
		{[]string{"n:=\"3\""}, "", `{"n":"3"}`, false},
		{[]string{"n=4"}, `{"n": 1, "x": 2}`, `{"n":4,"x":2}`, false},
		{nil, `{}`, `{}`, false},

		{[]string{"n=3.5"}, "", `n=3.5: want an integer`, true},
		{[]string{"n=0x10"}, "", `n=0x10: want an integer`, true},
		{[]string{"x=NaN"}, "", `x=NaN: want a number`, true},
		{[]string{"ok=maybe"}, "", `ok=maybe: want a boolean (true or false)`, true},
		{[]string{"nums=1,x"}, "", `nums=1,x: item "x": want an integer`, true},
		{[]string{"point=1"}, "", `point=1: want a JSON object, such as {"a":1}`, true},
		{[]string{"color=blue"}, "", `color=blue: want one of red, green`, true},
		{[]string{"maybe=x"}, "", `maybe=x: want an integer`, true},
		{[]string{"nope=1"}, "", `"nope=1": no argument "nope"; the arguments are: n, x, ok, name, tags, nums, point, maybe, either, color, hero, free`, true},
		{[]string{"=1"}, "", `"=1": want key=value (or key:=JSON)`, true},
		{[]string{"n"}, "", `"n": want key=value (or key:=JSON)`, true},
		{[]string{"n:={"}, "", `n:={: not valid JSON`, true},
		{nil, `[1]`, `--args: want a JSON object`, true},
		{nil, `null`, `--args: want a JSON object, such as '{"n": 3}': got null`, true},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.words, " ")+" "+tt.args, func(t *testing.T) {
			args, err := parseArgs(o, tt.args, tt.words)
			if tt.isUsage {
				var ue *usageError
				if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), tt.want) {
					t.Fatalf("error %v, want a usage error %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(args)
			if string(b) != tt.want {
				t.Errorf("got %s, want %s", b, tt.want)
			}
		})
	}
}

// TestValidateArgs reports every problem by field, in one line.
func TestValidateArgs(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"a":{"type":"integer","minimum":0},"b":{"type":"string"}},"required":["a","b"]}`)
	tests := []struct {
		args map[string]json.RawMessage
		want string
	}{
		{map[string]json.RawMessage{"a": json.RawMessage("1"), "b": json.RawMessage(`"x"`)}, ""},
		{map[string]json.RawMessage{"a": json.RawMessage("-1")}, "arguments of t: a: must be >= 0; b: is required"},
		{map[string]json.RawMessage{"a": json.RawMessage(`"1"`), "b": json.RawMessage(`"x"`)}, "arguments of t: a: "},
	}
	for _, tt := range tests {
		err := validateArgs("t", schema, tt.args)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: %v", tt.args, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%v: error %v, want %q", tt.args, err, tt.want)
		}
	}
	// A schema the validator cannot read is left to the server.
	if err := validateArgs("t", []byte(`{"type":"object","properties":{"a":{"$ref":"http://example.com/s.json"}}}`), nil); err != nil {
		t.Errorf("unreadable schema: %v", err)
	}
}

// FuzzParseArgs: whatever the schema and the words, parsing fails with a
// usage error or gives arguments that are all valid JSON.
func FuzzParseArgs(f *testing.F) {
	f.Add(argsSchema, "n=3", `{"x":1}`)
	f.Add(argsSchema, "tags=a,b", "")
	f.Add(`{"type":"object","properties":{"a":{"type":["array","null"],"items":{"anyOf":[{"const":1}]}}}}`, "a=1,2", "")
	f.Add(`{"properties":{"a":{"type":"number"}}}`, "a=1e999", "")
	f.Fuzz(func(t *testing.T, schema, word, jsonArgs string) {
		o, err := parseObjectSchema([]byte(schema))
		if err != nil {
			return
		}
		args, err := parseArgs(o, jsonArgs, []string{word})
		if err != nil {
			var ue *usageError
			if !errors.As(err, &ue) {
				t.Fatalf("error %v is not a usage error", err)
			}
			return
		}
		for k, v := range args {
			if !json.Valid(v) {
				t.Fatalf("argument %s = %q is not JSON", k, v)
			}
		}
	})
}

// TestLogText prints slog-style log data as a message with attributes.
func TestLogText(t *testing.T) {
	for data, want := range map[string]string{
		`"plain"`:                             "plain",
		`{"msg":"adding","a":2,"b":"x y"}`:    `adding a=2 b="x y"`,
		`{"msg":"hi","who":"ada","n":null}`:   "hi who=ada n=null",
		`{"level":"x","detail":{"k":[1, 2]}}`: `{"level":"x","detail":{"k":[1,2]}}`,
		`[1, 2]`:                              "[1,2]",
	} {
		if got := logText(json.RawMessage(data)); got != want {
			t.Errorf("logText(%s) = %q, want %q", data, got, want)
		}
	}
}
