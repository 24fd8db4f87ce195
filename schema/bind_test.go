package schema_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/schema"
)

type Pair struct {
	A int `json:"a" validate:"gte=0"`
	B int `json:"b"`
}

type Many struct {
	Tags []string `json:"tags" validate:"dive,min=1"`
}

type Item struct {
	Qty int `json:"qty" validate:"gte=1"`
}

type Holder struct {
	Items []Item `json:"items"`
}

// Elements holds struct elements the validator would skip without dive.
type Elements struct {
	Grid   [][]Item        `json:"grid,omitempty"`
	ByName map[string]Item `json:"byName,omitempty"`
	Ptrs   []*Item         `json:"ptrs,omitempty"`
	Inner  Holder          `json:"inner"`
	Dived  []Item          `json:"dived,omitempty" validate:"dive"`
	Deep   []Holder        `json:"deep,omitempty"`
}

type Login struct {
	Name  string `json:"name"`
	Admin bool   `json:"admin,omitempty"`
}

func mustFor(t *testing.T, typ reflect.Type, opts schema.Options) *schema.Type {
	t.Helper()
	ty, err := schema.For(typ, opts)
	if err != nil {
		t.Fatal(err)
	}
	return ty
}

// TestBindErrors checks the messages a model reads, word for word.
func TestBindErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		typ  reflect.Type
		opts schema.Options
		args string
		want string
	}{
		{"missing required and rule broken", reflect.TypeFor[Pair](), schema.Options{}, `{"a":-1}`,
			"a: must be >= 0; b: is required"},
		{"zero value present is fine", reflect.TypeFor[Pair](), schema.Options{}, `{"a":0,"b":0}`, ""},
		{"wrong type with path", reflect.TypeFor[Pair](), schema.Options{}, `{"a":"x","b":1}`,
			"a: must be integer, got string"},
		{"wrong types everywhere", reflect.TypeFor[Pair](), schema.Options{}, `{"a":"x","b":true}`,
			"a: must be integer, got string; b: must be integer, got boolean"},
		{"fraction for an integer", reflect.TypeFor[Pair](), schema.Options{}, `{"a":1.5,"b":1}`,
			"a: must be integer, got number"},
		{"integer-valued float is still not an int", reflect.TypeFor[Pair](), schema.Options{}, `{"a":1.0,"b":1}`,
			"a: must be integer, got number 1.0"},
		{"null for a required field", reflect.TypeFor[Pair](), schema.Options{}, `{"a":null,"b":1}`,
			"a: must be integer, got null"},
		{"unknown field ignored", reflect.TypeFor[Pair](), schema.Options{}, `{"a":1,"b":1,"c":2}`, ""},
		{"unknown field in strict mode", reflect.TypeFor[Pair](), schema.Options{Strict: true}, `{"a":1,"b":1,"c":2}`,
			"c: unknown field; known fields: a, b"},
		{"unknown and invalid together", reflect.TypeFor[Pair](), schema.Options{Strict: true}, `{"a":-5,"c":2}`,
			"a: must be >= 0; b: is required; c: unknown field; known fields: a, b"},
		{"Name is not name", reflect.TypeFor[Login](), schema.Options{}, `{"Name":"root"}`,
			"name: is required"},
		{"Name is unknown in strict mode", reflect.TypeFor[Login](), schema.Options{Strict: true}, `{"name":"x","Name":"root","ADMIN":true}`,
			`ADMIN: unknown field; known fields: name, admin; Name: unknown field; known fields: name, admin`},
		{"duplicate member", reflect.TypeFor[Pair](), schema.Options{}, `{"a":1,"a":2,"b":0}`,
			"a: duplicate member name: send each member once"},
		{"nested duplicate member", reflect.TypeFor[Nested](), schema.Options{}, `{"name":"n","home":{"city":"x","city":"y"}}`,
			"home.city: duplicate member name: send each member once"},
		{"not an object", reflect.TypeFor[Pair](), schema.Options{}, `[1,2]`,
			"arguments must be a JSON object, got array"},
		{"string arguments", reflect.TypeFor[Pair](), schema.Options{}, `"a=1"`,
			"arguments must be a JSON object, got string"},
		{"truncated", reflect.TypeFor[Pair](), schema.Options{}, `{"a":`,
			"invalid JSON: unexpected end of input"},
		{"trailing data", reflect.TypeFor[Pair](), schema.Options{}, `{"a":1,"b":1} {}`,
			"invalid JSON: unexpected data after the arguments object"},
		{"nested path", reflect.TypeFor[Nested](), schema.Options{}, `{"name":"n","home":{"street":"s"},"billing":{"street":"s","city":""}}`,
			"billing.city: must not be empty; home.city: is required"},
		{"nested wrong type", reflect.TypeFor[Nested](), schema.Options{}, `{"name":"n","home":{"street":1,"city":"c"},"billing":{"street":"s","city":"c"}}`,
			"home.street: must be string, got number"},
		{"array element paths", reflect.TypeFor[Collections](), schema.Options{}, `{"tags":["a",""],"pair":[1,2],"children":[{"street":"s","city":"c"},{"street":"s"},{"street":"s","city":"c","zip":"12"}]}`,
			"children[1].city: is required; children[2].zip: must have exactly 5 characters; tags[1]: must have at least 1 character"},
		{"array index order is numeric", reflect.TypeFor[Many](), schema.Options{}, `{"tags":["","","","","","","","","","","",""]}`,
			"tags[0]: must have at least 1 character; tags[1]: must have at least 1 character; tags[2]: must have at least 1 character; tags[3]: must have at least 1 character; tags[4]: must have at least 1 character; tags[5]: must have at least 1 character; tags[6]: must have at least 1 character; tags[7]: must have at least 1 character; tags[8]: must have at least 1 character; tags[9]: must have at least 1 character; tags[10]: must have at least 1 character; tags[11]: must have at least 1 character"},
		{"null array element", reflect.TypeFor[Collections](), schema.Options{}, `{"tags":["a",null],"pair":[1,2]}`,
			"tags[1]: must be string, got null"},
		{"map value and key rules", reflect.TypeFor[Collections](), schema.Options{}, `{"tags":[],"pair":[1,2],"counts":{"ok":-1,"a1":2,"we ird":3}}`,
			`counts.a1: must contain only ASCII letters; counts.ok: must be >= 0; counts["we ird"]: must contain only ASCII letters`},
		{"array too long", reflect.TypeFor[Collections](), schema.Options{}, `{"tags":[],"pair":[1,2,3]}`,
			"pair: must have at most 2 items"},
		{"recursive paths", reflect.TypeFor[TreeNode](), schema.Options{}, `{"value":1,"children":[{"value":2},{"children":[{}]}]}`,
			"children[1].children[0].value: is required; children[1].value: is required"},
		{"recursive strict", reflect.TypeFor[Person](), schema.Options{Strict: true}, `{"name":"a","friends":[{"name":"b","age":3}]}`,
			"friends[0].age: unknown field; known fields: name, friends"},
		{"pointer rules", reflect.TypeFor[Pointers](), schema.Options{}, `{"name":"","limited":11,"mustSet":0}`,
			"limited: must be <= 10; mustSet: must be >= 1"},
		{"pointer required missing", reflect.TypeFor[Pointers](), schema.Options{}, `{}`,
			"mustSet: is required; name: is required"},
		{"pointer null required", reflect.TypeFor[Pointers](), schema.Options{}, `{"name":null,"mustSet":1}`,
			"name: must be string, got null"},
		{"optional pointer null", reflect.TypeFor[Pointers](), schema.Options{}, `{"name":"x","mustSet":1,"count":null,"limited":null}`, ""},
		{"optional null in the slow path", reflect.TypeFor[Pointers](), schema.Options{}, `{"name":1,"mustSet":1,"count":null}`,
			"name: must be string, got number"},
		{"jsonschema enum is enforced", reflect.TypeFor[Enums](), schema.Options{}, `{"color":"purple","size":"small","level":2}`,
			`color: must be one of "red", "green", "blue"`},
		{"oneof is enforced with the validator's words", reflect.TypeFor[Enums](), schema.Options{}, `{"color":"red","size":"huge","level":4}`,
			"level: must be one of 1, 2, 3; size: must be one of \"small\", \"medium\", \"extra large\""},
		{"jsonschema bounds are enforced", reflect.TypeFor[Defaults](), schema.Options{}, `{"query":"q","limit":500}`,
			"limit: must be <= 100"},
		{"jsonschema pattern is enforced", reflect.TypeFor[Misc](), schema.Options{}, `{"any":1,"nullable":null,"patterned":"AB"}`,
			"patterned: must match the pattern ^[a-z]+$"},
		{"nullable accepts null", reflect.TypeFor[Misc](), schema.Options{}, `{"any":null,"nullable":null}`, ""},
		{"any must be present", reflect.TypeFor[Misc](), schema.Options{}, `{"nullable":"x"}`, "any: is required"},
		{"quoted number", reflect.TypeFor[Primitives](), schema.Options{}, `{"bool":true,"int":1,"int8":1,"int64":1,"uint":1,"uint16":1,"float32":1,"float64":1,"string":"","bytes":"AQI=","quoted":"12","NoTag":""}`, ""},
		{"uint is not negative", reflect.TypeFor[Primitives](), schema.Options{}, `{"bool":true,"int":1,"int8":1,"int64":1,"uint":-1,"uint16":1,"float32":1,"float64":1,"string":"","bytes":"","quoted":"12","NoTag":""}`,
			"uint: must be >= 0"},
		{"int8 overflow", reflect.TypeFor[Primitives](), schema.Options{}, `{"bool":true,"int":1,"int8":300,"int64":1,"uint":1,"uint16":1,"float32":1,"float64":1,"string":"","bytes":"","quoted":"12","NoTag":""}`,
			"int8: must be <= 127"},
		{"struct elements without dive", reflect.TypeFor[Elements](), schema.Options{},
			`{"grid":[[{"qty":1},{"qty":0}]],"byName":{"x":{"qty":0}},"ptrs":[{"qty":0}],"inner":{"items":[{"qty":0}]},"dived":[{"qty":0}],"deep":[{"items":[{"qty":2},{"qty":-1}]}]}`,
			"byName.x.qty: must be >= 1; deep[0].items[1].qty: must be >= 1; dived[0].qty: must be >= 1; grid[0][1].qty: must be >= 1; inner.items[0].qty: must be >= 1; ptrs[0].qty: must be >= 1"},
		{"embedded fields", reflect.TypeFor[Embedded](), schema.Options{}, `{"id":"nope","title":"t","named":{"id":"123e4567-e89b-12d3-a456-426614174000"}}`,
			"id: must be a UUID"},
		{"struct whose zero value fails is required", reflect.TypeFor[Embedded](), schema.Options{}, `{"id":"123e4567-e89b-12d3-a456-426614174000","title":"t"}`,
			"named: is required"},
		{"time", reflect.TypeFor[Times](), schema.Options{}, `{"at":"yesterday","day":"2026-01-01"}`,
			"at: must be a valid date-time"},
		{"datetime rule", reflect.TypeFor[Times](), schema.Options{}, `{"at":"2026-01-01T10:00:00Z","day":"01/02/2026"}`,
			"day: must be a date/time in the layout 2006-01-02"},
		{"header integer range", reflect.TypeFor[HeaderArgs](), schema.Options{}, `{"region":"eu","query":"q","target":{"tenant":"t"},"shard":9007199254740993}`,
			"shard: must be <= 9007199254740991"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ty := mustFor(t, tt.typ, tt.opts)
			_, err := ty.Bind(json.RawMessage(tt.args))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Bind(%s) = %v, want no error", tt.args, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Bind(%s) succeeded, want %q", tt.args, tt.want)
			}
			if _, ok := errors.AsType[*schema.ValidationError](err); !ok {
				t.Fatalf("Bind(%s) error %T is not a *schema.ValidationError: %v", tt.args, err, err)
			}
			if err.Error() != tt.want {
				t.Errorf("Bind(%s)\n got: %s\nwant: %s", tt.args, err, tt.want)
			}
		})
	}
}

