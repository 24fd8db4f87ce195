package schema

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// ValidationError reports every problem found in one set of arguments.
// Its message is written for a model to read and correct its call:
//
//	a: must be >= 0; b: is required
//
// Callers get it with errors.As or errors.AsType[*schema.ValidationError].
type ValidationError struct {
	// Issues lists the problems, ordered by path. It is never empty.
	Issues []Issue
}

// Issue is one problem with one value.
type Issue struct {
	// Path locates the value in the arguments: "a", "address.city",
	// "items[2]", or "" for the arguments object itself. Member names that
	// are not plain identifiers are quoted: tags["a b"].
	Path string
	// Rule names what failed: "required", "type", "unknown", "json",
	// "duplicate", a validate rule ("gte", "email", "oneof", ...), or a
	// JSON Schema keyword ("minimum", "enum", "pattern", ...) when the
	// problem was found by checking the schema.
	Rule string
	// Message says what is wrong, as a phrase that follows the path:
	// "must ..." for a broken constraint ("must be >= 0", "must have at
	// least 1 character", `must be one of "a", "b"`), "is required" for a
	// missing member, "unknown field" for an extra one. It reads the same
	// whichever check found the problem (a validate rule, a jsonschema tag,
	// a schema given as JSON) and never names the rule: Rule does. A rule
	// with no wording of its own reads "must satisfy the rule isbn13".
	Message string
}

// Error lists every issue as "path: message", separated by "; ".
func (e *ValidationError) Error() string {
	var b strings.Builder
	for i, is := range e.Issues {
		if i > 0 {
			b.WriteString("; ")
		}
		if is.Path != "" {
			b.WriteString(is.Path)
			b.WriteString(": ")
		}
		b.WriteString(is.Message)
	}
	return b.String()
}

// path is a location in a JSON value, built from segments.
type path []segment

type segment struct {
	name  string
	index int // -1 for object members
}

func (p path) member(name string) path {
	return append(p[:len(p):len(p)], segment{name: name, index: -1})
}

func (p path) item(i int) path {
	return append(p[:len(p):len(p)], segment{index: i})
}

func (p path) String() string {
	var b []byte
	for _, s := range p {
		b = appendSegment(b, s, len(b) == 0)
	}
	return string(b)
}

func appendSegment(b []byte, s segment, first bool) []byte {
	if s.index >= 0 {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(s.index), 10)
		return append(b, ']')
	}
	if plainName(s.name) {
		if !first {
			b = append(b, '.')
		}
		return append(b, s.name...)
	}
	b = append(b, '[')
	b = strconv.AppendQuote(b, s.name)
	return append(b, ']')
}

// plainName reports whether a member name can be written after a dot.
func plainName(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '$') {
			return false
		}
	}
	return true
}

// issues collects issues, keeping one per (path, rule).
type issues struct {
	list []Issue
	keys [][]segment // parallel to list, for sorting
}

func (is *issues) add(p path, rule, msg string) {
	ps := p.String()
	for _, old := range is.list {
		if old.Path == ps && old.Rule == rule {
			return
		}
	}
	is.list = append(is.list, Issue{Path: ps, Rule: rule, Message: msg})
	is.keys = append(is.keys, slices.Clone(p))
}

// addFrom adds issue i of from, unless is has one at the same path with
// the same rule already.
func (is *issues) addFrom(from *issues, i int) {
	x := from.list[i]
	for _, old := range is.list {
		if old.Path == x.Path && old.Rule == x.Rule {
			return
		}
	}
	is.list = append(is.list, x)
	is.keys = append(is.keys, from.keys[i])
}

func (is *issues) empty() bool { return len(is.list) == 0 }

// err sorts the issues by path (array indexes numerically) and returns them
// as a *ValidationError, or nil if there are none.
func (is *issues) err() error {
	if len(is.list) == 0 {
		return nil
	}
	idx := make([]int, len(is.list))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return comparePaths(is.keys[a], is.keys[b])
	})
	out := make([]Issue, len(idx))
	for i, j := range idx {
		out[i] = is.list[j]
	}
	return &ValidationError{Issues: out}
}

func comparePaths(a, b []segment) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		x, y := a[i], b[i]
		if x.index >= 0 && y.index >= 0 {
			if c := cmp.Compare(x.index, y.index); c != 0 {
				return c
			}
			continue
		}
		if c := cmp.Compare(x.index, y.index); c != 0 {
			return c
		}
		if c := strings.Compare(x.name, y.name); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}
