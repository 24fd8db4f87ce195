package schema

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Elicitation builds the requestedSchema of a form-mode elicitation
// (elicitation/create) from the struct type t. Forms are flat: every field
// must be a string, number, integer or boolean (or a pointer to one), a
// time.Time (a date-time string), or a slice of strings restricted to enum
// values (a multi-select). Nested structs, maps, other slices and
// interfaces are errors that name the field.
//
// The schema keeps only what forms allow: title, description, default,
// minLength, maxLength, format (email, uri, date, date-time), minimum,
// maximum, enum, minItems and maxItems. Rules that forms cannot express
// (pattern, exclusive bounds, other formats, enums on numbers) are left out
// of the schema but still enforced by Bind.
//
// Enum values come from jsonschema:"enum=..." or validate:"oneof=..."
// (validate:"dive,oneof=..." for a multi-select). Display titles for the
// values go in the mcp tag, in the same order, separated by "|":
//
//	Color string `json:"color" validate:"oneof=r g b" mcp:"titles=Red|Green|Blue"`
//
// which produces {"type":"string","oneOf":[{"const":"r","title":"Red"},...]}
// (a multi-select gets "items":{"anyOf":[...]}). For clients of protocol
// 2025-06-18, which know only the older form, use enumNames instead of
// titles (single-select only): mcp:"enumNames=Red|Green|Blue" produces
// {"type":"string","enum":["r","g","b"],"enumNames":["Red","Green","Blue"]}. Defaults use
// jsonschema:"default=..." (repeat it for a multi-select); a default must be
// one of the enum values.
//
// Bind on the returned Type validates the client's accepted content and
// decodes it into the struct, as for For.
func Elicitation(t reflect.Type) (*Type, error) {
	return build(t, Options{}, true)
}

var elicitFormats = []string{"email", "uri", "date", "date-time"}

// restrictForElicitation rewrites a generated schema into the restricted
// form, or explains why the struct does not fit.
func restrictForElicitation(tree *object, root *plan) error {
	props := tree.getObject("properties")
	if props == nil {
		props = &object{}
	}
	for _, m := range tree.members {
		switch m.key {
		case "type", "properties", "required":
		default:
			if m.key == "$defs" {
				return fmt.Errorf("schema: elicitation type %s refers to itself: forms hold only flat primitive fields", root.t)
			}
		}
	}
	tree.members = slices.DeleteFunc(tree.members, func(m member) bool {
		return m.key != "type" && m.key != "properties" && m.key != "required"
	})
	if !tree.has("properties") {
		tree.set("properties", props)
	}
	for _, f := range root.fields {
		v, _ := props.get(f.name)
		ps, ok := v.(*object)
		if !ok {
			return elicitErr(root, f, "has no fixed type (it is an interface): use a string, number, integer or boolean")
		}
		out, err := elicitProperty(root, f, ps)
		if err != nil {
			return err
		}
		props.set(f.name, out)
	}
	canonicalize(tree)
	return nil
}

func elicitErr(root *plan, f *fieldPlan, why string) error {
	return fmt.Errorf("schema: elicitation type %s: field %s (json %q) %s", root.t, f.goName, f.name, why)
}

// elicitProperty is the form property for field f of the elicitation
// type root, from its schema ps, or an error saying why a form cannot hold
// it.
func elicitProperty(root *plan, f *fieldPlan, ps *object) (*object, error) {
	if ps.has("oneOf") && nonNull(ps) != ps {
		return nil, elicitErr(root, f, "is nullable: forms have no null; make it optional with omitempty instead")
	}
	if ps.has(headerKeyword) {
		return nil, elicitErr(root, f, "has x-mcp-header, which has no meaning in a form: remove it")
	}
	if f.quoted {
		return nil, elicitErr(root, f, "uses the json \"string\" option: forms send numbers as numbers; remove it")
	}
	titles, legacyNames, err := elicitTitles(root, f)
	if err != nil {
		return nil, err
	}
	e := &elicitField{root: root, f: f, ps: ps, titles: titles, legacyNames: legacyNames}
	base := f.typ
	for base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	switch p := f.plan; {
	case p.jsonType == "boolean":
		if titles != nil {
			return nil, elicitErr(root, f, "is a boolean: titles apply to enums only")
		}
		return e.keep("default"), nil
	case p.jsonType == "integer" || p.jsonType == "number":
		if titles != nil {
			return nil, elicitErr(root, f, "is a number: titled choices must be strings; use a string field")
		}
		return e.keep("minimum", "maximum", "default"), nil
	case p.jsonType == "string" && p.kind == planOpaque && base.Kind() != reflect.Slice:
		return e.singleSelect()
	case p.kind == planArray && p.elem.jsonType == "string" && p.elem.kind == planOpaque:
		return e.multiSelect()
	case p.kind == planStruct:
		return nil, elicitErr(root, f, "is a struct: forms hold only flat primitive fields; move its fields into the form struct")
	case p.kind == planMap:
		return nil, elicitErr(root, f, "is a map: forms hold only flat primitive fields")
	case p.kind == planArray:
		return nil, elicitErr(root, f, "is a list of "+p.elem.t.String()+": forms only allow lists of string enum values (multi-select)")
	}
	return nil, elicitErr(root, f, "has type "+f.typ.String()+", which a form cannot hold: use a string, number, integer or boolean")
}

