package schema

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// This file turns the plans of the one walk of a Go type (analyze.go) into
// the schema tree that invopop/jsonschema's Reflector makes of the type:
// its shapes for Go types and its jsonschema, jsonschema_description and
// jsonschema_extras tag syntax. The type is not walked again: everything
// comes from the plans and the struct tags they kept, so the published
// schema, the decoder and Bind's checks share one description of the type.
// generate then adds what the Reflector does not know (required, defaults,
// strictness, validate rules, the decoder's ranges).

// describer makes the tree. With names (KeepRefs, recursive types), the
// types the Reflector would define (named structs, slices, arrays, maps,
// and types with a JSONSchema method) are described once in defs and
// referenced with "$ref".
type describer struct {
	root  reflect.Type // for messages
	names map[reflect.Type]string
	defs  map[string]*object
	err   error
	// extended reports that some type's JSONSchemaExtend method changed
	// the schema.
	extended bool
}

var (
	uint8Type     = reflect.TypeFor[uint8]()
	protoEnumType = reflect.TypeFor[interface{ EnumDescriptor() ([]byte, []int) }]()
)

func (d *describer) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("schema: type %s: "+format, append([]any{d.root}, args...)...)
	}
}

// describe returns the tree of the value of plan p: a *object, or a bool
// for a JSONSchema method that returns one. Objects left empty are turned
// into true by trueForEmpty once the whole tree is made, as the Reflector's
// encoding writes them.
func (d *describer) describe(p *plan) any {
	t := p.t
	sh := p.shape
	switch sh {
	case shapeText:
		return &object{members: []member{{"type", "string"}}}
	case shapeRaw:
		return &object{}
	}
	if !d.defined(p, sh) {
		return d.build(p, sh, &object{})
	}
	name := d.names[t]
	if _, ok := d.defs[name]; !ok {
		def := &object{}
		d.defs[name] = def // before building: the type may contain itself
		if v := d.build(p, sh, def); v != any(def) {
			d.defs[name] = nil
			d.fail("%s: its JSONSchema method returns a boolean schema, which cannot be referenced: return an object schema", t)
		}
	}
	return &object{members: []member{{"$ref", defsPrefix + name}}}
}

// defined reports whether the value of plan p is described in $defs.
func (d *describer) defined(p *plan, sh shape) bool {
	if d.names == nil || d.names[p.t] == "" {
		return false
	}
	switch {
	case sh == shapeCustom:
		return true
	case sh != shapeNormal:
		return false
	}
	switch p.t.Kind() {
	case reflect.Struct, reflect.Slice, reflect.Array, reflect.Map:
		return true
	}
	return false
}

// build describes the value of plan p into s.
func (d *describer) build(p *plan, sh shape, s *object) any {
	t := p.t
	switch {
	case sh == shapeCustom:
		v, err := custom(t)
		if err != nil {
			d.fail("%s: its JSONSchema method: %v: fix the method", t, err)
			return s
		}
		if o, ok := v.(*object); ok {
			s.members = o.members
			return s
		}
		return v
	case sh == shapeTime:
		s.members = append(s.members, member{"type", "string"}, member{"format", "date-time"})
		return s
	case t.NumMethod() > 0 && t.Implements(protoEnumType):
		s.set("oneOf", []any{
			&object{members: []member{{"type", "string"}}},
			&object{members: []member{{"type", "integer"}}},
		})
		return s
	}
	switch t.Kind() {
	case reflect.Struct:
		s.set("type", "object")
		props := &object{members: make([]member, 0, len(p.fields))}
		s.set("properties", props)
		for _, f := range p.fields {
			props.members = append(props.members, member{f.name, d.field(f, s)})
		}
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Array {
			n := number(strconv.Itoa(t.Len()))
			s.members = append(s.members, member{"minItems", n}, member{"maxItems", n})
		}
		switch {
		case t.Kind() == reflect.Slice && t.Elem() == uint8Type:
			s.members = append(s.members, member{"type", "string"}, member{"contentEncoding", "base64"})
		case p.elem == nil: // a slice of a named byte type: the decoder's base64, the Reflector's array
			s.members = append(s.members, member{"type", "array"}, member{"items", &object{members: []member{{"type", "integer"}}}})
		default:
			s.members = append(s.members, member{"type", "array"}, member{"items", d.describe(p.elem)})
		}
	case reflect.Map:
		s.set("type", "object")
		switch t.Key().Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			s.set("patternProperties", &object{members: []member{{"^[0-9]+$", d.describe(p.elem)}}})
			s.set("additionalProperties", false)
		default:
			if t.Elem().Kind() != reflect.Interface {
				s.set("additionalProperties", d.describe(p.elem))
			}
		}
	case reflect.Interface:
	case reflect.Bool:
		s.set("type", "boolean")
	case reflect.String:
		s.set("type", "string")
	case reflect.Float32, reflect.Float64:
		s.set("type", "number")
	default: // the integers: analyze refuses every other kind
		s.set("type", "integer")
	}
	if t.Implements(extendHookType) {
		d.extend(t, s)
	}
	return s
}