func TestBindIssues(t *testing.T) {
	t.Parallel()
	ty := mustFor(t, reflect.TypeFor[Pair](), schema.Options{Strict: true})
	_, err := ty.Bind([]byte(`{"a":-1,"z":0}`))
	ve, ok := errors.AsType[*schema.ValidationError](err)
	if !ok {
		t.Fatal(err)
	}
	want := []schema.Issue{
		{Path: "a", Rule: "gte", Message: "must be >= 0"},
		{Path: "b", Rule: "required", Message: "is required"},
		{Path: "z", Rule: "unknown", Message: "unknown field; known fields: a, b"},
	}
	if !reflect.DeepEqual(ve.Issues, want) {
		t.Errorf("issues = %#v\nwant %#v", ve.Issues, want)
	}
}

func TestBindValues(t *testing.T) {
	t.Parallel()
	t.Run("struct", func(t *testing.T) {
		t.Parallel()
		v, err := mustFor(t, reflect.TypeFor[AddArgs](), schema.Options{}).Bind([]byte(`{"a":1,"b":2}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Interface().(AddArgs); got != (AddArgs{A: 1, B: 2}) {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("pointer", func(t *testing.T) {
		t.Parallel()
		v, err := mustFor(t, reflect.TypeFor[*AddArgs](), schema.Options{}).Bind([]byte(`{"a":1,"b":2}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Interface().(*AddArgs); *got != (AddArgs{A: 1, B: 2}) {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("Name never binds name", func(t *testing.T) {
		t.Parallel()
		v, err := mustFor(t, reflect.TypeFor[Login](), schema.Options{}).Bind([]byte(`{"name":"guest","Name":"root","Admin":true,"ADMIN":true}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.Interface().(Login); got != (Login{Name: "guest"}) {
			t.Errorf("case-insensitive match: got %+v", got)
		}
	})
	t.Run("empty arguments", func(t *testing.T) {
		t.Parallel()
		ty := mustFor(t, reflect.TypeFor[Defaults](), schema.Options{})
		for _, args := range []string{"", "null", " \n", "{}"} {
			_, err := ty.Bind(json.RawMessage(args))
			if err == nil || err.Error() != "query: is required" {
				t.Errorf("Bind(%q) = %v, want query: is required", args, err)
			}
		}
		e := mustFor(t, reflect.TypeFor[Empty](), schema.Options{Strict: true})
		for _, args := range []json.RawMessage{nil, json.RawMessage(""), json.RawMessage("null"), json.RawMessage("{}")} {
			if _, err := e.Bind(args); err != nil {
				t.Errorf("Bind(%q) = %v", args, err)
			}
		}
	})
	t.Run("defaults", func(t *testing.T) {
		t.Parallel()
		ty := mustFor(t, reflect.TypeFor[Defaults](), schema.Options{})
		v, err := ty.Bind([]byte(`{"query":"q","ratio":null}`))
		if err != nil {
			t.Fatal(err)
		}
		got := v.Interface().(Defaults)
		want := Defaults{Query: "q", Limit: 10, Ratio: 0.5, Exact: true, Sort: "relevance", Fields: []string{"title", "url"}, Weights: []int{1, 2}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %+v\nwant %+v", got, want)
		}
		v, err = ty.Bind([]byte(`{"query":"q","limit":5,"exact":false,"fields":[]}`))
		if err != nil {
			t.Fatal(err)
		}
		got = v.Interface().(Defaults)
		if got.Limit != 5 || got.Exact || len(got.Fields) != 0 || got.Fields == nil {
			t.Errorf("sent values must win over defaults: %+v", got)
		}
		// Defaults are not shared between calls.
		v1, _ := ty.Bind([]byte(`{"query":"q"}`))
		v1.Interface().(Defaults).Fields[0] = "changed"
		v2, _ := ty.Bind([]byte(`{"query":"q"}`))
		if v2.Interface().(Defaults).Fields[0] != "title" {
			t.Error("default slice shared between calls")
		}
	})
	t.Run("nested defaults", func(t *testing.T) {
		t.Parallel()
		type inner struct {
			Mode string `json:"mode,omitempty" jsonschema:"default=fast"`
		}
		type outer struct {
			In    inner   `json:"in"`
			List  []inner `json:"list"`
			Maybe *inner  `json:"maybe,omitempty"`
		}
		v, err := mustFor(t, reflect.TypeFor[outer](), schema.Options{}).Bind([]byte(`{"in":{},"list":[{},{"mode":"slow"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		got := v.Interface().(outer)
		if got.In.Mode != "fast" || got.List[0].Mode != "fast" || got.List[1].Mode != "slow" || got.Maybe != nil {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("embedded", func(t *testing.T) {
		t.Parallel()
		v, err := mustFor(t, reflect.TypeFor[Embedded](), schema.Options{}).Bind([]byte(`{"id":"123e4567-e89b-12d3-a456-426614174000","title":"t","source":"s","actor":"a","named":{"id":"123e4567-e89b-12d3-a456-426614174000"}}`))
		if err != nil {
			t.Fatal(err)
		}
		got := v.Interface().(Embedded)
		if got.ID == "" || got.Meta == nil || got.Source != "s" || got.Actor != "a" {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("fields", func(t *testing.T) {
		t.Parallel()
		fs := mustFor(t, reflect.TypeFor[Embedded](), schema.Options{}).Fields()
		var names []string
		for _, f := range fs {
			names = append(names, f.Name)
		}
		if strings.Join(names, ",") != "id,created,source,actor,title,named" {
			t.Errorf("names = %v", names)
		}
		if !reflect.DeepEqual(fs[2].Index, []int{1, 0}) || fs[2].Type != reflect.TypeFor[string]() || fs[2].Required {
			t.Errorf("source field = %+v", fs[2])
		}
		add := mustFor(t, reflect.TypeFor[AddArgs](), schema.Options{}).Fields()
		if add[0].Description != "first addend" || !add[1].Required || string(add[1].Schema) != `{"type":"integer","description":"second addend","minimum":0}` {
			t.Errorf("fields = %+v", add)
		}
	})
}

func TestBindConcurrent(t *testing.T) {
	t.Parallel()
	ty := mustFor(t, reflect.TypeFor[Collections](), schema.Options{Strict: true})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				if (g+i)%2 == 0 {
					if _, err := ty.Bind([]byte(`{"tags":["a"],"pair":[1,2],"counts":{"x":1}}`)); err != nil {
						t.Error(err)
						return
					}
				} else {
					_, err := ty.Bind([]byte(`{"tags":[""],"pair":[1],"zz":1}`))
					if err == nil || !strings.Contains(err.Error(), "zz: unknown field") {
						t.Errorf("got %v", err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

type panicky string

func (p *panicky) UnmarshalText(b []byte) error {
	if string(b) == "boom" {
		panic("boom")
	}
	*p = panicky(b)
	return nil
}

func TestBindRecoversPanics(t *testing.T) {
	t.Parallel()
	type args struct {
		P panicky `json:"p"`
	}
	ty := mustFor(t, reflect.TypeFor[args](), schema.Options{})
	if string(ty.Schema()) != `{"type":"object","properties":{"p":{"type":"string"}},"required":["p"]}` {
		t.Errorf("schema = %s", ty.Schema())
	}
	v, err := ty.Bind([]byte(`{"p":"ok"}`))
	if err != nil || v.Interface().(args).P != "ok" {
		t.Fatalf("Bind = %v, %v", v, err)
	}
	_, err = ty.Bind([]byte(`{"p":"boom"}`))
	if err == nil || !strings.Contains(err.Error(), "panicked: boom") {
		t.Fatalf("Bind = %v, want the panic as an error", err)
	}
	if _, ok := errors.AsType[*schema.ValidationError](err); ok {
		t.Error("a panic is a server bug, not a *ValidationError")
	}
}

func TestIntKeyedMap(t *testing.T) {
	t.Parallel()
	type args struct {
		ByID map[int]Address `json:"byId" validate:"dive"`
		Qty  map[uint]int    `json:"qty,omitempty" validate:"dive,gte=1"`
	}
	ty := mustFor(t, reflect.TypeFor[args](), schema.Options{Strict: true})
	want := `{"type":"object","properties":{"byId":{"type":"object","patternProperties":{"^[0-9]+$":{"type":"object","properties":{"street":{"type":"string","description":"street and number"},"city":{"type":"string","minLength":1},"zip":{"type":"string","minLength":5,"maxLength":5,"pattern":"^[-+]?[0-9]+(?:\\.[0-9]+)?$"}},"additionalProperties":false,"required":["street","city"]}},"additionalProperties":false},"qty":{"type":"object","additionalProperties":{"type":"integer","minimum":1}}},"additionalProperties":false,"required":["byId"]}`
	if got := string(ty.Schema()); got != want {
		t.Errorf("schema\n got: %s\nwant: %s", got, want)
	}
	_, err := ty.Bind([]byte(`{"byId":{"7":{"street":"s","city":""},"8":{"street":"s"}},"qty":{"1":0}}`))
	if err == nil || err.Error() != `byId["7"].city: must not be empty; byId["8"].city: is required; qty["1"]: must be >= 1` {
		t.Errorf("got %v", err)
	}
}

func TestBindMutualRecursion(t *testing.T) {
	t.Parallel()
	ty := mustFor(t, reflect.TypeFor[Dept](), schema.Options{})
	_, err := ty.Bind([]byte(`{"name":"R&D","site":{"street":"s","city":"c"},"staff":[{"name":"a","dept":{"name":"sub","site":{"street":"s"},"head":{"name":""}}}]}`))
	want := "staff[0].dept.head.name: must not be empty; staff[0].dept.site.city: is required"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}
