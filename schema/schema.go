package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/schema/internal/check"
)

// Options configures For. The zero value inlines definitions and ignores
// unknown argument fields.
type Options struct {
	// KeepRefs keeps named struct types as "$ref" into "$defs" instead of
	// inlining them. Default: inline, because many hosts mishandle $ref.
	// Recursive types always keep "$ref" for the types in the cycle.
	KeepRefs bool
	// Strict makes unknown argument fields an error (Issue rule "unknown")
	// at every struct level, and adds "additionalProperties": false to every
	// object that describes a struct. Default: unknown fields are ignored.
	Strict bool
	// Output describes the JSON that encoding a value of the type produces,
	// for a tool's outputSchema, instead of the arguments Bind accepts:
	// every member without omitempty or omitzero is required (pointers
	// too), nil pointers and interfaces may be null, and validate rules are
	// not mirrored. Defaults still appear as annotations. Bind on such a
	// Type works but checks arguments by the input rules.
	Output bool
}

// Type is the schema of one argument type, with everything needed to bind
// arguments to it. Types come from For, FromJSON and Elicitation (the zero
// Type is not usable); a Type is immutable and safe for concurrent use.
type Type struct {
	goType  reflect.Type
	ptr     bool // GoType is a pointer to the struct
	schema  jsontext.Value
	fields  []Field // for FromJSON; for For and Elicitation, worked out on first use
	headers []Header
	plan    *plan // nil for FromJSON

	// schemaCheck makes Bind check arguments against the schema itself (not
	// only the validator), because jsonschema tags add constraints.
	schemaCheck bool
	// extraCheck makes Bind validate elements the validator skips.
	extraCheck bool
	// rootPrefix is the struct name the validator puts first in namespaces.
	rootPrefix string
	warnings   []string

	fieldsOnce sync.Once // works out fields from schema (For and Elicitation)

	// checker checks arguments against the schema before
	// restrictForElicitation: the rule list for generated schemas, the
	// full engine for FromJSON (and for generated schemas that need it).
	checker check.Checker

	raw      *rawSchema // set by FromJSON
	scanners sync.Pool  // *scanner
}

// jsonValidatePkg is the import path of the package that links the full
// engine.
const jsonValidatePkg = "github.com/fastmcp-go/fastmcp/schema/jsonvalidate"

// generatedChecker returns the checker of a generated schema: the rule
// list, or the full engine when the schema needs it and it is linked.
func generatedChecker(tree *object, full []byte) (check.Checker, error) {
	rc, err := newRuleChecker(tree)
	if err == nil {
		return rc, nil
	}
	if check.Full != nil {
		doc, _ := decodeInstance(full)
		c, cerr := check.Full(doc)
		if cerr != nil {
			return nil, fmt.Errorf("the generated schema does not compile: %v: check pattern= and format= tags", cerr)
		}
		return c, nil
	}
	if errors.Is(err, errNeedsEngine) {
		return nil, fmt.Errorf("its schema uses %v, which fastmcp's own checks do not enforce: add import _ %q to check it with a full JSON Schema engine", strings.TrimPrefix(err.Error(), errNeedsEngine.Error()+": "), jsonValidatePkg)
	}
	return nil, fmt.Errorf("the generated schema does not compile: %v: check pattern= and format= tags", err)
}

// Field describes one top-level property of a Type.
type Field struct {
	// Name is the JSON member name.
	Name string
	// Description is the property's "description", if any.
	Description string
	// Required reports whether the property is in "required".
	Required bool
	// Type is the Go type of the struct field. For FromJSON it is the type
	// Bind stores in the map: string, float64, bool, []any, map[string]any,
	// or any.
	Type reflect.Type
	// Index is the reflect field index (through embedded structs), for
	// reflect.Value.FieldByIndex. Nil for FromJSON.
	Index []int
	// Schema is the property's schema. It may hold "$ref"s into the
	// top-level "$defs" (KeepRefs, recursive types), or "#" for the root.
	Schema json.RawMessage
}

// Schema returns the JSON Schema (draft 2020-12, "type":"object"). The bytes
// are computed once and shared by every caller (For returns one Type per
// type and options): they must not be modified. Appending to the slice
// copies it, since its capacity ends at its length.
func (t *Type) Schema() json.RawMessage {
	return json.RawMessage(t.schema[:len(t.schema):len(t.schema)])
}

// GoType returns the type Bind produces: the type given to For, or
// map[string]any for FromJSON.
func (t *Type) GoType() reflect.Type { return t.goType }

// Fields returns the top-level properties in declaration order. The slice is
// a copy; the Index and Schema slices inside are shared and must not be
// modified.
func (t *Type) Fields() []Field {
	if t.plan != nil {
		// Tools never ask for their fields: read them back from the
		// published schema (the tree they come from, encoded) when asked.
		t.fieldsOnce.Do(func() {
			tree, err := parseTree(t.schema)
			obj, ok := tree.(*object)
			if err != nil || !ok {
				panic(fmt.Sprintf("schema: type %s: internal error: cannot read back the published schema: %v", t.goType, err))
			}
			t.fields = fieldsOf(obj, t.plan)
		})
	}
	return slices.Clone(t.fields)
}

