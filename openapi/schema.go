package openapi

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// A converter turns OpenAPI schemas into one JSON Schema 2020-12 document:
// references are inlined, and a schema met again inside itself (a
// recursive schema) becomes a "$ref" to an entry of "$defs".
type converter struct {
	output   bool // an output schema: writeOnly properties are dropped (readOnly ones for input)
	path     []*openapi3.Schema
	defNames map[*openapi3.Schema]string
	defs     map[string]any
}

func newConverter(output bool) *converter {
	return &converter{output: output, defNames: map[*openapi3.Schema]string{}, defs: map[string]any{}}
}

// finish adds the "$defs" the conversion needed to root.
func (c *converter) finish(root map[string]any) map[string]any {
	if len(c.defs) > 0 {
		root["$defs"] = c.defs
	}
	return root
}

func (c *converter) convert(r *openapi3.SchemaRef) any {
	if r == nil || r.Value == nil {
		return map[string]any{}
	}
	s := r.Value
	if slices.Contains(c.path, s) {
		return map[string]any{"$ref": "#/$defs/" + c.def(r)}
	}
	if s.Always != nil {
		return *s.Always
	}
	c.path = append(c.path, s)
	defer func() { c.path = c.path[:len(c.path)-1] }()
	return c.object(s)
}

// def returns the name in $defs of the recursive schema r, building the
// entry the first time.
func (c *converter) def(r *openapi3.SchemaRef) string {
	s := r.Value
	if name, ok := c.defNames[s]; ok {
		return name
	}
	base := "schema"
	if i := strings.LastIndex(r.Ref, "/"); i >= 0 && i < len(r.Ref)-1 {
		base = r.Ref[i+1:]
	}
	base = sanitize(base, 48)
	name := base
	for n := 2; c.defs[name] != nil; n++ {
		name = fmt.Sprintf("%s_%d", base, n)
	}
	c.defNames[s] = name
	c.defs[name] = true // reserved while it is built
	saved := c.path
	c.path = []*openapi3.Schema{s}
	c.defs[name] = c.object(s)
	c.path = saved
	return name
}

func (c *converter) object(s *openapi3.Schema) map[string]any {
	m := map[string]any{}
	set := func(k string, v any, ok bool) {
		if ok {
			m[k] = v
		}
	}
	annotations(s, m, set)
	scalars(s, m, set)
	c.arrays(s, m, set)
	c.objects(s, m, set)
	c.composition(s, m)
	return m
}

// annotations converts type, title, description, format, enum, default,
// const, examples and the flags.
func annotations(s *openapi3.Schema, m map[string]any, set func(string, any, bool)) {
	if s.Type != nil && len(*s.Type) > 0 {
		types := slices.Clone([]string(*s.Type))
		if s.Nullable && !slices.Contains(types, "null") {
			types = append(types, "null")
		}
		if len(types) == 1 {
			m["type"] = types[0]
		} else {
			m["type"] = types
		}
	}
	set("title", s.Title, s.Title != "")
	set("description", s.Description, s.Description != "")
	switch s.Format {
	case "":
	case "binary", "byte":
		// Bytes travel in JSON as base64 text.
		m["contentEncoding"] = "base64"
	default:
		m["format"] = s.Format
	}
	if len(s.Enum) > 0 {
		enum := slices.Clone(s.Enum)
		if s.Nullable && !slices.Contains(enum, nil) {
			enum = append(enum, nil)
		}
		m["enum"] = enum
	}
	set("default", s.Default, s.Default != nil)
	set("const", s.Const, s.Const != nil)
	switch {
	case len(s.Examples) > 0:
		m["examples"] = s.Examples
	case s.Example != nil:
		m["examples"] = []any{s.Example}
	}
	set("deprecated", true, s.Deprecated)
	set("readOnly", true, s.ReadOnly)
	set("writeOnly", true, s.WriteOnly)
}

// scalars converts the number and string keywords; 3.0's boolean
// exclusive bounds become 2020-12 numbers.
func scalars(s *openapi3.Schema, m map[string]any, set func(string, any, bool)) {
	set("multipleOf", deref(s.MultipleOf), s.MultipleOf != nil)
	bound := func(incl, excl string, v *float64, e openapi3.ExclusiveBound) {
		switch {
		case e.Value != nil:
			m[excl] = *e.Value
			set(incl, deref(v), v != nil)
		case e.IsTrue() && v != nil:
			m[excl] = *v
		default:
			set(incl, deref(v), v != nil)
		}
	}
	bound("minimum", "exclusiveMinimum", s.Min, s.ExclusiveMin)
	bound("maximum", "exclusiveMaximum", s.Max, s.ExclusiveMax)
	set("minLength", s.MinLength, s.MinLength > 0)
	set("maxLength", derefU(s.MaxLength), s.MaxLength != nil)
	if s.Pattern != "" {
		// The validator uses Go's regexp; a pattern it cannot compile
		// (ECMA-only lookaround) is left out rather than failing the tool.
		if _, err := regexp.Compile(s.Pattern); err == nil {
			m["pattern"] = s.Pattern
		}
	}
	set("contentMediaType", s.ContentMediaType, s.ContentMediaType != "")
	set("contentEncoding", s.ContentEncoding, s.ContentEncoding != "")
}

