package schema

import (
	"errors"
	"reflect"
	"slices"
	"testing"
)

type tagChecked struct {
	Color  string    `json:"color" jsonschema:"enum=red,enum=green,enum=blue"`
	Name   string    `json:"name,omitempty" jsonschema:"minLength=2,maxLength=5,pattern=^[a-z]+$"`
	Level  int       `json:"level,omitempty" jsonschema:"minimum=1,maximum=10"`
	Ratio  float64   `json:"ratio,omitempty" jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1"`
	Small  float32   `json:"small,omitempty" jsonschema:"maximum=0.1"`
	Count  uint8     `json:"count,omitempty" jsonschema:"minimum=-5,maximum=2.5"`
	Prio   int64     `json:"prio,omitempty" jsonschema:"enum=1,enum=2,enum=3"`
	Tags   []string  `json:"tags,omitempty" jsonschema:"minItems=1,maxItems=2,enum=a,enum=b"`
	Scores []float64 `json:"scores,omitempty" jsonschema:"minimum=0.5"`
	Ptr    *string   `json:"ptr,omitempty" jsonschema:"enum=x"`
	Inner  []struct {
		Kind string `json:"kind" jsonschema:"enum=k1,enum=k2"`
	} `json:"inner,omitempty"`
}

// TestTagChecksMatchSchema checks that the native checks of jsonschema-tag
// constraints report exactly what the schema validator reports.
func TestTagChecksMatchSchema(t *testing.T) {
	t.Parallel()
	for _, opts := range []Options{{}, {KeepRefs: true}} {
		ty, err := For(reflect.TypeFor[tagChecked](), opts)
		if err != nil {
			t.Fatal(err)
		}
		if ty.schemaCheck {
			t.Fatalf("%+v: these constraints should be checked natively", opts)
		}
		tagChecksMatch(t, ty)
	}
	// A named slice type becomes a "$ref" under KeepRefs, and invopop
	// drops the constraints written beside it: what is not published is
	// not enforced either.
	for _, opts := range []Options{{}, {KeepRefs: true}} {
		ty, err := For(reflect.TypeFor[namedSlices](), opts)
		if err != nil {
			t.Fatal(err)
		}
		tagChecksMatch(t, ty)
		_, err = ty.Bind([]byte(`{"tags":[]}`))
		if opts.KeepRefs != (err == nil) {
			t.Errorf("named slice, %+v: %s: Bind = %v", opts, ty.Schema(), err)
		}
	}
}

type (
	tagList     []string
	namedSlices struct {
		Tags tagList `json:"tags" jsonschema:"minItems=1,maxItems=2"`
	}
)

// tagChecksMatch checks that Bind reports what the schema check reports
// for a set of arguments.
func tagChecksMatch(t *testing.T, ty *Type) {
	t.Helper()
	for _, args := range []string{
		`{"color":"red"}`,
		`{"color":"purple","name":"A","level":0,"ratio":1,"small":0.1,"count":3,"prio":4,"tags":[],"scores":[0.4,0.5],"ptr":"y","inner":[{"kind":"k3"}]}`,
		`{"color":"green","name":"abcdef","level":11,"ratio":0,"small":0.10001,"count":2,"prio":2,"tags":["a","c","b"]}`,
		`{"color":"blue","name":"ab","level":10,"ratio":0.5,"small":-1,"count":0,"prio":3,"tags":["b"],"scores":[7],"ptr":"x","inner":[{"kind":"k1"},{"kind":"x"}]}`,
		`{"color":"blue","tags":["a",null],"name":"日本"}`,
		`{"tags":[]}`, `{"tags":["a","b","c"]}`,
	} {
		_, berr := ty.Bind([]byte(args))
		var native []Issue
		if ve, ok := errors.AsType[*ValidationError](berr); ok {
			native = ve.Issues
		} else if berr != nil {
			t.Fatalf("Bind(%s): %v", args, berr)
		}
		var is issues
		ty.checkSchema([]byte(args), nil, &is)
		var viaSchema []Issue
		if e, ok := is.err().(*ValidationError); ok {
			viaSchema = e.Issues
		}
		if !slices.Equal(native, viaSchema) {
			t.Errorf("Bind(%s)\nnative: %v\nschema: %v", args, native, viaSchema)
		}
	}
}

type tagFallback struct {
	Mail  string   `json:"mail" jsonschema:"format=email"`
	Step  int      `json:"step,omitempty" jsonschema:"multipleOf=5"`
	Uniq  []string `json:"uniq,omitempty" jsonschema:"uniqueItems=true"`
	Plain string   `json:"plain,omitempty" jsonschema:"enum=a"`
}

func TestTagChecksFallback(t *testing.T) {
	t.Parallel()
	ty, err := For(reflect.TypeFor[tagFallback](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !ty.schemaCheck {
		t.Fatal("format, multipleOf and uniqueItems need the schema check")
	}
	_, err = ty.Bind([]byte(`{"mail":"nope","step":7,"uniq":["a","a"],"plain":"b"}`))
	want := `mail: must be a valid email; plain: must be one of "a"; step: must be a multiple of 5; uniq: must not contain duplicates`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// TestTagChecksTypeOverride: a type= tag that changes the JSON type is
// not checked natively.
func TestTagChecksTypeOverride(t *testing.T) {
	t.Parallel()
	type override struct {
		N int `json:"n" jsonschema:"type=string,minimum=1"`
		M int `json:"m" jsonschema:"type=integer,minimum=1"`
	}
	ty, err := For(reflect.TypeFor[override](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !ty.schemaCheck {
		t.Error("type=string on an int field should need the schema check")
	}
	type same struct {
		M int `json:"m" jsonschema:"type=integer,minimum=1"`
	}
	if ty, err = For(reflect.TypeFor[same](), Options{}); err != nil || ty.schemaCheck {
		t.Errorf("type=integer on an int field: schemaCheck %v, %v", ty != nil && ty.schemaCheck, err)
	}
}
