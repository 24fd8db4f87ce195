package schema_test

import (
	"reflect"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-playground/validator/v10"

	"github.com/fastmcp-go/fastmcp/schema"
)

func benchBind(b *testing.B, ty *schema.Type, args string, wantErr bool) {
	b.Helper()
	in := []byte(args)
	b.ReportAllocs()
	for b.Loop() {
		_, err := ty.Bind(in)
		if (err != nil) != wantErr {
			b.Fatal(err)
		}
	}
}

func benchType(b *testing.B, typ reflect.Type, opts schema.Options) *schema.Type {
	b.Helper()
	ty, err := schema.For(typ, opts)
	if err != nil {
		b.Fatal(err)
	}
	return ty
}

// BenchmarkBindAdd is the hot path: a 2-int struct with one validate rule.
func BenchmarkBindAdd(b *testing.B) {
	benchBind(b, benchType(b, reflect.TypeFor[AddArgs](), schema.Options{}), `{"a":1,"b":2}`, false)
}

func BenchmarkBindAddStrict(b *testing.B) {
	benchBind(b, benchType(b, reflect.TypeFor[AddArgs](), schema.Options{Strict: true}), `{"a":1,"b":2}`, false)
}

func BenchmarkBindAddPointer(b *testing.B) {
	benchBind(b, benchType(b, reflect.TypeFor[*AddArgs](), schema.Options{}), `{"a":1,"b":2}`, false)
}

func BenchmarkBindNested(b *testing.B) {
	benchBind(b, benchType(b, reflect.TypeFor[Nested](), schema.Options{}),
		`{"name":"n","home":{"street":"s","city":"c"},"work":{"street":"s","city":"c","zip":"12345"},"billing":{"street":"s","city":"c"}}`, false)
}

// BenchmarkBindDefaults fills in six defaults (the rewrite path).
func BenchmarkBindDefaults(b *testing.B) {
	benchBind(b, benchType(b, reflect.TypeFor[Defaults](), schema.Options{}), `{"query":"q"}`, false)
}

// BenchmarkBindTagConstraints has jsonschema-tag enums, checked during the
// scan.
func BenchmarkBindTagConstraints(b *testing.B) {
	benchBind(b, benchType(b, reflect.TypeFor[Enums](), schema.Options{}), `{"color":"red","size":"small","level":2}`, false)
}

type formatArgs struct {
	Mail string `json:"mail" jsonschema:"format=email"`
	N    int    `json:"n"`
}

// BenchmarkBindSchemaFallback has a jsonschema-tag format, which makes every
// call check the whole schema.
func BenchmarkBindSchemaFallback(b *testing.B) {
	benchBind(b, benchType(b, reflect.TypeFor[formatArgs](), schema.Options{}), `{"mail":"a@example.com","n":1}`, false)
}

// BenchmarkBindInvalid reports a broken rule and a missing field.
func BenchmarkBindInvalid(b *testing.B) {
	benchBind(b, benchType(b, reflect.TypeFor[Pair](), schema.Options{}), `{"a":-1}`, true)
}

// BenchmarkBindWrongType takes the slow path: decoding fails, and the
// schema validator collects every issue.
func BenchmarkBindWrongType(b *testing.B) {
	benchBind(b, benchType(b, reflect.TypeFor[Pair](), schema.Options{}), `{"a":"x","b":true}`, true)
}

func BenchmarkBindFromJSON(b *testing.B) {
	ty, err := schema.FromJSON([]byte(addressSchema), schema.Options{})
	if err != nil {
		b.Fatal(err)
	}
	benchBind(b, ty, `{"name":"Ada","address":{"city":"London"}}`, false)
}

func BenchmarkFor(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := schema.For(reflect.TypeFor[Nested](), schema.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// The floor: what decoding and validating cost without this package.

func BenchmarkFloorDecode(b *testing.B) {
	in := []byte(`{"a":1,"b":2}`)
	b.ReportAllocs()
	for b.Loop() {
		var v AddArgs
		if err := jsonv2.Unmarshal(in, &v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFloorDecodeValidate(b *testing.B) {
	in := []byte(`{"a":1,"b":2}`)
	v10 := validator.New()
	b.ReportAllocs()
	for b.Loop() {
		var v AddArgs
		if err := jsonv2.Unmarshal(in, &v); err != nil {
			b.Fatal(err)
		}
		if err := v10.Struct(&v); err != nil {
			b.Fatal(err)
		}
	}
}

type searchArgs struct {
	Query string `json:"query" validate:"min=1"`
	Limit int    `json:"limit,omitempty" jsonschema:"default=10" validate:"gte=1,lte=100"`
	Exact bool   `json:"exact,omitempty" jsonschema:"default=true"`
}

// BenchmarkBindFillDefaults fills in two defaults (the rewrite path).
func BenchmarkBindFillDefaults(b *testing.B) {
	benchBind(b, benchType(b, reflect.TypeFor[searchArgs](), schema.Options{}), `{"query":"q"}`, false)
}

// BenchmarkBindNoDefaultsNeeded sends every member (no rewrite).
func BenchmarkBindNoDefaultsNeeded(b *testing.B) {
	benchBind(b, benchType(b, reflect.TypeFor[searchArgs](), schema.Options{}), `{"query":"q","limit":5,"exact":false}`, false)
}