// Headers returns the properties annotated with "x-mcp-header", in schema
// order. The slice is a copy.
func (t *Type) Headers() []Header { return slices.Clone(t.headers) }

// Warnings returns, one line each, what For noticed in the type that
// works but is likely a mistake, for the caller to log at registration:
// an exported field without a json name, whose argument is named like the
// Go field ("Query", so a model that sends "query" fills nothing); the
// line names the struct and field and the json tag to add. A field of an
// embedded struct is named with that struct, where its tag goes; the
// embedded struct itself needs no name (naming it would nest its
// fields). Nil for FromJSON. The slice is a copy.
func (t *Type) Warnings() []string { return slices.Clone(t.warnings) }

// For builds the schema of the argument type t, a struct or a pointer to a
// struct, and prepares Bind. Its errors say how to fix the type.
//
// Each (type, Options) pair is built once per process: later calls return
// the same *Type, so a hundred tools that share an argument type pay for one
// schema. A Type is immutable, which makes the sharing safe. The memo holds
// one entry per pair asked for (the types of a program are finite); errors
// are not kept.
func For(t reflect.Type, opts Options) (*Type, error) {
	key := forKey{t, opts}
	if ty, ok := forCache.Load(key); ok {
		return ty.(*Type), nil
	}
	ty, err := build(t, opts, false)
	if err != nil {
		return nil, err
	}
	got, _ := forCache.LoadOrStore(key, ty)
	return got.(*Type), nil
}

// forKey identifies one result of For.
type forKey struct {
	t    reflect.Type
	opts Options
}

// forCache maps a forKey to its *Type.
var forCache sync.Map

// builds counts the schemas build made, for tests.
var builds atomic.Int64

func build(t reflect.Type, opts Options, elicit bool) (*Type, error) {
	builds.Add(1)
	if t == nil {
		return nil, fmt.Errorf("schema: nil type: pass reflect.TypeFor[YourArgs]()")
	}
	st := t
	ptr := false
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
		ptr = true
	}
	if st.Kind() != reflect.Struct {
		return nil, fmt.Errorf("schema: type %s: arguments must be a struct (or pointer to struct): put the arguments in a struct", t)
	}
	if st == timeType {
		return nil, fmt.Errorf("schema: type %s: arguments must be a struct of named fields: put the time in a field of a struct", t)
	}
	a := &analyzer{root: t, plans: map[reflect.Type]*plan{}, strict: opts.Strict}
	root := a.analyze(st, st.Name())
	if a.err != nil {
		return nil, a.err
	}
	if root.kind != planStruct {
		return nil, fmt.Errorf("schema: type %s: arguments must be a plain struct, not a type with its own JSON form: put the arguments in a struct", t)
	}
	markRules(a)
	tree, err := generate(a, root, opts)
	if err != nil {
		return nil, err
	}
	if err := preflight(a); err != nil {
		return nil, err
	}
	headers, err := findHeaders(tree)
	if err != nil {
		return nil, fmt.Errorf("schema: type %s: %w", t, err)
	}
	boundHeaderIntegers(tree, headers)
	canonicalize(tree)
	full := encodeTree(tree)
	checkTree := tree
	if elicit { // restrictForElicitation changes tree; arguments are checked against full
		parsed, _ := parseTree(full)
		checkTree = parsed.(*object)
	}
	checker, err := generatedChecker(checkTree, full)
	if err != nil {
		return nil, fmt.Errorf("schema: type %s: %w", t, err)
	}
	published := full
	if elicit {
		if err := restrictForElicitation(tree, root); err != nil {
			return nil, err
		}
		published = encodeTree(tree)
		headers = nil
	}
	ty := &Type{
		goType:      t,
		ptr:         ptr,
		schema:      published,
		headers:     headers,
		plan:        root,
		schemaCheck: a.schemaCheck || hasIntegerHeader(tree, headers),
		extraCheck:  root.needsExtra,
		checker:     checker,
		warnings:    a.warnings,
	}
	if st.Name() != "" {
		ty.rootPrefix = st.Name() + "."
	}
	return ty, nil
}

func fieldsOf(tree *object, root *plan) []Field {
	props := tree.getObject("properties")
	required := map[string]bool{}
	if list, ok := tree.get("required"); ok {
		l, _ := list.([]any)
		for _, r := range l {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	out := make([]Field, 0, len(root.fields))
	for _, f := range root.fields {
		var ps any = true
		if props != nil {
			if v, ok := props.get(f.name); ok {
				ps = v
			}
		}
		desc := ""
		if o, ok := ps.(*object); ok {
			desc = nonNull(o).getString("description")
			if desc == "" {
				desc = o.getString("description")
			}
		}
		out = append(out, Field{
			Name:        f.name,
			Description: desc,
			Required:    required[f.name],
			Type:        f.typ,
			Index:       f.index,
			Schema:      json.RawMessage(encodeTree(ps)),
		})
	}
	return out
}

func hasIntegerHeader(tree *object, hs []Header) bool {
	for _, h := range hs {
		s := tree
		for _, name := range h.Path {
			if s = s.getObject("properties"); s == nil {
				break
			}
			if s = s.getObject(name); s == nil {
				break
			}
		}
		if s != nil && s.getString("type") == "integer" {
			return true
		}
	}
	return false
}
