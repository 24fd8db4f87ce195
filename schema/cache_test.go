package schema_test

import (
	"reflect"
	"testing"

	"github.com/fastmcp-go/fastmcp/schema"
)

type cacheArgs struct {
	Name  string `json:"name" validate:"required" jsonschema:"maxLength=5"`
	Count int    `json:"count,omitempty" jsonschema:"minimum=1"`
}

type cacheOther struct {
	X int `json:"x"`
}

// TestForBuildsEachTypeOnce: two tools with the same argument type (two
// For calls with the same options) build the schema once and share the
// Type; other options or another type build their own.
func TestForBuildsEachTypeOnce(t *testing.T) {
	typ := reflect.TypeFor[cacheArgs]()
	before := schema.Builds()
	a, err := schema.For(typ, schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := schema.For(typ, schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := schema.Builds() - before; got != 1 {
		t.Errorf("two For calls for one type built %d schemas, want 1", got)
	}
	if a != b {
		t.Error("two For calls for one type returned different Types")
	}
	strict, err := schema.For(typ, schema.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	out, err := schema.For(typ, schema.Options{Output: true})
	if err != nil {
		t.Fatal(err)
	}
	other, err := schema.For(reflect.TypeFor[cacheOther](), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := schema.Builds() - before; got != 4 {
		t.Errorf("four distinct (type, options) pairs built %d schemas, want 4", got)
	}
	if strict == a || out == a || strict == out || other == a {
		t.Error("different options or types share a Type")
	}
	if string(strict.Schema()) == string(a.Schema()) {
		t.Error("Strict and default schemas are the same bytes: options not applied")
	}
	// Errors are not kept: a bad type fails every time.
	for range 2 {
		if _, err := schema.For(reflect.TypeFor[int](), schema.Options{}); err == nil {
			t.Fatal("For(int) succeeded")
		}
	}
}

// TestSharedTypeIsNotAltered: what a Type hands out cannot change what the
// next caller of For gets. Fields and Headers are copies; appending to
// Schema copies it.
func TestSharedTypeIsNotAltered(t *testing.T) {
	typ := reflect.TypeFor[cacheArgs]()
	a, err := schema.For(typ, schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := string(a.Schema())
	s := a.Schema()
	_ = append(s, " trailing"...)
	f := a.Fields()
	f[0].Name = "changed"
	_ = a.Headers()
	b, err := schema.For(typ, schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b.Schema()); got != want {
		t.Errorf("schema changed through a caller's append:\n got %s\nwant %s", got, want)
	}
	if b.Fields()[0].Name != "name" {
		t.Errorf("Fields changed through a caller's copy: %q", b.Fields()[0].Name)
	}
	if _, err := b.Bind([]byte(`{"name":"toolong"}`)); err == nil {
		t.Error("the shared Type no longer checks maxLength")
	}
}