// arrays converts the array keywords.
func (c *converter) arrays(s *openapi3.Schema, m map[string]any, set func(string, any, bool)) {
	if s.Items != nil {
		m["items"] = c.convert(s.Items)
	}
	if len(s.PrefixItems) > 0 {
		m["prefixItems"] = c.list(s.PrefixItems)
	}
	if s.Contains != nil {
		m["contains"] = c.convert(s.Contains)
	}
	set("minItems", s.MinItems, s.MinItems > 0)
	set("maxItems", derefU(s.MaxItems), s.MaxItems != nil)
	set("uniqueItems", true, s.UniqueItems)
	set("minContains", derefU(s.MinContains), s.MinContains != nil)
	set("maxContains", derefU(s.MaxContains), s.MaxContains != nil)
	if b := s.UnevaluatedItems; b.Has != nil {
		m["unevaluatedItems"] = *b.Has
	} else if b.Schema != nil {
		m["unevaluatedItems"] = c.convert(b.Schema)
	}
}

// objects converts the object keywords, leaving out the properties that
// do not travel in this direction (readOnly in inputs, writeOnly in
// outputs).
func (c *converter) objects(s *openapi3.Schema, m map[string]any, set func(string, any, bool)) {
	if len(s.Properties) > 0 {
		props := map[string]any{}
		var dropped []string
		for name, p := range s.Properties {
			if p != nil && p.Value != nil && (c.output && p.Value.WriteOnly || !c.output && p.Value.ReadOnly) {
				dropped = append(dropped, name)
				continue
			}
			props[name] = c.convert(p)
		}
		m["properties"] = props
		req := slices.DeleteFunc(slices.Clone(s.Required), func(n string) bool { return slices.Contains(dropped, n) })
		set("required", req, len(req) > 0)
	} else if len(s.Required) > 0 {
		m["required"] = slices.Clone(s.Required)
	}
	switch ap := s.AdditionalProperties; {
	case ap.Has != nil:
		m["additionalProperties"] = *ap.Has
	case ap.Schema != nil:
		m["additionalProperties"] = c.convert(ap.Schema)
	}
	if b := s.UnevaluatedProperties; b.Has != nil {
		m["unevaluatedProperties"] = *b.Has
	} else if b.Schema != nil {
		m["unevaluatedProperties"] = c.convert(b.Schema)
	}
	set("minProperties", s.MinProps, s.MinProps > 0)
	set("maxProperties", derefU(s.MaxProps), s.MaxProps != nil)
	if len(s.PatternProperties) > 0 {
		m["patternProperties"] = c.schemas(s.PatternProperties)
	}
	if s.PropertyNames != nil {
		m["propertyNames"] = c.convert(s.PropertyNames)
	}
	if len(s.DependentRequired) > 0 {
		m["dependentRequired"] = s.DependentRequired
	}
	if len(s.DependentSchemas) > 0 {
		m["dependentSchemas"] = c.schemas(s.DependentSchemas)
	}
}

// composition converts oneOf, anyOf, not, if/then/else, and allOf, merged
// into m where it can be.
func (c *converter) composition(s *openapi3.Schema, m map[string]any) {
	if len(s.OneOf) > 0 {
		m["oneOf"] = c.list(s.OneOf)
	}
	if len(s.AnyOf) > 0 {
		m["anyOf"] = c.list(s.AnyOf)
	}
	if s.Not != nil {
		m["not"] = c.convert(s.Not)
	}
	for k, v := range map[string]*openapi3.SchemaRef{"if": s.If, "then": s.Then, "else": s.Else} {
		if v != nil {
			m[k] = c.convert(v)
		}
	}
	if len(s.AllOf) > 0 {
		parts := c.list(s.AllOf)
		if !mergeAllOf(m, parts) {
			m["allOf"] = parts
		}
	}
}

func (c *converter) schemas(in openapi3.Schemas) map[string]any {
	out := make(map[string]any, len(in))
	for k, v := range in {
		out[k] = c.convert(v)
	}
	return out
}

func (c *converter) list(rs openapi3.SchemaRefs) []any {
	out := make([]any, len(rs))
	for i, r := range rs {
		out[i] = c.convert(r)
	}
	return out
}

// mergeAllOf folds the allOf members parts into m when every member is a
// plain schema whose keywords do not conflict with m's or each other's:
// properties and required are unioned, other keywords must agree. It
// reports whether it merged; m is unchanged when it did not.
func mergeAllOf(m map[string]any, parts []any) bool {
	out := maps.Clone(m)
	for _, p := range parts {
		pm, ok := p.(map[string]any)
		if !ok {
			if p == true {
				continue
			}
			return false
		}
		for k, v := range pm {
			switch k {
			case "$ref", "allOf", "$defs":
				return false
			case "properties":
				props, _ := out["properties"].(map[string]any)
				props = maps.Clone(props)
				if props == nil {
					props = map[string]any{}
				}
				for name, ps := range v.(map[string]any) {
					if old, ok := props[name]; ok && !equalJSON(old, ps) {
						return false
					}
					props[name] = ps
				}
				out["properties"] = props
			case "required":
				req, _ := out["required"].([]string)
				req = slices.Clone(req)
				for _, n := range v.([]string) {
					if !slices.Contains(req, n) {
						req = append(req, n)
					}
				}
				out["required"] = req
			case "description", "title", "examples":
				if _, ok := out[k]; !ok {
					out[k] = v
				}
			default:
				if old, ok := out[k]; ok && !equalJSON(old, v) {
					return false
				}
				out[k] = v
			}
		}
	}
	clear(m)
	maps.Copy(m, out)
	return true
}

func equalJSON(a, b any) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func derefU(p *uint64) any {
	if p == nil {
		return nil
	}
	return *p
}

// isObjectSchema reports whether a converted schema describes only JSON
// objects, so that its properties can stand at the top level.
func isObjectSchema(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for _, k := range []string{"$ref", "oneOf", "anyOf", "not", "if", "allOf", "enum", "const"} {
		if _, ok := m[k]; ok {
			return false
		}
	}
	return m["type"] == "object" || m["type"] == nil && m["properties"] != nil
}
