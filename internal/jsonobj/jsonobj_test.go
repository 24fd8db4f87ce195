package jsonobj

import (
	"bytes"
	"errors"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Member // nil with ok false: an error
		ok   bool
	}{
		{`{}`, nil, true},
		{" \n{ } \t", nil, true},
		{`{"a":1,"b":{"c":[2]},"d":"x\"y"}`, []Member{{"a", jsontext.Value(`1`)}, {"b", jsontext.Value(`{"c":[2]}`)}, {"d", jsontext.Value(`"x\"y"`)}}, true},
		{`{"a" : [ 1 , 2 ] }`, []Member{{"a", jsontext.Value(`[ 1 , 2 ]`)}}, true}, // values byte for byte
		{`{"\u0041":null}`, []Member{{"A", jsontext.Value(`null`)}}, true},         // names unquoted
		{`{"b":1,"a":2}`, []Member{{"b", jsontext.Value(`1`)}, {"a", jsontext.Value(`2`)}}, true},
		{``, nil, false},
		{`null`, nil, false},
		{`[{"a":1}]`, nil, false},
		{`"{}"`, nil, false},
		{`{"a":1`, nil, false},
		{`{"a":1,}`, nil, false},
		{`{"a" 1}`, nil, false},
		{`{"a":1,"a":2}`, nil, false}, // a repeated name
		{`{"a":1} x`, nil, false},     // data after the object
		{`{"a":1}{}`, nil, false},
		{"{\"\xff\":1}", nil, false}, // invalid UTF-8
	} {
		got, err := Parse([]byte(tc.in))
		if (err == nil) != tc.ok {
			t.Errorf("Parse(%q) error = %v, want ok %v", tc.in, err, tc.ok)
			continue
		}
		if len(got) != len(tc.want) {
			t.Errorf("Parse(%q) = %v, want %v", tc.in, got, tc.want)
			continue
		}
		for i := range got {
			if got[i].Name != tc.want[i].Name || string(got[i].Value) != string(tc.want[i].Value) {
				t.Errorf("Parse(%q)[%d] = %s:%s, want %s:%s", tc.in, i, got[i].Name, got[i].Value, tc.want[i].Name, tc.want[i].Value)
			}
		}
	}
	if _, err := Parse([]byte(`[1]`)); !errors.Is(err, ErrNotObject) {
		t.Errorf("Parse([1]) error = %v, want ErrNotObject", err)
	}
}

func TestParseCopies(t *testing.T) {
	in := []byte(`{"a":"xyz"}`)
	o, err := Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	copy(in, `{"a":"___"}`)
	if v, _ := o.Get("a"); string(v) != `"xyz"` {
		t.Errorf("value after the input changed = %s, want \"xyz\"", v)
	}
}

func TestGet(t *testing.T) {
	o := Object{{"a", jsontext.Value(`1`)}, {"B", jsontext.Value(`2`)}}
	for _, tc := range []struct {
		name, want string
		ok         bool
	}{
		{"a", `1`, true},
		{"B", `2`, true},
		{"b", ``, false}, // names are case-sensitive
		{"c", ``, false},
	} {
		v, ok := o.Get(tc.name)
		if ok != tc.ok || string(v) != tc.want {
			t.Errorf("Get(%q) = %s, %v; want %s, %v", tc.name, v, ok, tc.want, tc.ok)
		}
	}
}

func TestRangeStopsEarly(t *testing.T) {
	// Stopped at "a", Range does not read (so does not reject) what follows.
	var names []string
	err := Range([]byte(`{"a":1,"b":`), func(name string, _ jsontext.Value) bool {
		names = append(names, name)
		return false
	})
	if err != nil || len(names) != 1 || names[0] != "a" {
		t.Errorf("Range = %v, %v; want [a], nil", names, err)
	}
}

func TestAppendMember(t *testing.T) {
	b := []byte{'{'}
	b = AppendMember(b, "a", []byte(`1`))
	b = AppendMember(b, `q"\`, []byte(`{"x":[]}`))
	b = AppendMember(b, "\xff", []byte(`null`))
	b = append(b, '}')
	const want = `{"a":1,"q\"\\":{"x":[]},"` + "\ufffd" + `":null}`
	if string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
}

func TestInsertFirst(t *testing.T) {
	for _, tc := range []struct{ obj, members, want string }{
		{`{}`, `"a":1`, `{"a":1}`},
		{`{ }`, `"a":1`, `{"a":1 }`},
		{"{\n}", `"a":1`, "{\"a\":1\n}"},
		{`{"b":2}`, `"a":1`, `{"a":1,"b":2}`},
		{`{ "b":2}`, `"a":1,"c":3`, `{"a":1,"c":3, "b":2}`},
		{` {"b":2} `, `"a":1`, ` {"a":1,"b":2} `},
	} {
		obj := []byte(tc.obj)
		got := InsertFirst(obj, tc.members)
		if string(got) != tc.want {
			t.Errorf("InsertFirst(%q, %q) = %q, want %q", tc.obj, tc.members, got, tc.want)
		}
		if string(obj) != tc.obj {
			t.Errorf("InsertFirst modified its input: %q", obj)
		}
	}
}

func TestOrEmpty(t *testing.T) {
	if got := OrEmpty([]byte(nil)); string(got) != `{}` {
		t.Errorf("OrEmpty(nil) = %q", got)
	}
	if got := OrEmpty(jsontext.Value{}); string(got) != `{}` {
		t.Errorf("OrEmpty(empty) = %q", got)
	}
	if got := OrEmpty(jsontext.Value(`{"a":1}`)); string(got) != `{"a":1}` {
		t.Errorf("OrEmpty(obj) = %q", got)
	}
	// The shared {} cannot be appended to in place.
	e := OrEmpty([]byte(nil))
	_ = append(e, 'x')
	if got := OrEmpty([]byte(nil)); string(got) != `{}` {
		t.Errorf("OrEmpty after an append = %q", got)
	}
}

// FuzzParse checks that Parse accepts exactly the well-formed JSON objects,
// and that writing its members back with AppendMember gives the same
// object.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, ` {"a":1,"b":[true,null]} `, `{"a":{"b":{}}}`, `{"a":1,"a":2}`, `{"a":1}x`, `[]`, `{"\u00e9":"\ud83d\ude00"}`, "{\"\xff\":1}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		o, err := Parse(in)
		valid := jsontext.Value(in).IsValid() && jsontext.Value(bytes.TrimSpace(in)).Kind() == '{'
		if (err == nil) != valid {
			t.Fatalf("Parse(%q) error = %v; valid object = %v", in, err, valid)
		}
		if err != nil {
			return
		}
		b := []byte{'{'}
		for _, m := range o {
			b = AppendMember(b, m.Name, m.Value)
		}
		b = append(b, '}')
		o2, err := Parse(b)
		if err != nil || len(o2) != len(o) {
			t.Fatalf("written back %q: %v, %d members, want %d", b, err, len(o2), len(o))
		}
		for i := range o {
			if o2[i].Name != o[i].Name || string(o2[i].Value) != string(o[i].Value) {
				t.Fatalf("member %d written back as %s:%s, want %s:%s", i, o2[i].Name, o2[i].Value, o[i].Name, o[i].Value)
			}
		}
	})
}