var extendHookType = reflect.TypeFor[interface{ JSONSchemaExtend(*jsonschema.Schema) }]()

// extend lets t's JSONSchemaExtend method change s, the schema of t, as
// invopop's Reflector does: once the type is described and before its
// fields' tags apply. The method takes invopop's Schema, so s goes through
// that type and back; a schema with keywords invopop's Schema does not keep
// (jsonschema_extras on nested fields) is refused rather than cut.
func (d *describer) extend(t reflect.Type, s *object) {
	b := encodeTree(s)
	var js jsonschema.Schema
	if err := json.Unmarshal(b, &js); err != nil {
		d.fail("%s: its schema does not read as invopop's Schema for JSONSchemaExtend: %v", t, err)
		return
	}
	if kept, err := json.Marshal(&js); err != nil || !sameJSON(b, kept) {
		d.fail("%s: its JSONSchemaExtend method would lose keywords invopop's Schema does not keep (jsonschema_extras on its fields): set them in the method instead", t)
		return
	}
	if err := callExtend(t, &js); err != nil {
		d.fail("%s: its JSONSchemaExtend method %v: fix the method", t, err)
		return
	}
	out, err := json.Marshal(&js)
	if err == nil {
		var v any
		if v, err = parseTree(out); err == nil {
			o, ok := v.(*object)
			if !ok {
				d.fail("%s: its JSONSchemaExtend method left an empty schema: describe the type with a JSONSchema() *jsonschema.Schema method instead", t)
				return
			}
			s.members = o.members
			d.extended = true
			return
		}
	}
	d.fail("%s: the schema its JSONSchemaExtend method made does not encode: %v", t, err)
}

// callExtend calls t's JSONSchemaExtend method on js, turning a panic into
// an error.
func callExtend(t reflect.Type, js *jsonschema.Schema) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panicked: %v", r)
		}
	}()
	reflect.New(t).Interface().(interface{ JSONSchemaExtend(*jsonschema.Schema) }).JSONSchemaExtend(js)
	return nil
}

// sameJSON reports whether a and b hold the same JSON value.
func sameJSON(a, b []byte) bool {
	var va, vb any
	return json.Unmarshal(a, &va) == nil && json.Unmarshal(b, &vb) == nil && reflect.DeepEqual(va, vb)
}

// custom returns the tree of the schema t's JSONSchema method returns.
func custom(t reflect.Type) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panicked: %v", r)
		}
	}()
	cs := reflect.New(t).Interface().(interface{ JSONSchema() *jsonschema.Schema }).JSONSchema()
	if cs == nil {
		return nil, fmt.Errorf("returned nil")
	}
	b, err := json.Marshal(cs) // invopop's Schema encodes with encoding/json
	if err != nil {
		return nil, err
	}
	return parseTree(b)
}