// elicitField is a field of an elicitation type on its way to a form
// property: its schema ps and the titles of its choices (legacyNames: as
// enumNames).
type elicitField struct {
	root        *plan
	f           *fieldPlan
	ps          *object
	titles      []string
	legacyNames bool
}

// keep copies type, title, description and keys from the field's schema.
func (e *elicitField) keep(keys ...string) *object {
	out := &object{}
	for _, k := range append([]string{"type", "title", "description"}, keys...) {
		if v, ok := e.ps.get(k); ok {
			out.set(k, v)
		}
	}
	return out
}

// singleSelect is the property of a string field: free text in a form
// format, or a choice of its enum values (titled).
func (e *elicitField) singleSelect() (*object, error) {
	root, f, titles := e.root, e.f, e.titles
	out := e.keep("minLength", "maxLength", "default")
	if fm := e.ps.getString("format"); slices.Contains(elicitFormats, fm) {
		out.set("format", fm)
	}
	enum, hasEnum := stringEnum(e.ps)
	if !hasEnum {
		if titles != nil {
			return nil, elicitErr(root, f, "has titles but no enum values: add validate:\"oneof=...\" or jsonschema:\"enum=...\"")
		}
		return out, nil
	}
	if err := checkEnumDefault(root, f, out, enum, false); err != nil {
		return nil, err
	}
	if titles == nil {
		out.set("enum", enum)
		return out, nil
	}
	if len(titles) != len(enum) {
		return nil, elicitErr(root, f, fmt.Sprintf("has %d titles for %d enum values: give one title per value, in order", len(titles), len(enum)))
	}
	if e.legacyNames {
		names := make([]any, len(titles))
		for i, t := range titles {
			names[i] = t
		}
		out.set("enum", enum)
		out.set("enumNames", names)
		return out, nil
	}
	out.set("oneOf", titled(enum, titles))
	return out, nil
}

// multiSelect is the property of a list of strings: a choice of several of
// its items' enum values (titled).
func (e *elicitField) multiSelect() (*object, error) {
	root, f, titles := e.root, e.f, e.titles
	enum, hasEnum := stringEnum(e.ps.getObject("items"))
	if !hasEnum {
		return nil, elicitErr(root, f, "is a list without enum values: a form list is a multi-select, so add validate:\"dive,oneof=a b c\" or jsonschema:\"enum=a,enum=b\"")
	}
	out := e.keep("minItems", "maxItems", "default")
	if err := checkEnumDefault(root, f, out, enum, true); err != nil {
		return nil, err
	}
	if e.legacyNames {
		return nil, elicitErr(root, f, "uses enumNames on a multi-select: enumNames is for single-select fields; use titles=")
	}
	it := &object{}
	if titles == nil {
		it.set("type", "string")
		it.set("enum", enum)
	} else {
		if len(titles) != len(enum) {
			return nil, elicitErr(root, f, fmt.Sprintf("has %d titles for %d enum values: give one title per value, in order", len(titles), len(enum)))
		}
		it.set("anyOf", titled(enum, titles))
	}
	out.set("items", it)
	return out, nil
}

// stringEnum returns the string enum of s (or of its items).
func stringEnum(s *object) ([]any, bool) {
	if s == nil {
		return nil, false
	}
	v, ok := s.get("enum")
	if !ok {
		return nil, false
	}
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil, false
	}
	for _, e := range list {
		if _, ok := e.(string); !ok {
			return nil, false
		}
	}
	return list, true
}

func titled(enum []any, titles []string) []any {
	out := make([]any, len(enum))
	for i, e := range enum {
		out[i] = &object{members: []member{{"const", e}, {"title", titles[i]}}}
	}
	return out
}

func checkEnumDefault(root *plan, f *fieldPlan, out *object, enum []any, multi bool) error {
	d, ok := out.get("default")
	if !ok {
		return nil
	}
	in := func(v any) bool {
		for _, e := range enum {
			if e == v {
				return true
			}
		}
		return false
	}
	if multi {
		list, _ := d.([]any)
		for _, v := range list {
			if !in(v) {
				return elicitErr(root, f, fmt.Sprintf("has default %s, which is not one of the enum values", encodeTree(v)))
			}
		}
		return nil
	}
	if !in(d) {
		return elicitErr(root, f, fmt.Sprintf("has default %s, which is not one of the enum values", encodeTree(d)))
	}
	return nil
}

// elicitTitles reads mcp:"titles=A|B|C" or mcp:"enumNames=A|B|C"; legacy
// reports the latter.
func elicitTitles(root *plan, f *fieldPlan) (titles []string, legacy bool, err error) {
	sf := root.t.FieldByIndex(f.index)
	tag, ok := sf.Tag.Lookup("mcp")
	if !ok {
		return nil, false, nil
	}
	for _, opt := range splitTag(tag) {
		switch {
		case strings.HasPrefix(opt, "titles="):
			titles, legacy = strings.Split(strings.TrimPrefix(opt, "titles="), "|"), false
		case strings.HasPrefix(opt, "enumNames="):
			titles, legacy = strings.Split(strings.TrimPrefix(opt, "enumNames="), "|"), true
		case opt == "":
		default:
			return nil, false, elicitErr(root, f, fmt.Sprintf("has unknown mcp tag option %q: the mcp tag takes titles=A|B|C or enumNames=A|B|C", opt))
		}
	}
	return titles, legacy, nil
}
