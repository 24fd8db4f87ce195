package schema_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/invopop/jsonschema"

	"github.com/fastmcp-go/fastmcp/schema"
)

// Types for TestDescribeMatchesInvopop: the tag syntax and the shapes of
// invopop/jsonschema's Reflector.
type (
	tagTags  []string
	tagTable map[string]int
	tagBytes []byte
	tagByte  uint8
	tagPoint struct {
		X int `json:"x" jsonschema:"minimum=-5,maximum=5"`
	}
	tagOwn struct{ V string }
)

func (tagOwn) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: "its own", Pattern: "^v"}
}

type tagZoo struct {
	Title    string                  `json:"title" jsonschema:"title=T,description=D,minLength=1,maxLength=9,pattern=^a\\,b$,format=email,readOnly=true,example=ex,enum=a,enum=b"`
	Desc     string                  `json:"desc" jsonschema_description:"from the other tag" jsonschema:"writeOnly=false"`
	Typed    string                  `json:"typed" jsonschema:"type=integer,minimum=3,minLength=2"`
	Num      float64                 `json:"num" jsonschema:"multipleOf=0.5,exclusiveMinimum=1,exclusiveMaximum=1e3,example=2.5,enum=1,enum=x,minimum=a=b,maximum=zz"`
	Quoted   int                     `json:"quoted,string" jsonschema:"minLength=1,minimum=4"`
	Flag     bool                    `json:"flag" jsonschema:"default=true"`
	List     []int                   `json:"list" jsonschema:"minItems=1,maxItems=x,uniqueItems=true,minimum=2,enum=3,example=4"`
	Strs     []string                `json:"strs" jsonschema:"format=uri,pattern=^h,minLength=3,enum=p"`
	Fixed    [3]int                  `json:"fixed"`
	Named    tagTags                 `json:"named" jsonschema:"maxItems=4,description=named"`
	Table    tagTable                `json:"table" jsonschema:"title=table"`
	ByKey    map[int]string          `json:"byKey"`
	Anys     map[string]any          `json:"anys"`
	Any      any                     `json:"any"`
	AnyDesc  any                     `json:"anyDesc" jsonschema:"description=anything"`
	List2    []any                   `json:"list2" jsonschema:"format=x"`
	Blob     tagBytes                `json:"blob"`
	Bytes    []byte                  `json:"bytes"`
	ByteList []tagByte               `json:"byteList"`
	Raw      json.RawMessage         `json:"raw"`
	IP       net.IP                  `json:"ip"`
	When     time.Time               `json:"when"`
	WhenP    *time.Time              `json:"whenP,omitempty"`
	Point    tagPoint                `json:"point" jsonschema:"description=a point,nullable"`
	PointP   *tagPoint               `json:"pointP,omitempty"`
	Points   []tagPoint              `json:"points" jsonschema:"oneof_ref=#/$defs/a;#/$defs/b"`
	Own      tagOwn                  `json:"own"`
	Own2     *tagOwn                 `json:"own2" jsonschema:"description=again"`
	OneType  string                  `json:"oneType" jsonschema:"oneof_type=string;integer"`
	AnyType  string                  `json:"anyType" jsonschema:"anyof_type=string;null"`
	AnyRef   string                  `json:"anyRef" jsonschema:"anyof_ref=#/$defs/x"`
	GroupA   string                  `json:"groupA,omitempty" jsonschema:"oneof_required=one,anyof_required=any"`
	GroupB   string                  `json:"groupB,omitempty" jsonschema:"oneof_required=one,oneof_required=two"`
	Extras   string                  `json:"extras" jsonschema_extras:"x-a=1,x-a=2,x-a=3,x-b=true,x-c=false,minimum=7,x-d=a\\,b"`
	Null     *string                 `json:"null" jsonschema:"nullable,minLength=2"`
	Uints    map[uint]tagPoint       `json:"uints"`
	Nested   []map[string][]tagPoint `json:"nested"`
}

// TestDescribeMatchesInvopop checks that the schema For describes from the
// one walk of a type is the one invopop/jsonschema's Reflector reflects,
// up to what For replaces in any case (defaults, required lists), for
// every type the package's tests use, inlined and with references.
func TestDescribeMatchesInvopop(t *testing.T) {
	t.Parallel()
	types := []reflect.Type{
		reflect.TypeFor[tagZoo](),
		reflect.TypeFor[AddArgs](), reflect.TypeFor[*AddArgs](), reflect.TypeFor[Primitives](),
		reflect.TypeFor[Nested](), reflect.TypeFor[Collections](), reflect.TypeFor[Pointers](),
		reflect.TypeFor[Times](), reflect.TypeFor[Embedded](), reflect.TypeFor[Enums](),
		reflect.TypeFor[Defaults](), reflect.TypeFor[TreeNode](), reflect.TypeFor[Forest](),
		reflect.TypeFor[Person](), reflect.TypeFor[Mirrored](), reflect.TypeFor[Misc](),
		reflect.TypeFor[HeaderArgs](), reflect.TypeFor[Empty](), reflect.TypeFor[Dept](),
		reflect.TypeFor[Booking](), reflect.TypeFor[legacyEnum](),
		reflect.TypeFor[Pair](), reflect.TypeFor[Many](),
		reflect.TypeFor[Holder](), reflect.TypeFor[Elements](), reflect.TypeFor[Login](),
		reflect.TypeFor[withBadPattern](), reflect.TypeFor[withStringOnString](),
		reflect.TypeFor[withDupHeader](), reflect.TypeFor[withHeaderInItems](), reflect.TypeFor[formatArgs](),
		reflect.TypeFor[searchArgs](), reflect.TypeFor[Tagged](), reflect.TypeFor[SearchArgs](),
	}
	compared := 0
	for _, typ := range types {
		for _, opts := range []schema.Options{{}, {KeepRefs: true}} {
			ours, theirs, err := schema.DescribeMismatch(typ, opts)
			if err != nil {
				t.Logf("%v %+v: %v", typ, opts, err)
				continue // a type For rejects: its error is tested elsewhere
			}
			compared++
			if ours != theirs {
				t.Errorf("%v %+v:\nours:    %s\ninvopop: %s", typ, opts, ours, theirs)
			}
		}
	}
	if compared < 2*len(types)-4 {
		t.Errorf("compared %d of %d cases", compared, 2*len(types))
	}
}

