package schema_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/schema"
)

type Booking struct {
	Name     string    `json:"name" jsonschema:"title=Your name" validate:"min=1,max=50"`
	Email    string    `json:"email" validate:"email"`
	Website  string    `json:"website,omitempty" validate:"omitempty,url"`
	Code     string    `json:"code,omitempty" validate:"omitempty,uuid"`
	Date     string    `json:"date" validate:"datetime=2006-01-02"`
	Arrival  time.Time `json:"arrival,omitzero"`
	Guests   int       `json:"guests" jsonschema:"default=2" validate:"gte=1,lte=12"`
	Budget   float64   `json:"budget,omitempty" jsonschema:"default=95.5" validate:"omitempty,gt=0"`
	Stay     int       `json:"stay,omitempty" jsonschema:"default=30"`
	Smoking  bool      `json:"smoking,omitempty" jsonschema:"default=false"`
	Seat     string    `json:"seat" validate:"oneof=window aisle" mcp:"titles=Window seat|Aisle seat"`
	Meal     string    `json:"meal,omitempty" jsonschema:"enum=veg,enum=fish,default=fish"`
	Extras   []string  `json:"extras,omitempty" validate:"max=2,dive,oneof=wifi meal parking" mcp:"titles=Wi-Fi|Hot meal|Parking"`
	Tags     []string  `json:"tags,omitempty" jsonschema:"enum=quiet,enum=view,default=quiet" validate:"min=1"`
	Nickname *string   `json:"nickname,omitempty" validate:"omitempty,alpha"`
}

func TestElicitationSchema(t *testing.T) {
	t.Parallel()
	ty, err := schema.Elicitation(reflect.TypeFor[Booking]())
	if err != nil {
		t.Fatal(err)
	}
	s := string(ty.Schema())
	for _, want := range []string{
		`"guests":{"type":"integer","minimum":1,"maximum":12,"default":2}`,
		`"budget":{"type":"number","default":95.5}`,
		`"stay":{"type":"integer","default":30}`,
		`"seat":{"type":"string","oneOf":[{"const":"window","title":"Window seat"},{"const":"aisle","title":"Aisle seat"}]}`,
		`"meal":{"type":"string","enum":["veg","fish"],"default":"fish"}`,
		`"extras":{"type":"array","items":{"anyOf":[{"const":"wifi","title":"Wi-Fi"},{"const":"meal","title":"Hot meal"},{"const":"parking","title":"Parking"}]},"maxItems":2}`,
		`"tags":{"type":"array","items":{"type":"string","enum":["quiet","view"]},"minItems":1,"default":["quiet"]}`,
		`"email":{"type":"string","format":"email"}`,
		`"date":{"type":"string","format":"date"}`,
		`"code":{"type":"string"}`, // uuid is not a form format: left out, still enforced
		`"smoking":{"type":"boolean","default":false}`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("schema lacks %s\n%s", want, s)
		}
	}
	for _, banned := range []string{"additionalProperties", "pattern", "exclusiveMinimum", "$defs", "$ref"} {
		if strings.Contains(s, banned) {
			t.Errorf("elicitation schema contains %s:\n%s", banned, s)
		}
	}
}

func TestElicitationBind(t *testing.T) {
	t.Parallel()
	ty, err := schema.Elicitation(reflect.TypeFor[Booking]())
	if err != nil {
		t.Fatal(err)
	}
	v, err := ty.Bind([]byte(`{"name":"Ada","email":"ada@example.com","date":"2026-03-01","seat":"aisle","extras":["wifi","parking"],"tags":["view"]}`))
	if err != nil {
		t.Fatal(err)
	}
	b := v.Interface().(Booking)
	if b.Guests != 2 || b.Budget != 95.5 || b.Stay != 30 || b.Meal != "fish" || len(b.Extras) != 2 {
		t.Errorf("defaults or values not bound: %+v", b)
	}
	_, err = ty.Bind([]byte(`{"name":"","email":"nope","date":"2026-02-30","seat":"middle","extras":["wifi","meal","parking"],"tags":[],"code":"x"}`))
	ve, ok := errors.AsType[*schema.ValidationError](err)
	if !ok {
		t.Fatalf("want *ValidationError, got %v", err)
	}
	got := map[string]string{}
	for _, is := range ve.Issues {
		got[is.Path] = is.Rule
	}
	want := map[string]string{"name": "min", "email": "email", "date": "datetime", "seat": "oneof", "extras": "max", "tags": "min", "code": "uuid"}
	for p, r := range want {
		if got[p] != r {
			t.Errorf("issue at %q: rule %q, want %q (all: %v)", p, got[p], r, err)
		}
	}
}