// field describes the struct field f, with the keywords of its tags;
// parent is the schema of the struct (oneof_required and anyof_required
// write there).
func (d *describer) field(f *fieldPlan, parent *object) any {
	v := d.describe(f.plan)
	s, ok := v.(*object)
	if !ok {
		return v // a boolean schema takes no keywords
	}
	s.del("description")
	if desc := f.tag.Get("jsonschema_description"); desc != "" {
		s.set("description", desc)
	}
	var rest []string // the parts left for the keywords of the type
	for _, part := range f.stags {
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		switch key {
		case "title", "description", "type":
			setString(s, key, val)
		case "anchor":
			setString(s, "$anchor", val)
		case "oneof_required", "anyof_required":
			groupRequired(parent, listKeyword(key), val, f.name)
		case "oneof_ref", "anyof_ref":
			sub := s
			if items := s.getObject("items"); items != nil {
				sub = items
			}
			sub.del("$ref")
			kw := listKeyword(key)
			for _, r := range strings.Split(val, ";") {
				appendSchema(sub, kw, refOrEmpty(r))
			}
		case "oneof_type", "anyof_type":
			kw := listKeyword(key)
			s.del("type")
			for _, ty := range strings.Split(val, ";") {
				one := &object{}
				setString(one, "type", ty)
				appendSchema(s, kw, one)
			}
		default:
			rest = append(rest, part)
		}
	}
	typ := s.getString("type")
	if f.quoted && (typ == "integer" || typ == "number" || typ == "boolean") {
		typ = "string"
		s.set("type", typ)
	}
	switch typ {
	case "string":
		d.stringKeywords(f, s, rest)
	case "number", "integer":
		d.numberKeywords(f, s, rest)
	case "array":
		d.arrayKeywords(f, s, rest)
	}
	d.extras(f, s)
	if f.nullable {
		return &object{members: []member{{"oneOf", []any{s, &object{members: []member{{"type", "null"}}}}}}}
	}
	return s
}

// setString sets a string keyword, or removes it for "" (the Reflector
// leaves empty strings out).
func setString(s *object, key, val string) {
	if val == "" {
		s.del(key)
		return
	}
	s.set(key, val)
}

func refOrEmpty(ref string) *object {
	o := &object{}
	setString(o, "$ref", ref)
	return o
}

// appendSchema appends sub to the list keyword kw of s.
func appendSchema(s *object, kw string, sub any) {
	list, _ := s.get(kw)
	l, _ := list.([]any)
	s.set(kw, append(l, sub))
}

// listKeyword is the keyword a oneof_ or anyof_ tag key writes.
func listKeyword(key string) string {
	if strings.HasPrefix(key, "oneof_") {
		return "oneOf"
	}
	return "anyOf"
}

// groupRequired adds name to the required list of the entry titled title
// of parent's list keyword kw.
func groupRequired(parent *object, kw, title, name string) {
	list, _ := parent.get(kw)
	l, _ := list.([]any)
	for _, e := range l {
		if o, ok := e.(*object); ok && o.getString("title") == title {
			req, _ := o.get("required")
			r, _ := req.([]any)
			o.set("required", append(r, name))
			return
		}
	}
	g := &object{}
	setString(g, "title", title)
	g.set("required", []any{name})
	parent.set(kw, append(l, g))
}

// stringKeywords reads the string keywords of a field's jsonschema tag.
// default= is left out: generate writes the default from the field's plan.
func (d *describer) stringKeywords(f *fieldPlan, s *object, parts []string) {
	for _, part := range parts {
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		switch key {
		case "minLength", "maxLength":
			setCount(s, key, val)
		case "pattern", "format":
			setString(s, key, val)
		case "readOnly", "writeOnly":
			if b, _ := strconv.ParseBool(val); b {
				s.set(key, true)
			} else {
				s.del(key)
			}
		case "example":
			appendValue(s, "examples", val)
		case "enum":
			appendValue(s, "enum", val)
		}
	}
}

// numberKeywords reads the numeric keywords of a field's jsonschema tag.
// A part with a second "=" is ignored, and an unreadable number leaves the
// keyword out, as the Reflector does; a number Go reads but JSON does not
// (+1, Inf) is an error.
func (d *describer) numberKeywords(f *fieldPlan, s *object, parts []string) {
	for _, part := range parts {
		key, val, ok := strings.Cut(part, "=")
		if !ok || strings.Contains(val, "=") {
			continue
		}
		switch key {
		case "multipleOf", "minimum", "maximum", "exclusiveMaximum", "exclusiveMinimum":
			n, ok := d.tagNumber(f, key, val)
			if !ok {
				s.del(key)
				continue
			}
			s.set(key, n)
		case "example", "enum":
			if n, ok := d.tagNumber(f, key, val); ok {
				appendValue(s, map[string]string{"example": "examples", "enum": "enum"}[key], n)
			}
		}
	}
}