type panickySchema struct{ V string }

func (panickySchema) JSONSchema() *jsonschema.Schema { panic("no schema today") }

// TestForTypeDescribingItself checks For with a field whose type has its
// own JSONSchema method, and with one whose method panics.
func TestForTypeDescribingItself(t *testing.T) {
	t.Parallel()
	ty, err := schema.For(reflect.TypeFor[struct {
		Own tagOwn `json:"own"`
	}](), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(ty.Schema()), `{"type":"object","properties":{"own":{"type":"string","pattern":"^v"}},"required":["own"]}`; got != want {
		t.Errorf("schema:\ngot  %s\nwant %s", got, want)
	}
	_, err = schema.For(reflect.TypeFor[struct {
		P panickySchema `json:"p"`
	}](), schema.Options{})
	if err == nil || !strings.Contains(err.Error(), "its JSONSchema method: panicked: no schema today") {
		t.Errorf("For with a panicking JSONSchema method: %v", err)
	}
}

// TestDescribeMatchesInvopopOnRandomTags compares For's schemas with the
// Reflector's, as TestDescribeMatchesInvopop does, for struct types made
// up of random fields with random jsonschema tags (the same ones on every
// run).
func TestDescribeMatchesInvopopOnRandomTags(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewSource(1))
	keys := []string{"title", "description", "type", "minLength", "maxLength", "pattern", "format",
		"readOnly", "writeOnly", "example", "enum", "default", "multipleOf", "minimum", "maximum",
		"exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems", "uniqueItems", "oneof_type",
		"anyof_type", "oneof_required", "anyof_required", "required", "nullable"}
	vals := []string{"1", "0", "-3", "2.5", "1e3", "abc", "", "true", "false", "a=b", "string", "integer",
		"array", "number", "boolean", "object", "+1", "1.", "99999999999999999999", "^a$", "s;t"}
	types := []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[int](), reflect.TypeFor[uint8](),
		reflect.TypeFor[float32](), reflect.TypeFor[bool](), reflect.TypeFor[[]string](), reflect.TypeFor[[]int](),
		reflect.TypeFor[[2]float64](), reflect.TypeFor[*int](), reflect.TypeFor[map[string]int](),
		reflect.TypeFor[any](), reflect.TypeFor[time.Time](), reflect.TypeFor[[]byte](), reflect.TypeFor[tagPoint](),
		reflect.TypeFor[[]tagPoint](), reflect.TypeFor[tagTags](), reflect.TypeFor[tagOwn](),
		reflect.TypeFor[[][]string](), reflect.TypeFor[[]any]()}
	compared := 0
	for range 1000 {
		var fields []reflect.StructField
		for i := range 1 + r.Intn(3) {
			var parts []string
			for range r.Intn(5) {
				// Only keys the Reflector reads, in the form it reads them:
				// For refuses any other (TestForRefusesBadTags).
				k := keys[r.Intn(len(keys))]
				if k != "required" && k != "nullable" {
					k += "=" + vals[r.Intn(len(vals))]
				}
				parts = append(parts, k)
			}
			ft := types[r.Intn(len(types))]
			name := fmt.Sprintf("f%d", i)
			if r.Intn(3) == 0 {
				name += ",omitempty"
			}
			if (ft.Kind() == reflect.Int || ft.Kind() == reflect.Float32) && r.Intn(3) == 0 {
				name += ",string"
			}
			tag := fmt.Sprintf(`json:%q jsonschema:%q`, name, strings.Join(parts, ","))
			if r.Intn(4) == 0 {
				tag += ` jsonschema_extras:"x-a=1,x-a=true,minimum=3"`
			}
			if r.Intn(4) == 0 {
				tag += ` jsonschema_description:"d"`
			}
			fields = append(fields, reflect.StructField{Name: fmt.Sprintf("F%d", i), Type: ft, Tag: reflect.StructTag(tag)})
		}
		typ := reflect.StructOf(fields)
		for _, opts := range []schema.Options{{}, {KeepRefs: true}} {
			ours, theirs, err := schema.DescribeMismatch(typ, opts)
			if err != nil {
				continue // For refuses the type
			}
			compared++
			if ours != theirs {
				t.Fatalf("%v %+v:\nours:    %s\ninvopop: %s", typ, opts, ours, theirs)
			}
		}
	}
	if compared < 1500 {
		t.Errorf("compared only %d of 2000 cases", compared)
	}
}
