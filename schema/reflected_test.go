package schema_test

import (
	"reflect"
	"testing"

	"github.com/fastmcp-go/fastmcp/schema"
)

// TestReflectedTreeMatchesRoundTrip checks that For's direct conversion of
// a reflected schema gives the tree an encoding/json round trip gives, for
// every type the package's tests use.
func TestReflectedTreeMatchesRoundTrip(t *testing.T) {
	t.Parallel()
	types := []reflect.Type{
		reflect.TypeFor[AddArgs](), reflect.TypeFor[*AddArgs](), reflect.TypeFor[Primitives](),
		reflect.TypeFor[Nested](), reflect.TypeFor[Collections](), reflect.TypeFor[Pointers](),
		reflect.TypeFor[Times](), reflect.TypeFor[Embedded](), reflect.TypeFor[Enums](),
		reflect.TypeFor[Defaults](), reflect.TypeFor[TreeNode](), reflect.TypeFor[Forest](),
		reflect.TypeFor[Person](), reflect.TypeFor[Mirrored](), reflect.TypeFor[Misc](),
		reflect.TypeFor[HeaderArgs](), reflect.TypeFor[Empty](), reflect.TypeFor[Dept](),
		reflect.TypeFor[Booking](), reflect.TypeFor[legacyEnum](),
		reflect.TypeFor[Pair](), reflect.TypeFor[Many](),
		reflect.TypeFor[Holder](), reflect.TypeFor[Elements](), reflect.TypeFor[Login](),
		reflect.TypeFor[withBadDefault](), reflect.TypeFor[withBadPattern](), reflect.TypeFor[withStringOnString](),
		reflect.TypeFor[withDupHeader](), reflect.TypeFor[withHeaderInItems](), reflect.TypeFor[formatArgs](),
		reflect.TypeFor[searchArgs](),
	}
	converted := 0
	for _, typ := range types {
		for _, opts := range []schema.Options{{}, {KeepRefs: true}, {Strict: true}, {Output: true}} {
			direct, roundTrip, err := schema.ReflectedTreeMismatch(typ, opts)
			if err != nil {
				continue // a type For rejects: its error is tested elsewhere
			}
			if direct != "" {
				converted++
			}
			if direct != roundTrip {
				t.Errorf("%v %+v:\ndirect:     %s\nround trip: %s", typ, opts, direct, roundTrip)
			}
		}
	}
	if converted < len(types) {
		t.Errorf("the direct conversion handled %d of %d cases: it should handle ordinary types", converted, 4*len(types))
	}
}
