package schema

import (
	"regexp"
	"strings"
)

// Compiling a schema (checking it against the draft 2020-12 metaschema and
// preparing the validator) is the dearest step of For, and most types never
// need the compiled schema: Bind uses it only for jsonschema-tag
// constraints it does not check itself and to explain a failed decoding.
// So For compiles at once only when the compilation could fail, and
// otherwise on first use. compileCannotFail is that decision: it accepts
// only schemas whose every keyword is one it knows, with a value of the
// type the metaschema requires, regular expressions that compile with the
// engine the validator uses, and references to definitions that exist.
// Anything else is compiled at once, so an error still surfaces at
// registration, with the same message. Compiling costs about 230 µs a
// schema: registering the 100 tools of the startup benchmark took about
// 30 ms with every schema compiled at once and 6.5 ms with this check
// (medians of 4 interleaved runs), so it is the one way For decides when
// to compile.

// compileCannotFail reports whether compiling the schema tree root is sure
// to succeed.
func compileCannotFail(root any) bool {
	obj, ok := root.(*object)
	if !ok {
		return false
	}
	var defs *object
	if d, ok := obj.get("$defs"); ok {
		if defs, ok = d.(*object); !ok {
			return false
		}
	}
	return schemaSafe(root, defs, 0)
}

// schemaSafe checks one schema (an object or a boolean).
func schemaSafe(v any, defs *object, depth int) bool {
	if _, ok := v.(bool); ok {
		return true
	}
	s, ok := v.(*object)
	if !ok || depth > 64 {
		return false
	}
	for _, m := range s.members {
		if !keywordSafe(m.key, m.val, defs, depth) {
			return false
		}
	}
	return true
}

var simpleTypes = map[string]bool{
	"null": true, "boolean": true, "object": true, "array": true,
	"number": true, "integer": true, "string": true,
}

func keywordSafe(key string, val any, defs *object, depth int) bool {
	switch key {
	case "type":
		switch t := val.(type) {
		case string:
			return simpleTypes[t]
		case []any:
			if len(t) == 0 {
				return false
			}
			seen := map[string]bool{}
			for _, e := range t {
				s, ok := e.(string)
				if !ok || !simpleTypes[s] || seen[s] {
					return false
				}
				seen[s] = true
			}
			return true
		}
		return false
	case "properties", "$defs", "dependentSchemas":
		m, ok := val.(*object)
		if !ok {
			return false
		}
		for _, p := range m.members {
			if !schemaSafe(p.val, defs, depth+1) {
				return false
			}
		}
		return true
	case "items", "additionalProperties", "propertyNames", "contains", "not",
		"if", "then", "else", "unevaluatedItems", "unevaluatedProperties":
		return schemaSafe(val, defs, depth+1)
	case "anyOf", "oneOf", "allOf", "prefixItems":
		list, ok := val.([]any)
		if !ok || len(list) == 0 {
			return false
		}
		for _, e := range list {
			if !schemaSafe(e, defs, depth+1) {
				return false
			}
		}
		return true
	case "required":
		list, ok := val.([]any)
		if !ok {
			return false
		}
		seen := map[string]bool{}
		for _, e := range list {
			s, ok := e.(string)
			if !ok || seen[s] {
				return false
			}
			seen[s] = true
		}
		return true
	case "enum", "examples":
		_, ok := val.([]any)
		return ok
	case "const", "default":
		return true
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		_, ok := val.(number)
		return ok
	case "multipleOf":
		n, ok := val.(number)
		if !ok {
			return false
		}
		r, ok := parseRat(n)
		return ok && r.Sign() > 0
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties",
		"minContains", "maxContains":
		n, ok := val.(number)
		if !ok {
			return false
		}
		r, ok := parseRat(n)
		return ok && r.IsInt() && r.Sign() >= 0
	case "uniqueItems", "deprecated", "readOnly", "writeOnly":
		_, ok := val.(bool)
		return ok
	case "title", "description", "format", "contentEncoding", "contentMediaType", "$comment":
		_, ok := val.(string)
		return ok
	case "pattern":
		p, ok := val.(string)
		if !ok {
			return false
		}
		_, err := regexp.Compile(p) // the validator's default engine
		return err == nil
	case "$ref":
		ref, ok := val.(string)
		if !ok {
			return false
		}
		if ref == "#" {
			return true
		}
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		if !ok || defs == nil || strings.ContainsAny(name, "~%/") {
			return false
		}
		return defs.has(name)
	}
	// Extension keywords (x-mcp-header and the like) are not in the
	// metaschema, which allows any other member; every other keyword of
	// the specification is compiled at once.
	return strings.HasPrefix(key, "x-")
}
