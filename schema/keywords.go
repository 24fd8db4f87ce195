package schema

import (
	"regexp"
	"strings"
)

var simpleTypes = map[string]bool{
	"null": true, "boolean": true, "object": true, "array": true,
	"number": true, "integer": true, "string": true,
}

// keywordSafe reports whether a keyword's value is one draft 2020-12
// allows (for $ref: a reference to the root or to a definition that
// exists). The rule list (engine.go) refuses a generated schema whose
// keywords are not: For reports it.
func keywordSafe(key string, val any, defs *object) bool {
	switch key {
	case "type":
		if t, ok := val.(string); ok {
			return simpleTypes[t]
		}
		list, ok := val.([]any)
		return ok && len(list) > 0 && uniqueStrings(list, func(s string) bool { return simpleTypes[s] })
	case "required":
		list, ok := val.([]any)
		return ok && uniqueStrings(list, func(string) bool { return true })
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
		return refSafe(val, defs)
	}
	// Extension keywords (x-mcp-header and the like) are not in the
	// metaschema, which allows any other member; every other keyword of
	// the specification is compiled at once.
	return strings.HasPrefix(key, "x-")
}

// uniqueStrings reports whether list holds only strings, each allowed by
// ok and none twice.
func uniqueStrings(list []any, ok func(string) bool) bool {
	seen := make(map[string]bool, len(list))
	for _, e := range list {
		s, isStr := e.(string)
		if !isStr || !ok(s) || seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}

// refSafe reports whether a $ref's value refers to the root or to a
// definition of defs.
func refSafe(val any, defs *object) bool {
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
