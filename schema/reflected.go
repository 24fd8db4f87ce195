package schema

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/invopop/jsonschema"
)

// reflectedTree converts a schema reflected by invopop/jsonschema straight
// into a tree: the tree that parsing its encoding/json encoding gives, but
// without encoding and parsing it (which was most of the cost of
// generating a schema). It handles the shapes reflection produces for
// ordinary types and reports false for anything unusual (a map-valued
// keyword it does not expect, an invalid number, a string that is not
// valid UTF-8, an extra keyword that repeats a field, an empty ordered
// map), for which the caller encodes and parses instead, so the result and
// any error stay exactly what they were. Encoding and parsing instead
// made registering the 100 tools of the startup benchmark take about
// 3 ms more (7.3 ms against 4.2 ms in process, medians of 5 interleaved
// runs), more than 10% of a process's start to its first tools/list answer
// (about 19 ms), so this conversion stays.
func reflectedTree(s *jsonschema.Schema) (any, bool) {
	c := treeConverter{}
	v := c.schema(s)
	return v, !c.failed
}

type treeConverter struct {
	failed bool
}

// isEmptySchema reports what reflect.DeepEqual(&jsonschema.Schema{}, s)
// reports, without reflection: every field is its zero value (nil, not
// merely empty, for slices, maps and pointers).
func isEmptySchema(s *jsonschema.Schema) bool {
	return s.Version == "" && s.ID == "" && s.Anchor == "" && s.Ref == "" && s.DynamicRef == "" &&
		s.Definitions == nil && s.Comments == "" && s.AllOf == nil && s.AnyOf == nil && s.OneOf == nil &&
		s.Not == nil && s.If == nil && s.Then == nil && s.Else == nil && s.DependentSchemas == nil &&
		s.PrefixItems == nil && s.Items == nil && s.Contains == nil && s.Properties == nil &&
		s.PatternProperties == nil && s.AdditionalProperties == nil && s.PropertyNames == nil &&
		s.Type == "" && s.Enum == nil && s.Const == nil && s.MultipleOf == "" && s.Maximum == "" &&
		s.ExclusiveMaximum == "" && s.Minimum == "" && s.ExclusiveMinimum == "" && s.MaxLength == nil &&
		s.MinLength == nil && s.Pattern == "" && s.MaxItems == nil && s.MinItems == nil && !s.UniqueItems &&
		s.MaxContains == nil && s.MinContains == nil && s.MaxProperties == nil && s.MinProperties == nil &&
		s.Required == nil && s.DependentRequired == nil && s.Format == "" && s.ContentEncoding == "" &&
		s.ContentMediaType == "" && s.ContentSchema == nil && s.Title == "" && s.Description == "" &&
		s.Default == nil && !s.Deprecated && !s.ReadOnly && !s.WriteOnly && s.Examples == nil && s.Extras == nil &&
		s != jsonschema.TrueSchema && s != jsonschema.FalseSchema
}

// schema mirrors (*jsonschema.Schema).MarshalJSON.
func (c *treeConverter) schema(s *jsonschema.Schema) any {
	if c.failed {
		return nil
	}
	if s == nil {
		return nil // encoding/json writes a nil *Schema in a list as null
	}
	if s == jsonschema.TrueSchema {
		return true
	}
	if s == jsonschema.FalseSchema {
		return false
	}
	if isEmptySchema(s) {
		return true // invopop writes an empty schema as true
	}
	if len(s.DependentSchemas) > 0 || len(s.PatternProperties) > 0 || len(s.DependentRequired) > 0 ||
		s.Anchor != "" || s.DynamicRef != "" {
		c.failed = true // not produced for ordinary types; left to encoding/json
		return nil
	}
	// One allocation for the object and room for the usual few keywords.
	ob := &struct {
		object
		room [6]member
	}{}
	ob.members = ob.room[:0]
	o := &ob.object
	c.str(o, "$schema", s.Version)
	c.str(o, "$id", string(s.ID))
	c.str(o, "$ref", s.Ref)
	if len(s.Definitions) > 0 {
		defs := &object{}
		names := make([]string, 0, len(s.Definitions))
		for k := range s.Definitions {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			c.checkString(k)
			defs.members = append(defs.members, member{k, c.schema(s.Definitions[k])})
		}
		o.members = append(o.members, member{"$defs", defs})
	}
	c.str(o, "$comment", s.Comments)
	c.list(o, "allOf", s.AllOf)
	c.list(o, "anyOf", s.AnyOf)
	c.list(o, "oneOf", s.OneOf)
	c.sub(o, "not", s.Not)
	c.sub(o, "if", s.If)
	c.sub(o, "then", s.Then)
	c.sub(o, "else", s.Else)
	c.list(o, "prefixItems", s.PrefixItems)
	c.sub(o, "items", s.Items)
	c.sub(o, "contains", s.Contains)
	if s.Properties != nil {
		if s.Properties.Len() == 0 {
			c.failed = true // {} or null, depending on how the map was made
			return nil
		}
		props := &object{members: make([]member, 0, s.Properties.Len())}
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			c.checkString(p.Key)
			props.members = append(props.members, member{p.Key, c.schema(p.Value)})
		}
		o.members = append(o.members, member{"properties", props})
	}
	c.sub(o, "additionalProperties", s.AdditionalProperties)
	c.sub(o, "propertyNames", s.PropertyNames)
	c.str(o, "type", s.Type)
	if len(s.Enum) > 0 {
		o.members = append(o.members, member{"enum", c.value(s.Enum)})
	}
	if s.Const != nil {
		o.members = append(o.members, member{"const", c.value(s.Const)})
	}
	c.num(o, "multipleOf", s.MultipleOf)
	c.num(o, "maximum", s.Maximum)
	c.num(o, "exclusiveMaximum", s.ExclusiveMaximum)
	c.num(o, "minimum", s.Minimum)
	c.num(o, "exclusiveMinimum", s.ExclusiveMinimum)
	c.uint(o, "maxLength", s.MaxLength)
	c.uint(o, "minLength", s.MinLength)
	c.str(o, "pattern", s.Pattern)
	c.uint(o, "maxItems", s.MaxItems)
	c.uint(o, "minItems", s.MinItems)
	c.flag(o, "uniqueItems", s.UniqueItems)
	c.uint(o, "maxContains", s.MaxContains)
	c.uint(o, "minContains", s.MinContains)
	c.uint(o, "maxProperties", s.MaxProperties)
	c.uint(o, "minProperties", s.MinProperties)
	if len(s.Required) > 0 {
		req := make([]any, len(s.Required))
		for i, r := range s.Required {
			c.checkString(r)
			req[i] = r
		}
		o.members = append(o.members, member{"required", req})
	}
	c.str(o, "format", s.Format)
	c.str(o, "contentEncoding", s.ContentEncoding)
	c.str(o, "contentMediaType", s.ContentMediaType)
	c.sub(o, "contentSchema", s.ContentSchema)
	c.str(o, "title", s.Title)
	c.str(o, "description", s.Description)
	if s.Default != nil {
		o.members = append(o.members, member{"default", c.value(s.Default)})
	}
	c.flag(o, "deprecated", s.Deprecated)
	c.flag(o, "readOnly", s.ReadOnly)
	c.flag(o, "writeOnly", s.WriteOnly)
	if len(s.Examples) > 0 {
		o.members = append(o.members, member{"examples", c.value(s.Examples)})
	}
	if len(s.Extras) > 0 {
		keys := make([]string, 0, len(s.Extras))
		for k := range s.Extras {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			c.checkString(k)
			if o.has(k) {
				c.failed = true // a repeated name: parsing reports it
				return nil
			}
			o.members = append(o.members, member{k, c.value(s.Extras[k])})
		}
	}
	return o
}

