package schema_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/schema"
)

type textArgs struct {
	S    string    `json:"s,omitempty"`
	B    bool      `json:"b,omitempty"`
	I    int       `json:"i,omitempty"`
	U    uint8     `json:"u,omitempty"`
	F    float64   `json:"f,omitempty"`
	P    *int      `json:"p,omitempty"`
	Raw  []byte    `json:"raw,omitempty"`
	When time.Time `json:"when,omitzero"`
	Tags []string  `json:"tags,omitempty"`
	Nums []int     `json:"nums,omitempty"`
	Obj  struct {
		X int `json:"x"`
	} `json:"obj,omitzero"`
	Need int `json:"need" validate:"gte=1"`
}

func TestTextBinderBind(t *testing.T) {
	st, err := schema.For(reflect.TypeFor[textArgs](), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seven := 7
	plain := schema.NewTextBinder(st, schema.TextOptions{})
	lists := schema.NewTextBinder(st, schema.TextOptions{Lists: true, Join: func(name string) string { return "/" }})
	for _, tc := range []struct {
		name   string
		b      *schema.TextBinder
		values map[string][]string
		want   textArgs
		err    string // the *schema.ValidationError's text, when it fails
	}{
		{name: "scalars", b: plain,
			values: map[string][]string{"need": {"1"}, "s": {"x y"}, "b": {"t"}, "i": {"-3"}, "u": {"200"}, "f": {"1.5"}, "p": {"7"}},
			want:   textArgs{Need: 1, S: "x y", B: true, I: -3, U: 200, F: 1.5, P: &seven}},
		{name: "base64 and UnmarshalText", b: plain,
			values: map[string][]string{"need": {"1"}, "raw": {"aGk="}, "when": {"2026-01-02T03:04:05Z"}},
			want:   textArgs{Need: 1, Raw: []byte("hi"), When: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}},
		{name: "composite takes JSON", b: plain,
			values: map[string][]string{"need": {"1"}, "tags": {`["a","b"]`}, "obj": {`{"x":2}`}},
			want: textArgs{Need: 1, Tags: []string{"a", "b"}, Obj: struct {
				X int `json:"x"`
			}{X: 2}}},
		{name: "list without Lists is JSON text", b: plain,
			values: map[string][]string{"need": {"1"}, "tags": {"a,b"}},
			err:    `tags: must be JSON text, got "a,b"`},
		{name: "lists take one element per value", b: lists,
			values: map[string][]string{"need": {"1"}, "tags": {"a", "b"}, "nums": {"1", "2"}},
			want:   textArgs{Need: 1, Tags: []string{"a", "b"}, Nums: []int{1, 2}}},
		{name: "several values of a scalar are joined by Join", b: lists,
			values: map[string][]string{"need": {"1"}, "s": {"a", "b"}},
			want:   textArgs{Need: 1, S: "a/b"}},
		{name: "several values joined by comma by default", b: plain,
			values: map[string][]string{"need": {"1"}, "s": {"a", "b"}},
			want:   textArgs{Need: 1, S: "a,b"}},
		{name: "a bad list element", b: lists,
			values: map[string][]string{"need": {"1"}, "nums": {"1", "x"}},
			err:    `nums: must be integer, got "x"`},
		{name: "every problem at once, sorted by path", b: plain,
			values: map[string][]string{"need": {"0"}, "b": {"yes"}, "i": {"1.5"}, "u": {"-1"}, "f": {"NaN"}},
			err:    `b: must be boolean, got "yes"; f: must be number, got "NaN"; i: must be integer, got "1.5"; need: must be >= 1; u: must be integer >= 0, got "-1"`},
		{name: "a required member that did not convert is not also missing", b: plain,
			values: map[string][]string{"need": {"one"}},
			err:    `need: must be integer, got "one"`},
		{name: "missing required member", b: plain,
			values: map[string][]string{},
			err:    `need: is required`},
		{name: "unknown names are strings under the type's rules", b: plain,
			values: map[string][]string{"need": {"1"}, "other": {"x"}},
			want:   textArgs{Need: 1}},
		{name: "invalid UTF-8", b: plain,
			values: map[string][]string{"need": {"1"}, "s": {"\xff"}, "\xfe": {"x"}},
			err:    "s: must be valid UTF-8 text; \xfe: the name is not valid UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := tc.b.Bind(tc.values)
			if tc.err != "" {
				verr, ok := errors.AsType[*schema.ValidationError](err)
				if !ok {
					t.Fatalf("Bind = %v, want a *schema.ValidationError", err)
				}
				if verr.Error() != tc.err {
					t.Fatalf("Bind error\n got %s\nwant %s", verr.Error(), tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := v.Interface().(textArgs); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Bind = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestTextBinderPlain(t *testing.T) {
	st, err := schema.For(reflect.TypeFor[textArgs](), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	plain := schema.NewTextBinder(st, schema.TextOptions{})
	lists := schema.NewTextBinder(st, schema.TextOptions{Lists: true})
	for _, tc := range []struct {
		field        string
		plain, lists bool
	}{
		{"s", true, true}, {"b", true, true}, {"p", true, true}, {"raw", true, true}, {"when", true, true},
		{"tags", false, true}, {"nums", false, true}, {"obj", false, false}, {"nofield", true, true},
	} {
		if got := plain.Plain(tc.field); got != tc.plain {
			t.Errorf("Plain(%q) without Lists = %v, want %v", tc.field, got, tc.plain)
		}
		if got := lists.Plain(tc.field); got != tc.lists {
			t.Errorf("Plain(%q) with Lists = %v, want %v", tc.field, got, tc.lists)
		}
	}
}
