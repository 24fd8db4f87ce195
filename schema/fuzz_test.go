package schema_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/fastmcp-go/fastmcp/schema"
)

// FuzzBind feeds arbitrary bytes to Bind on a range of types. Bind must
// never panic, must return either a value of GoType or a *ValidationError
// with at least one issue, and a value it accepts must be accepted again.
func FuzzBind(f *testing.F) {
	seeds := []string{
		``, `null`, `{}`, `[]`, `1`, `"x"`, `{"a":1,"b":2}`, `{"a":-1}`, `{"a":"x","b":null}`,
		`{"a":1,"a":2}`, `{"Name":"root"}`, `{"name":"n","home":{"street":"s","city":"c"},"billing":{"city":""}}`,
		`{"tags":["a",null,""],"pair":[1,2,3],"counts":{"a1":-1},"children":[{"street":1}]}`,
		`{"value":1,"children":[{"children":[{"value":"x"}]}]}`,
		`{"query":"q","limit":null,"fields":["a"],"weights":[1.5]}`,
		`{"name":"a","friends":[{"name":"b","zz":1}]}`,
		"{\"a\":\"\xff\"}", `{"a":1e400}`, `{"a":18446744073709551616}`, `{"x":[[[[[[[[[[]]]]]]]]]]}`,
		`{"name":"Ada","address":{"city":"London"}}`, `{"email":"x","guests":0,"seat":"up"}`,
		`{"id":"x","title":"t","named":{}}`, `{"count":null,"name":"n","mustSet":1}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	types := []*schema.Type{}
	for _, c := range []struct {
		typ  reflect.Type
		opts schema.Options
	}{
		{reflect.TypeFor[Pair](), schema.Options{}},
		{reflect.TypeFor[Pair](), schema.Options{Strict: true}},
		{reflect.TypeFor[*Nested](), schema.Options{}},
		{reflect.TypeFor[Collections](), schema.Options{}},
		{reflect.TypeFor[TreeNode](), schema.Options{}},
		{reflect.TypeFor[Person](), schema.Options{Strict: true}},
		{reflect.TypeFor[Defaults](), schema.Options{}},
		{reflect.TypeFor[Pointers](), schema.Options{}},
		{reflect.TypeFor[Embedded](), schema.Options{}},
		{reflect.TypeFor[Enums](), schema.Options{}},
		{reflect.TypeFor[Misc](), schema.Options{}},
		{reflect.TypeFor[Mirrored](), schema.Options{}},
	} {
		ty, err := schema.For(c.typ, c.opts)
		if err != nil {
			f.Fatal(err)
		}
		types = append(types, ty)
	}
	raw, err := schema.FromJSON([]byte(addressSchema), schema.Options{})
	if err != nil {
		f.Fatal(err)
	}
	types = append(types, raw)
	el, err := schema.Elicitation(reflect.TypeFor[Booking]())
	if err != nil {
		f.Fatal(err)
	}
	types = append(types, el)

	f.Fuzz(func(t *testing.T, args []byte) {
		for _, ty := range types {
			v, err := ty.Bind(args)
			if err != nil {
				ve, ok := errors.AsType[*schema.ValidationError](err)
				if !ok || len(ve.Issues) == 0 || err.Error() == "" {
					t.Fatalf("%v: Bind(%q) error %T %v is not a *ValidationError with issues", ty.GoType(), args, err, err)
				}
				continue
			}
			if v.Type() != ty.GoType() {
				t.Fatalf("%v: Bind(%q) returned %v", ty.GoType(), args, v.Type())
			}
			if _, err := ty.Bind(args); err != nil {
				t.Fatalf("%v: Bind(%q) is not repeatable: %v", ty.GoType(), args, err)
			}
		}
	})
}