type badNested struct {
	Name string  `json:"name"`
	Addr Address `json:"addr"`
}

type badMap struct {
	Attrs map[string]string `json:"attrs"`
}

type badList struct {
	Ns []int `json:"ns"`
}

type badStringList struct {
	Words []string `json:"words"`
}

type badTitles struct {
	Pick string `json:"pick" validate:"oneof=a b" mcp:"titles=Only one"`
}

type badTitlesNoEnum struct {
	Pick string `json:"pick" mcp:"titles=A|B"`
}

type badDefault struct {
	Pick string `json:"pick" jsonschema:"enum=a,enum=b,default=c"`
}

type badAny struct {
	X any `json:"x"`
}

type badNullable struct {
	X string `json:"x" jsonschema:"nullable"`
}

type badMCPOption struct {
	X string `json:"x" mcp:"colour=red"`
}

type badLegacyMulti struct {
	Picks []string `json:"picks" validate:"dive,oneof=a b" mcp:"enumNames=A|B"`
}

type legacyEnum struct {
	Pick string `json:"pick" jsonschema:"description=Pick one" validate:"oneof=opt1 opt2" mcp:"enumNames=Option One|Option Two"`
}

func TestElicitationLegacyEnumNames(t *testing.T) {
	t.Parallel()
	st, err := schema.Elicitation(reflect.TypeFor[legacyEnum]())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{"pick":{"type":"string","description":"Pick one","enum":["opt1","opt2"],"enumNames":["Option One","Option Two"]}},"required":["pick"]}`
	if got := string(st.Schema()); got != want {
		t.Fatalf("schema:\n got %s\nwant %s", got, want)
	}
	if _, err := st.Bind([]byte(`{"pick":"opt3"}`)); err == nil {
		t.Fatal("a value outside the enum was accepted")
	}
}

type badRecursive struct {
	Next *badRecursive `json:"next,omitempty"`
}

func TestElicitationErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[badNested](), `field Addr (json "addr") is a struct`},
		{reflect.TypeFor[badMap](), `field Attrs (json "attrs") is a map`},
		{reflect.TypeFor[badList](), `field Ns (json "ns") is a list of int`},
		{reflect.TypeFor[badStringList](), `field Words (json "words") is a list without enum values`},
		{reflect.TypeFor[badTitles](), `has 1 titles for 2 enum values`},
		{reflect.TypeFor[badTitlesNoEnum](), `has titles but no enum values`},
		{reflect.TypeFor[badDefault](), `default "c", which is not one of the enum values`},
		{reflect.TypeFor[badAny](), `has no fixed type`},
		{reflect.TypeFor[badNullable](), `is nullable`},
		{reflect.TypeFor[badMCPOption](), `unknown mcp tag option "colour=red"`},
		{reflect.TypeFor[badLegacyMulti](), `enumNames is for single-select fields`},
		{reflect.TypeFor[badRecursive](), `field Next (json "next") is a struct`},
		{reflect.TypeFor[int](), `must be a struct`},
	}
	for _, tt := range tests {
		t.Run(tt.typ.String(), func(t *testing.T) {
			t.Parallel()
			_, err := schema.Elicitation(tt.typ)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Elicitation(%v) error = %v, want it to contain %q", tt.typ, err, tt.want)
			}
		})
	}
}
