package schema_test

import (
	"math/big"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/schema"
)

type withChan struct {
	C chan int `json:"c"`
}

type withDuration struct {
	Timeout time.Duration `json:"timeout"`
}

type withURL struct {
	Link url.URL `json:"link"`
}

type withBigInt struct {
	N *big.Int `json:"n"`
}

type aliased struct{ V string }

func (aliased) JSONSchemaAlias() any { return "" }

type withAlias struct {
	E aliased `json:"e"`
}

type withCaseIgnore struct {
	Name string `json:"name,case:ignore"`
}

type withInline struct {
	Base Base `json:"base,inline"`
}

type withConflict struct {
	Base
	ID int `json:"id"`
}

type withHidden struct {
	Secret string `jsonschema:"-"`
}

type withBadValidate struct {
	N int `json:"n" validate:"gte=abc"`
}

type withUnknownValidate struct {
	N int `json:"n" validate:"no_such_rule"`
}

// The next two mix rules the registration checks itself with one only the
// validator knows (or nest it), so the validator must still read the tag.
type withUnknownBesideFast struct {
	N int    `json:"n" validate:"gte=1,lte=10"`
	S string `json:"s" validate:"min=1,no_such_rule"`
}

type withUnknownInElement struct {
	Items []struct {
		N int `json:"n" validate:"no_such_rule"`
	} `json:"items"`
	M int `json:"m" validate:"gte=0"`
}

type withBadOneof struct {
	F float64 `json:"f" validate:"oneof=1.5 2.5"`
}

type withBadDefault struct {
	N int `json:"n,omitempty" jsonschema:"default=ten"`
}

// withDefaultBreakingRule offers a default its own rules refuse.
type withDefaultBreakingRule struct {
	N int    `json:"n,omitempty" jsonschema:"default=0" validate:"omitempty,min=1"`
	S string `json:"s,omitempty" jsonschema:"default=x" validate:"omitempty,oneof=a b"`
}

type withBadPattern struct {
	S string `json:"s" jsonschema:"pattern=(?<=x)y"`
}

type withIgnoredRule struct {
	S string `json:"-" validate:"required"`
}

type withMapKey struct {
	M map[bool]string `json:"m"`
}

type withBadHeaderName struct {
	R string `json:"r" jsonschema_extras:"x-mcp-header=Bad Name"`
}

type withEmptyHeaderName struct {
	R string `json:"r" jsonschema_extras:"x-mcp-header="`
}

type withNumberHeader struct {
	R float64 `json:"r" jsonschema_extras:"x-mcp-header=Ratio"`
}

type withDupHeader struct {
	A string `json:"a" jsonschema_extras:"x-mcp-header=Region"`
	B string `json:"b" jsonschema_extras:"x-mcp-header=region"`
}

type headerItem struct {
	R string `json:"r" jsonschema_extras:"x-mcp-header=Item"`
}

type withHeaderInItems struct {
	Items []headerItem `json:"items"`
}

type withHeaderBehindRef struct {
	Target HeaderNest `json:"target"`
}

type withHeaderOnObject struct {
	Target HeaderNest `json:"target" jsonschema_extras:"x-mcp-header=Target"`
}

type withStringOnString struct {
	S string `json:"s,string"`
}

func TestForErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		typ  reflect.Type
		opts schema.Options
		want string
	}{
		{"int", reflect.TypeFor[int](), schema.Options{}, "schema: type int: arguments must be a struct (or pointer to struct): put the arguments in a struct"},
		{"pointer to int", reflect.TypeFor[*int](), schema.Options{}, "schema: type *int: arguments must be a struct (or pointer to struct): put the arguments in a struct"},
		{"map", reflect.TypeFor[map[string]any](), schema.Options{}, "arguments must be a struct"},
		{"time", reflect.TypeFor[time.Time](), schema.Options{}, "put the time in a field of a struct"},
		{"nil", nil, schema.Options{}, "pass reflect.TypeFor[YourArgs]()"},
		{"chan", reflect.TypeFor[withChan](), schema.Options{}, "withChan.c has type chan int, which has no JSON form: remove it or tag it json:\"-\""},
		{"duration", reflect.TypeFor[withDuration](), schema.Options{}, "time.Duration, which has no default JSON form: use an integer count"},
		{"url", reflect.TypeFor[withURL](), schema.Options{}, "use a string field with validate:\"url\""},
		{"own UnmarshalJSON", reflect.TypeFor[withBigInt](), schema.Options{}, "give it a JSONSchema() *jsonschema.Schema method"},
		{"JSONSchemaAlias", reflect.TypeFor[withAlias](), schema.Options{}, "whose JSONSchemaAlias method is not supported"},
		{"case:ignore", reflect.TypeFor[withCaseIgnore](), schema.Options{}, "argument names must match exactly (CVE-2026-27896)"},
		{"inline", reflect.TypeFor[withInline](), schema.Options{}, "embed the struct as an anonymous field"},
		{"name conflict", reflect.TypeFor[withConflict](), schema.Options{}, `both use the JSON name "id": rename one with a json tag`},
		{"hidden but decoded", reflect.TypeFor[withHidden](), schema.Options{}, `tag it json:"-" instead`},
		{"bad validate param", reflect.TypeFor[withBadValidate](), schema.Options{}, `validate`},
		{"unknown validate rule", reflect.TypeFor[withUnknownValidate](), schema.Options{}, `fix the tag`},
		{"unknown rule beside simple ones", reflect.TypeFor[withUnknownBesideFast](), schema.Options{}, `fix the tag`},
		{"unknown rule in elements", reflect.TypeFor[withUnknownInElement](), schema.Options{}, `fix the tag`},
		{"oneof on float", reflect.TypeFor[withBadOneof](), schema.Options{}, `oneof`},
		{"bad default", reflect.TypeFor[withBadDefault](), schema.Options{}, `"ten" is not an integer`},
		{"default breaks a rule", reflect.TypeFor[withDefaultBreakingRule](), schema.Options{}, `withDefaultBreakingRule.N: the default 0 breaks the rule min=1: fix the default= value or the validate tag`},
		{"bad pattern", reflect.TypeFor[withBadPattern](), schema.Options{}, `check pattern= and format= tags`},
		{"rule on ignored field", reflect.TypeFor[withIgnoredRule](), schema.Options{}, `is not decoded (json:"-") but has validate:"required"`},
		{"map key", reflect.TypeFor[withMapKey](), schema.Options{}, "JSON object keys are strings"},
		{"string option on string", reflect.TypeFor[withStringOnString](), schema.Options{}, `"string", which only applies to numbers`},
		{"header name", reflect.TypeFor[withBadHeaderName](), schema.Options{}, `x-mcp-header "Bad Name" at #/properties/r: contains ' '`},
		{"empty header name", reflect.TypeFor[withEmptyHeaderName](), schema.Options{}, `is empty`},
		{"number header", reflect.TypeFor[withNumberHeader](), schema.Options{}, `must have type string, integer or boolean (not number)`},
		{"duplicate header", reflect.TypeFor[withDupHeader](), schema.Options{}, `repeats "Region" (header names are compared ignoring case)`},
		{"header inside items", reflect.TypeFor[withHeaderInItems](), schema.Options{}, `x-mcp-header "Item" at #/properties/items/items/properties/r is not reachable`},
		{"header behind $ref", reflect.TypeFor[withHeaderBehindRef](), schema.Options{KeepRefs: true}, `is not reachable from the root through "properties" alone`},
		{"header on object", reflect.TypeFor[withHeaderOnObject](), schema.Options{}, `must have type string, integer or boolean (not object)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := schema.For(tt.typ, tt.opts)
			if err == nil {
				t.Fatalf("For(%v) succeeded, want an error containing %q", tt.typ, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("For(%v) error:\n %s\nwant it to contain:\n %s", tt.typ, err, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "schema: ") {
				t.Errorf("error does not name the package: %s", err)
			}
		})
	}
}

func TestHeaders(t *testing.T) {
	t.Parallel()
	ty := mustFor(t, reflect.TypeFor[HeaderArgs](), schema.Options{})
	got := ty.Headers()
	want := []schema.Header{
		{Name: "Region", Path: []string{"region"}},
		{Name: "Shard", Path: []string{"shard"}},
		{Name: "Tenant-Id", Path: []string{"target", "tenant"}},
		{Name: "Debug", Path: []string{"target", "debug"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Headers() = %+v\nwant %+v", got, want)
	}
	if len(mustFor(t, reflect.TypeFor[AddArgs](), schema.Options{}).Headers()) != 0 {
		t.Error("headers without annotations")
	}
}
