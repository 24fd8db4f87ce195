package schema_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"

	"github.com/fastmcp-go/fastmcp/schema"
)

// Types whose schemas change through invopop/jsonschema's JSONSchemaExtend.
type (
	extendedRange struct {
		N    int      `json:"n" jsonschema:"description=count"`
		Tags []string `json:"tags,omitempty"`
	}
	withExtended struct {
		R   extendedRange  `json:"r" jsonschema:"description=outer"`
		RP  *extendedRange `json:"rp,omitempty"`
		Top int            `json:"top"`
	}
	extendedTop struct {
		X int `json:"x"`
	}
	extendedWithExtras struct {
		Inner struct {
			V string `json:"v" jsonschema_extras:"x-kept=yes"`
		} `json:"inner"`
	}
	extendPanics  struct{ V int }
	withExtendBad struct {
		E extendedWithExtras `json:"e"`
	}
	withExtendPanic struct {
		P extendPanics `json:"p"`
	}
)

func (extendedRange) JSONSchemaExtend(s *jsonschema.Schema) {
	n, _ := s.Properties.Get("n")
	n.Minimum = json.Number("3")
	s.Description = "a range"
	s.Extras = map[string]any{"x-unit": "items"}
}

func (extendedTop) JSONSchemaExtend(s *jsonschema.Schema) {
	x, _ := s.Properties.Get("x")
	x.Maximum = json.Number("10")
}

func (extendedWithExtras) JSONSchemaExtend(s *jsonschema.Schema) { s.Title = "t" }

func (extendPanics) JSONSchemaExtend(*jsonschema.Schema) { panic("not today") }

// TestJSONSchemaExtend checks that a type's JSONSchemaExtend method
// changes its published schema as invopop's Reflector would, at the top
// and in a field, inlined and with references, and that what it adds is
// enforced.
func TestJSONSchemaExtend(t *testing.T) {
	t.Parallel()
	for _, opts := range []schema.Options{{}, {KeepRefs: true}} {
		for _, typ := range []reflect.Type{reflect.TypeFor[withExtended](), reflect.TypeFor[extendedTop]()} {
			ours, theirs, err := schema.DescribeMismatch(typ, opts)
			if err != nil {
				t.Fatalf("%v %+v: %v", typ, opts, err)
			}
			if ours != theirs {
				t.Errorf("%v %+v:\nours:    %s\ninvopop: %s", typ, opts, ours, theirs)
			}
		}
		ty := mustFor(t, reflect.TypeFor[withExtended](), opts)
		if s := string(ty.Schema()); !strings.Contains(s, `"minimum":3`) || !strings.Contains(s, `"x-unit":"items"`) || !strings.Contains(s, `"description":"outer"`) {
			t.Errorf("%+v: schema lacks what JSONSchemaExtend set, or the field's description: %s", opts, s)
		}
		tests := []struct{ args, wantErr string }{
			{`{"r":{"n":3},"top":1}`, ""},
			{`{"r":{"n":2},"top":1}`, "r.n: must be >= 3"},
			{`{"r":{"n":5},"rp":{"n":1},"top":1}`, "rp.n: must be >= 3"},
		}
		for _, tc := range tests {
			_, err := ty.Bind([]byte(tc.args))
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("%+v: Bind(%s): %v", opts, tc.args, err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("%+v: Bind(%s) = %v, want an error containing %q", opts, tc.args, err, tc.wantErr)
			}
		}
		top := mustFor(t, reflect.TypeFor[extendedTop](), opts)
		if _, err := top.Bind([]byte(`{"x":11}`)); err == nil || !strings.Contains(err.Error(), "x: must be <= 10") {
			t.Errorf("%+v: Bind above the maximum Extend set: %v", opts, err)
		}
	}
}

// TestJSONSchemaExtendRefused checks the messages of the Extend methods
// For cannot follow.
func TestJSONSchemaExtendRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[withExtendBad](), "would lose keywords invopop's Schema does not keep (jsonschema_extras on its fields): set them in the method instead"},
		{reflect.TypeFor[withExtendPanic](), "its JSONSchemaExtend method panicked: not today: fix the method"},
	}
	for _, tc := range tests {
		_, err := schema.For(tc.typ, schema.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("For(%v) = %v, want an error containing %q", tc.typ, err, tc.want)
		}
	}
}
