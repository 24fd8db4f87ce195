// Package uritemplate matches URIs against RFC 6570 URI templates, the
// job behind MCP resource templates: parse a template, list its variables,
// and turn a URI back into the values of its variables. It checks what a
// resource template needs beyond RFC 6570 (at least one variable, none
// repeated), bounds the URIs it matches (MaxURI), accepts IRIs, and finds
// ".." path segments in the values (DotDot).
package uritemplate

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	rfc6570 "github.com/yosida95/uritemplate/v3"
)

// MaxURI bounds the length of a URI matched against resource
// templates. Matching costs time in proportion to the URI's length, so
// longer URIs (which no real client sends) only match static resources.
const MaxURI = 4 << 10

// A Template is a parsed RFC 6570 URI template that can both describe a
// family of resources and match a URI back to its variables.
//
// Parsing and matching are done by github.com/yosida95/uritemplate/v3 (the
// library the official Go SDK uses too): it supports every operator of
// level 4 ({var}, {+var}, {#var}, {.var}, {/var}, {;var}, {?var}, {&var},
// explode and prefix modifiers) and, unusually, matching. Its Regexp, a
// linear-time superset of what Match accepts, rejects most URIs cheaply
// before the backtracking-free but slower Match runs.
type Template struct {
	raw  string
	tmpl *rfc6570.Template
	re   *regexp.Regexp
	vars []Var // in order of first appearance
}

// A Var is one variable of a template.
type Var struct {
	Name    string
	Op      byte // the expression's operator: 0 for a simple {var}, or one of +#./;?&
	Explode bool // {var*}
}

// Vars returns the template's variables, in order of first appearance.
// The caller must not change the slice.
func (t *Template) Vars() []Var { return t.vars }

// Has reports whether the template has a variable named name.
func (t *Template) Has(name string) bool {
	return slices.ContainsFunc(t.vars, func(v Var) bool { return v.Name == name })
}

// JoinSep returns the separator that joins the list values of variable
// name back into one string, for a field that is not a slice: "/" for an
// exploded {/path*}, so that it gives "a/b/c"; "," otherwise.
func (t *Template) JoinSep(name string) string {
	for _, v := range t.vars {
		if v.Name == name && v.Explode && (v.Op == '/' || v.Op == '.') {
			return string(v.Op)
		}
	}
	return ","
}

// Parse parses raw as a URI template. A template must have at least
// one variable, and no variable may appear twice.
func Parse(raw string) (*Template, error) {
	tmpl, err := rfc6570.New(raw)
	if err != nil {
		return nil, fmt.Errorf("not a valid RFC 6570 URI template: %v", err)
	}
	vars, err := scanTemplateVars(raw)
	if err != nil {
		return nil, err
	}
	if len(vars) == 0 {
		return nil, fmt.Errorf("no template variables")
	}
	return &Template{raw: raw, tmpl: tmpl, re: tmpl.Regexp(), vars: vars}, nil
}

// scanTemplateVars lists the variables of a template the library already
// accepted, with their operators. The library parses; this only reads off
// what it does not expose.
func scanTemplateVars(raw string) ([]Var, error) {
	var vars []Var
	seen := map[string]bool{}
	for rest := raw; ; {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			return vars, nil
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return nil, fmt.Errorf("unclosed expression")
		}
		expr := rest[i+1 : i+j]
		rest = rest[i+j+1:]
		var op byte
		if expr != "" && strings.IndexByte("+#./;?&", expr[0]) >= 0 {
			op, expr = expr[0], expr[1:]
		}
		for spec := range strings.SplitSeq(expr, ",") {
			v := Var{Op: op}
			if name, ok := strings.CutSuffix(spec, "*"); ok {
				spec, v.Explode = name, true
			}
			if k := strings.IndexByte(spec, ':'); k >= 0 {
				spec = spec[:k]
			}
			v.Name = spec
			if seen[spec] {
				return nil, fmt.Errorf("variable %q appears more than once", spec)
			}
			seen[spec] = true
			vars = append(vars, v)
		}
	}
}

// Match extracts the variables from uri, percent-decoded, and reports
// whether uri matches. A variable that matched a list (an exploded variable,
// or a comma-separated value) has several values. Variables absent from uri
// (an optional query parameter, say) are absent from the map.
//
// A URI with characters outside ASCII (an IRI) that does not match as
// written is matched again with those characters percent-encoded as UTF-8.
func (t *Template) Match(uri string) (map[string][]string, bool) {
	if len(uri) > MaxURI {
		return nil, false
	}
	if m, ok := t.matchURI(uri); ok {
		return m, true
	}
	if enc, changed := encodeNonASCII(uri); changed {
		return t.matchURI(enc)
	}
	return nil, false
}

func (t *Template) matchURI(uri string) (map[string][]string, bool) {
	if !t.re.MatchString(uri) {
		return nil, false
	}
	vals := t.tmpl.Match(uri)
	if vals == nil {
		return nil, false
	}
	out := make(map[string][]string, len(vals))
	for name, v := range vals {
		// A prefix modifier {var:3} names the capture "var:3".
		if k := strings.IndexByte(name, ':'); k >= 0 {
			name = name[:k]
		}
		out[name] = v.V
	}
	return out, true
}

// encodeNonASCII percent-encodes the bytes of s outside ASCII, turning an
// IRI into a URI (RFC 3987, section 3.1).
func encodeNonASCII(s string) (string, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			n++
		}
	}
	if n == 0 {
		return s, false
	}
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)+2*n)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 {
			b = append(b, c)
			continue
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	return string(b), true
}

// DotDot returns the first variable (in the template's order) whose value
// in vals, as Match returned them, holds a ".." path segment (between
// slashes or backslashes, after percent-decoding), which a handler joining
// it to a path would follow out of its directory.
func (t *Template) DotDot(vals map[string][]string) (string, bool) {
	for _, v := range t.vars {
		for _, s := range vals[v.Name] {
			if hasDotDot(s) {
				return v.Name, true
			}
		}
	}
	return "", false
}

func hasDotDot(s string) bool {
	if !strings.Contains(s, "..") {
		return false
	}
	for seg := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == '/' || r == '\\' }) {
		if seg == ".." {
			return true
		}
	}
	return false
}
