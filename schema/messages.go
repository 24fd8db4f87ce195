package schema

import (
	"encoding/json"
	"strconv"
	"strings"
)

// The wording of validation messages. Every check (the binder, the
// validate-tag rules, the jsonschema-tag checks and the JSON Schema
// validator used for schemas given as JSON) words its findings with these
// helpers, so that one problem reads the same whichever check found it:
//
//   - A message is a phrase that follows the path: "must ..." for a broken
//     constraint, "is required" for a missing member, "unknown field" for an
//     extra one. It never names the rule: that is Issue.Rule.
//   - Counts agree in number: "1 character", "2 characters".
//   - Allowed values are listed as JSON: strings quoted, numbers bare.
//   - A rule with no wording of its own reads "must satisfy the rule X",
//     X being the validate rule with its parameter or the schema keyword.

// msgRequired is the message for a required member that is absent.
const msgRequired = "is required"

// msgUnknown is the message for a member the arguments do not take.
const msgUnknown = "unknown field"

// msgNotNull is the message for a null where a value of no one JSON type
// is wanted.
const msgNotNull = "must not be null"

// Units of size counted by the length rules.
const (
	unitCharacter = "character"
	unitItem      = "item"
	unitEntry     = "entry"
)

// count writes n units, the unit in the plural unless n is 1.
func count(n, unit string) string {
	if n == "1" {
		return n + " " + unit
	}
	if unit == unitEntry {
		return n + " entries"
	}
	return n + " " + unit + "s"
}

// countInt is count for an int.
func countInt(n int, unit string) string { return count(strconv.Itoa(n), unit) }

// msgOneOf lists the allowed values, already written as JSON.
func msgOneOf(vals []string) string {
	return "must be one of " + strings.Join(vals, ", ")
}

// jsonString writes s as a JSON string.
func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always encodes
	return string(b)
}

// msgRule is the message for a rule with no wording of its own.
func msgRule(rule string) string {
	return "must satisfy the rule " + rule
}

// msgAtLeast and msgAtMost are the messages for a size bound; n is the
// bound already counted in its unit (count, countInt).
func msgAtLeast(n string) string { return "must have at least " + n }
func msgAtMost(n string) string  { return "must have at most " + n }

// msgCompare is the message for a numeric bound: op is one of >=, <=, >
// and <, bound the number as written.
func msgCompare(op, bound string) string { return "must be " + op + " " + bound }

// msgUnique is the message for a list with repeated items.
const msgUnique = "must not contain duplicates"

// msgPattern is the message for a string that does not match the regular
// expression src.
func msgPattern(src string) string { return "must match the pattern " + src }
