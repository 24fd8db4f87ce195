// Package check is what package schema and its full JSON Schema engine
// (package schema/jsonvalidate) share: the findings of a check, in a form
// both produce and schema words, and the hook through which the engine is
// linked only by programs that import it.
package check

// Kind says how addFindings in package schema reads a Finding.
type Kind uint8

// The kinds of finding.
const (
	Leaf     Kind = iota // one failed keyword, worded from Keyword, Want and Got
	Group                // the failures of one schema, a $ref, an allOf, or the root: Causes
	AnyOf                // no alternative matched: Causes are the alternatives' failures
	OneOf                // none matched (Causes), or more than one did (no Causes)
	Required             // Names are the missing members
	Unknown              // Names are the members additionalProperties:false refuses
	Type                 // the value has none of the types Want ([]string) names; Got is its type
)

// Finding is one failure of a value against a schema.
type Finding struct {
	Loc  []string // instance location
	Kind Kind
	// Rule is the rule: the failed keyword, or "" (the issue says
	// "schema") for not, false schemas and groups.
	Rule string
	// Keyword is the keyword that failed, for wording (it is "not" or
	// "false" where Rule is "").
	Keyword string
	// Want is the keyword's value: a *big.Rat for numeric bounds and
	// multipleOf, an int for counts, a string for pattern and format,
	// []any of instance values for enum, an instance value for const,
	// []string for type.
	Want   any
	Got    string   // the JSON type of the value, for Type
	Names  []string // Required and Unknown
	Causes []*Finding
}

// Checker checks instances (map[string]any, []any, string, json.Number,
// bool, nil) against one compiled schema and returns the failures, or nil.
// It is safe for concurrent use.
type Checker interface {
	Check(inst any) *Finding
}

// Full compiles a schema (in instance form) with the full JSON Schema
// engine: draft 2020-12 unless "$schema" names another draft, formats
// asserted, external references refused. It is nil unless package
// schema/jsonvalidate is linked, which sets it in its init.
var Full func(schema any) (Checker, error)