// tagNumber reads a number of a jsonschema tag as the Reflector does.
func (d *describer) tagNumber(f *fieldPlan, key, val string) (number, bool) {
	_, errInt := strconv.ParseInt(val, 10, 64)
	_, errFloat := strconv.ParseFloat(val, 64)
	if errInt != nil && errFloat != nil {
		return "", false
	}
	if !isJSONNumber(val) {
		d.fail("field %s: jsonschema tag %s=%s is not a JSON number: write it as JSON writes numbers", f.goName, key, val)
		return "", false
	}
	return number(val), true
}

// arrayKeywords reads the array keywords of a field's jsonschema tag; the
// others apply to the items.
func (d *describer) arrayKeywords(f *fieldPlan, s *object, parts []string) {
	items := s.getObject("items")
	var rest []string
	for _, part := range parts {
		key, val, ok := strings.Cut(part, "=")
		if !ok || strings.Contains(val, "=") {
			continue
		}
		switch key {
		case "minItems", "maxItems":
			setCount(s, key, val)
		case "uniqueItems":
			s.set(key, true)
		case "default":
		case "format", "pattern":
			if items == nil {
				d.fail("field %s: jsonschema tag %s applies to the items of an array, and this one has none: remove it", f.goName, part)
				return
			}
			setString(items, key, val)
		default:
			rest = append(rest, part)
		}
	}
	if len(rest) == 0 {
		return
	}
	if items == nil {
		d.fail("field %s: jsonschema tags %s apply to the items of an array, and this one has none: remove them", f.goName, strings.Join(rest, ","))
		return
	}
	switch items.getString("type") {
	case "string":
		d.stringKeywords(f, items, rest)
	case "number", "integer":
		d.numberKeywords(f, items, rest)
	}
}

// setCount sets a count keyword, or removes it when val is not one.
func setCount(s *object, key, val string) {
	n, err := strconv.ParseUint(val, 10, 64)
	if err != nil {
		s.del(key)
		return
	}
	s.set(key, number(strconv.FormatUint(n, 10)))
}

func appendValue(s *object, kw string, v any) {
	list, _ := s.get(kw)
	l, _ := list.([]any)
	s.set(kw, append(l, v))
}

// extras copies the k=v pairs of the field's jsonschema_extras tag into s:
// true and false become booleans, a repeated key a list of strings.
func (d *describer) extras(f *fieldPlan, s *object) {
	tag := f.tag.Get("jsonschema_extras")
	if tag == "" {
		return
	}
	var ex object
	for _, part := range splitTag(tag) {
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		old, seen := ex.get(key)
		switch {
		case !seen && key == "minimum":
			n, _ := strconv.Atoi(val)
			ex.set(key, number(strconv.Itoa(n)))
		case !seen && (val == "true" || val == "false"):
			ex.set(key, val == "true")
		case !seen:
			ex.set(key, val)
		default:
			switch old := old.(type) {
			case string:
				ex.set(key, []any{old, val})
			case []any:
				ex.set(key, append(old, val))
			case number:
				n, _ := strconv.Atoi(val)
				ex.set(key, number(strconv.Itoa(n)))
			case bool:
				ex.set(key, val == "true" || val == "t")
			}
		}
	}
	for _, m := range ex.members {
		if s.has(m.key) {
			d.fail("field %s: jsonschema_extras key %q repeats a keyword of the schema: remove one", f.goName, m.key)
			return
		}
		s.members = append(s.members, m)
	}
}

// trueForEmpty replaces every empty subschema below s by true, as the
// Reflector's encoding writes an empty schema.
func trueForEmpty(s *object) {
	sub := func(v any) any {
		o, ok := v.(*object)
		if !ok {
			return v
		}
		if len(o.members) == 0 {
			return true
		}
		trueForEmpty(o)
		return o
	}
	for i := range s.members {
		m := &s.members[i]
		switch keywordKind(m.key) {
		case subschemaMap:
			if obj, ok := m.val.(*object); ok {
				for j := range obj.members {
					obj.members[j].val = sub(obj.members[j].val)
				}
			}
		case subschemaList:
			if arr, ok := m.val.([]any); ok {
				for j := range arr {
					arr[j] = sub(arr[j])
				}
			}
		case subschemaValue:
			m.val = sub(m.val)
		}
	}
}