func (c *treeConverter) checkString(s string) {
	if !utf8.ValidString(s) {
		c.failed = true // encoding/json replaces invalid bytes
	}
}

func (c *treeConverter) str(o *object, key, val string) {
	if val != "" {
		c.checkString(val)
		o.members = append(o.members, member{key, boxString(val)})
	}
}

// boxString returns s as an any, without allocating for the names of the
// JSON types, which every schema repeats.
func boxString(s string) any {
	switch s {
	case "string":
		return "string"
	case "integer":
		return "integer"
	case "number":
		return "number"
	case "boolean":
		return "boolean"
	case "object":
		return "object"
	case "array":
		return "array"
	case "null":
		return "null"
	}
	return s
}

func (c *treeConverter) flag(o *object, key string, val bool) {
	if val {
		o.members = append(o.members, member{key, true})
	}
}

func (c *treeConverter) num(o *object, key string, n json.Number) {
	if n == "" {
		return
	}
	if !validNumber(n) {
		c.failed = true // encoding/json rejects it: let it say so
		return
	}
	o.members = append(o.members, member{key, number(n)})
}

// validNumber reports whether encoding/json accepts n (not empty) as a
// number: whether it is a number in JSON's syntax.
func validNumber(n json.Number) bool {
	first, last := n[0], n[len(n)-1]
	return (first == '-' || first >= '0' && first <= '9') && last >= '0' && last <= '9' && jsontext.Value(n).IsValid()
}

func (c *treeConverter) uint(o *object, key string, n *uint64) {
	if n != nil {
		o.members = append(o.members, member{key, number(strconv.FormatUint(*n, 10))})
	}
}

func (c *treeConverter) sub(o *object, key string, s *jsonschema.Schema) {
	if s != nil {
		o.members = append(o.members, member{key, c.schema(s)})
	}
}

func (c *treeConverter) list(o *object, key string, list []*jsonschema.Schema) {
	if len(list) == 0 {
		return
	}
	arr := make([]any, len(list))
	for i, s := range list {
		arr[i] = c.schema(s)
	}
	o.members = append(o.members, member{key, arr})
}

// value converts an arbitrary value (an enum, a default, an extra
// keyword's value) the way encoding/json encodes it.
func (c *treeConverter) value(v any) any {
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		c.checkString(v)
		return v
	case bool:
		return v
	case []any:
		if v == nil {
			return nil
		}
		arr := make([]any, len(v))
		for i, e := range v {
			arr[i] = c.value(e)
		}
		return arr
	case json.Number: // what invopop makes of a numeric field's default=, enum= or example=
		if v == "" {
			return number("0") // as encoding/json writes it
		}
		if validNumber(v) {
			return number(v)
		}
	case int:
		return number(strconv.Itoa(v))
	case float64: // ... and of a number one
		if n, ok := floatNumber(v); ok {
			return n
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		c.failed = true
		return nil
	}
	t, err := parseTree(b)
	if err != nil {
		c.failed = true
		return nil
	}
	return t
}

// floatNumber formats f as encoding/json does, or reports false for the
// values it refuses (NaN and infinities).
func floatNumber(f float64) (number, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", false
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(nil, f, format, -1, 64)
	if format == 'e' {
		// e-09 becomes e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return number(b), true
}
