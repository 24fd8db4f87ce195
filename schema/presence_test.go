package schema_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/fastmcp-go/fastmcp/schema"
)

// IssueArgs is the struct of issue 12, item 9.
type IssueArgs struct {
	Limit int    `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=50"`
	Mode  string `json:"mode,omitempty" validate:"omitempty,oneof=fast slow"`
	Kind  string `json:"kind,omitempty" jsonschema:"enum=a,enum=b"`
}

// TestPresenceDecides: a member present in the arguments satisfies every
// rule its schema states, zero value or not; leaving it out (or sending
// null) is what optional means, and gets the default. The cases run
// through the validator's comparison rules (IssueArgs.Limit alone), oneof,
// nested structs, struct elements, dive and omitzero.
func TestPresenceDecides(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		typ  reflect.Type
		args string
		want any    // the bound value, when the call is valid
		errs string // the error, when it is not
	}{
		{"limit absent gets the default", reflect.TypeFor[IssueArgs](), `{}`, IssueArgs{Limit: 10}, ""},
		{"limit null gets the default", reflect.TypeFor[IssueArgs](), `{"limit":null}`, IssueArgs{Limit: 10}, ""},
		{"limit 0 is below the minimum", reflect.TypeFor[IssueArgs](), `{"limit":0}`, nil, "limit: must be >= 1"},
		{"limit -0 too", reflect.TypeFor[IssueArgs](), `{"limit":-0}`, nil, "limit: must be >= 1"},
		{"limit in range", reflect.TypeFor[IssueArgs](), `{"limit":1}`, IssueArgs{Limit: 1}, ""},
		{"limit above the maximum", reflect.TypeFor[IssueArgs](), `{"limit":51}`, nil, "limit: must be <= 50"},
		{"empty oneof value", reflect.TypeFor[IssueArgs](), `{"mode":""}`, nil, "mode: must be one of \"fast\", \"slow\""},
		{"oneof value", reflect.TypeFor[IssueArgs](), `{"mode":"fast"}`, IssueArgs{Limit: 10, Mode: "fast"}, ""},
		{"empty jsonschema enum value", reflect.TypeFor[IssueArgs](), `{"kind":""}`, nil, `kind: must be one of "a", "b"`},
		{"all three", reflect.TypeFor[IssueArgs](), `{"limit":0,"mode":"","kind":""}`, nil,
			`kind: must be one of "a", "b"; limit: must be >= 1; mode: must be one of "fast", "slow"`},
		{"nested empty zip", reflect.TypeFor[Nested](),
			`{"name":"n","home":{"street":"s","city":"c","zip":""},"billing":{"street":"s","city":"c"}}`, nil,
			"home.zip: must have exactly 5 characters"},
		{"nested zip absent", reflect.TypeFor[Nested](),
			`{"name":"n","home":{"street":"s","city":"c"},"billing":{"street":"s","city":"c"}}`,
			Nested{Name: "n", Home: Address{Street: "s", City: "c"}, Billing: &Address{Street: "s", City: "c"}}, ""},
		{"empty zip in a struct element", reflect.TypeFor[Collections](),
			`{"tags":[],"pair":[1,2],"children":[{"city":"c","street":"s"},{"city":"c","street":"s","zip":""}]}`, nil,
			"children[1].zip: must have exactly 5 characters"},
		{"dive omitempty element", reflect.TypeFor[SearchArgs](), `{"query":"go","tags":["go",""]}`, nil,
			"tags[1]: must have at least 2 characters"},
		{"omitempty slice sent empty", reflect.TypeFor[SearchArgs](), `{"query":"go","tags":[]}`,
			SearchArgs{Query: "go", Limit: 10, Tags: []string{}}, ""},
		{"omitzero struct sent empty", reflect.TypeFor[SearchArgs](), `{"query":"go","page":{"size":0}}`, nil,
			"page.size: must be >= 1"},
		{"omitzero pointer to zero", reflect.TypeFor[SearchArgs](), `{"query":"go","ratio":0}`, nil,
			"ratio: must be > 0"},
		{"omitempty time-like string", reflect.TypeFor[Times](), `{"at":"2026-03-01T10:20:30Z","day":"2026-03-01","stamp":""}`, nil,
			"stamp: must be a date/time in the layout 2006-01-02T15:04:05Z07:00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ty, err := schema.For(tt.typ, schema.Options{})
			if err != nil {
				t.Fatal(err)
			}
			sch := compiles(t, ty.Schema())
			v, err := ty.Bind([]byte(tt.args))
			if tt.errs != "" {
				if ve, ok := errors.AsType[*schema.ValidationError](err); !ok || ve.Error() != tt.errs {
					t.Fatalf("Bind(%s) = %v, want %q", tt.args, err, tt.errs)
				}
				if schemaAccepts(t, sch, []byte(tt.args)) {
					t.Errorf("the schema accepts %s, which Bind rejects", tt.args)
				}
				return
			}
			if err != nil {
				t.Fatalf("Bind(%s): %v", tt.args, err)
			}
			if got := v.Interface(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Bind(%s) = %+v, want %+v", tt.args, got, tt.want)
			}
		})
	}
}
