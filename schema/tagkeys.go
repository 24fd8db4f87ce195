package schema

import (
	"fmt"
	"slices"
	"strings"
)

// The keys a jsonschema tag may use: those invopop/jsonschema's Reflector
// reads (v0.14.0, reflect.go: genericKeywords, stringKeywords,
// numericalKeywords, arrayKeywords, requiredFromJSONSchemaTags,
// nullableFromJSONSchemaTags), which are fastmcp's too. The Reflector
// skips any other part without a word; For refuses it, since a
// misspelled key (minimun=3) would publish and enforce nothing.
var (
	// valueTagKeys are written key=value.
	valueTagKeys = []string{
		"title", "description", "type", "anchor",
		"oneof_required", "anyof_required", "oneof_ref", "oneof_type", "anyof_ref", "anyof_type",
		"minLength", "maxLength", "pattern", "format", "readOnly", "writeOnly",
		"default", "example", "enum",
		"multipleOf", "minimum", "maximum", "exclusiveMaximum", "exclusiveMinimum",
		"minItems", "maxItems", "uniqueItems",
	}
	// flagTagKeys are written alone.
	flagTagKeys = []string{"required", "nullable"}
)

// checkTagKeys returns an error for the first part of a jsonschema tag
// (split by splitTag; "-" is handled before) whose key is unknown or
// written in the wrong form, saying how to fix it. Empty parts are
// skipped, as the Reflector skips them.
func checkTagKeys(parts []string) error {
	for i, part := range parts {
		if part == "" {
			continue
		}
		key, _, valued := strings.Cut(part, "=")
		switch {
		case valued && slices.Contains(valueTagKeys, key), !valued && slices.Contains(flagTagKeys, key):
			continue
		case valued && slices.Contains(flagTagKeys, key):
			return fmt.Errorf("jsonschema key %s takes no value: write %s alone", key, key)
		case !valued && slices.Contains(valueTagKeys, key):
			return fmt.Errorf("jsonschema key %s needs a value: write %s=value", key, key)
		}
		if near := nearestTagKey(key); near != "" {
			return fmt.Errorf("unknown jsonschema key %q in %q: did you mean %s?", key, part, near)
		}
		if !valued {
			if i > 0 && strings.Contains(parts[i-1], "=") {
				return fmt.Errorf("jsonschema tag part %q has no key: if it continues the value before it, write that comma as \\,", part)
			}
			return fmt.Errorf("jsonschema tag part %q has no key: write description=%s for a description", part, part)
		}
		return fmt.Errorf("unknown jsonschema key %q in %q: the keys are %s, and %s alone", key, part,
			strings.Join(valueTagKeys, ", "), strings.Join(flagTagKeys, " or "))
	}
	return nil
}

// nearestTagKey returns the known key closest to key, if it is close
// enough to be a misspelling (at most two edits, ignoring case), or "".
func nearestTagKey(key string) string {
	best, bestDist := "", 3
	for _, list := range [][]string{valueTagKeys, flagTagKeys} {
		for _, k := range list {
			if d := editDistance(strings.ToLower(key), strings.ToLower(k)); d < bestDist {
				best, bestDist = k, d
			}
		}
	}
	if len(key) <= bestDist {
		return "" // any short word is two edits from "type"
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
