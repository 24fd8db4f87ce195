package schema_test

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/fastmcp-go/fastmcp/schema"
)

// A tool's arguments: the schema is built once at registration, and every
// call is bound and checked against it.
func Example() {
	type AddArgs struct {
		A int `json:"a" jsonschema:"description=first addend" validate:"gte=0"`
		B int `json:"b" jsonschema:"description=second addend" validate:"gte=0"`
	}
	t, err := schema.For(reflect.TypeFor[AddArgs](), schema.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(t.Schema()))

	v, err := t.Bind([]byte(`{"a":1,"b":2}`))
	if err != nil {
		panic(err)
	}
	args := v.Interface().(AddArgs)
	fmt.Println(args.A + args.B)

	_, err = t.Bind([]byte(`{"a":-1,"B":2}`))
	fmt.Println(err)
	if ve, ok := errors.AsType[*schema.ValidationError](err); ok {
		for _, is := range ve.Issues {
			fmt.Printf("%s %s\n", is.Path, is.Rule)
		}
	}
	// Output:
	// {"type":"object","properties":{"a":{"type":"integer","description":"first addend","minimum":0},"b":{"type":"integer","description":"second addend","minimum":0}},"required":["a","b"]}
	// 3
	// a: must be >= 0; b: is required
	// a gte
	// b required
}

// FromJSON publishes a hand-written schema unchanged and binds arguments to
// a map.
func ExampleFromJSON() {
	t, err := schema.FromJSON([]byte(`{"type":"object","properties":{"city":{"type":"string","default":"Paris"},"days":{"type":"integer","minimum":1}},"required":["days"]}`), schema.Options{})
	if err != nil {
		panic(err)
	}
	v, err := t.Bind([]byte(`{"days":3}`))
	fmt.Println(v, err)
	_, err = t.Bind([]byte(`{"days":0}`))
	fmt.Println(err)
	// Output:
	// map[city:Paris days:3] <nil>
	// days: must be >= 1
}

// Elicitation builds the flat form schema of elicitation/create; titles for
// enum values go in the mcp tag.
func ExampleElicitation() {
	type Prefs struct {
		Seat   string `json:"seat" validate:"oneof=window aisle" mcp:"titles=Window|Aisle"`
		Nights int    `json:"nights,omitempty" jsonschema:"default=2" validate:"gte=1,lte=30"`
	}
	t, err := schema.Elicitation(reflect.TypeFor[Prefs]())
	if err != nil {
		panic(err)
	}
	fmt.Println(string(t.Schema()))
	v, err := t.Bind([]byte(`{"seat":"aisle"}`))
	fmt.Printf("%+v %v\n", v.Interface(), err)
	// Output:
	// {"type":"object","properties":{"seat":{"type":"string","oneOf":[{"const":"window","title":"Window"},{"const":"aisle","title":"Aisle"}]},"nights":{"type":"integer","minimum":1,"maximum":30,"default":2}},"required":["seat"]}
	// {Seat:aisle Nights:2} <nil>
}

// Parameters annotated with x-mcp-header are mirrored into HTTP headers by
// Streamable HTTP clients.
func ExampleType_Headers() {
	type QueryArgs struct {
		Region string `json:"region" jsonschema_extras:"x-mcp-header=Region"`
		SQL    string `json:"sql"`
	}
	t, err := schema.For(reflect.TypeFor[QueryArgs](), schema.Options{})
	if err != nil {
		panic(err)
	}
	for _, h := range t.Headers() {
		fmt.Printf("Mcp-Param-%s <- %v\n", h.Name, h.Path)
	}
	// Output:
	// Mcp-Param-Region <- [region]
}
