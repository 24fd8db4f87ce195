package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/fastmcp-go/fastmcp/schema/internal/check"
)

// The rule list: the checker Bind runs on the schemas For and Elicitation
// generate, when the arguments need more than the checks made while
// scanning (a jsonschema-tag keyword tagcheck.go does not handle, or a
// decoding that failed and must be explained). It reads the very tree that
// is published, so what is checked is what the model is told, and it
// needs no JSON Schema engine: no metaschemas, no package init. It knows
// the keywords and formats generated schemas use (the set is checked at
// For); a schema that uses any other keyword of draft 2020-12 (through a
// type's JSONSchema or JSONSchemaExtend method, say) is checked by the full
// engine that package schema/jsonvalidate registers, and For fails,
// naming that import, when it is not linked. Its findings, and the issues
// Bind makes of them, are those santhosh-tekuri/jsonschema gives for the
// same schema and value: TestRulesAgreeWithEngine checks it.

// ruleChecker validates instances (decodeInstance's form) against one
// generated schema tree.
type ruleChecker struct {
	root    *object
	defs    *object
	regexes map[string]*regexp.Regexp
}

// nativeFormats are the formats the rule list checks itself; engineFormats
// are those the full engine asserts. A format in neither constrains
// nothing.
var (
	nativeFormats = map[string]func(string) bool{
		"email": isEmail, "uri": isURI, "uuid": isUUID, "ipv4": isIPv4, "ipv6": isIPv6,
		"hostname": isHostname, "date": isDate, "date-time": isDateTime, "time": isTime,
	}
	engineFormats = []string{
		"json-pointer", "relative-json-pointer", "duration", "period", "iri", "uri-reference",
		"iri-reference", "uri-template", "semver", "regex", "idn-email", "idn-hostname",
	}
)

// newRuleChecker prepares the checker for a generated schema tree. It
// fails when the tree uses something the rule list does not check (the
// error names it); the tree is known to compile (For made sure).
func newRuleChecker(root *object) (*ruleChecker, error) {
	rc := &ruleChecker{root: root, defs: root.getObject("$defs"), regexes: map[string]*regexp.Regexp{}}
	if err := rc.prepare(root, 0); err != nil {
		return nil, err
	}
	return rc, nil
}

// prepare walks one schema, compiling its patterns and refusing what the
// rule list does not know (errNeedsEngine) or what draft 2020-12 does not
// allow.
func (rc *ruleChecker) prepare(v any, depth int) error {
	s, ok := v.(*object)
	if !ok {
		if _, ok := v.(bool); ok {
			return nil
		}
		return fmt.Errorf("a schema must be an object or a boolean, not %s", encodeTree(v))
	}
	if depth > 64 {
		return fmt.Errorf("%w: schemas nested deeper than 64", errNeedsEngine)
	}
	for _, m := range s.members {
		if err := rc.prepareMember(m, depth); err != nil {
			return err
		}
	}
	return nil
}

// prepareMember prepares one keyword of a schema.
func (rc *ruleChecker) prepareMember(m member, depth int) error {
	bad := false
	switch m.key {
	case "properties", "$defs", "patternProperties":
		obj, ok := m.val.(*object)
		if !ok {
			bad = true
			break
		}
		for _, p := range obj.members {
			if m.key == "patternProperties" {
				re, err := regexp.Compile(p.key)
				if err != nil {
					return fmt.Errorf("patternProperties %q: %v", p.key, err)
				}
				rc.regexes[p.key] = re
			}
			if err := rc.prepare(p.val, depth+1); err != nil {
				return err
			}
		}
	case "items", "additionalProperties", "propertyNames", "not", "if", "then", "else":
		if err := rc.prepare(m.val, depth+1); err != nil {
			return err
		}
	case "anyOf", "oneOf", "allOf", "prefixItems":
		list, ok := m.val.([]any)
		if !ok || len(list) == 0 {
			bad = true
			break
		}
		for _, e := range list {
			if err := rc.prepare(e, depth+1); err != nil {
				return err
			}
		}
	case "pattern":
		src, ok := m.val.(string)
		if !ok {
			bad = true
			break
		}
		re, err := regexp.Compile(src)
		if err != nil {
			return fmt.Errorf("pattern %q: %v", src, err)
		}
		rc.regexes[src] = re
	case "format":
		f, ok := m.val.(string)
		bad = !ok
		if slices.Contains(engineFormats, f) {
			return fmt.Errorf("%w: format %q", errNeedsEngine, f)
		}
	case "$ref":
		ref, ok := m.val.(string)
		if !ok || (ref != "#" && !keywordSafe(m.key, m.val, rc.defs)) {
			return fmt.Errorf("%w: $ref %v", errNeedsEngine, encodeTree(m.val))
		}
	case "type", "required", "enum", "const", "minimum", "maximum", "exclusiveMinimum",
		"exclusiveMaximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems",
		"minProperties", "maxProperties", "uniqueItems",
		"title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
		"$comment", "contentEncoding", "contentMediaType":
		bad = !keywordSafe(m.key, m.val, rc.defs)
	default:
		if engineKeywords[m.key] {
			return fmt.Errorf("%w: keyword %q", errNeedsEngine, m.key)
		}
		// not a keyword of draft 2020-12: it constrains nothing
	}
	if bad {
		return fmt.Errorf("%q: %s is not a value draft 2020-12 allows", m.key, encodeTree(m.val))
	}
	return nil
}

// errNeedsEngine marks a schema that uses what only the full engine checks.
var errNeedsEngine = errors.New("needs a full JSON Schema engine")

// engineKeywords are the keywords of draft 2020-12 (and the older names the
// engine reads in it) that the rule list leaves to the full engine.
var engineKeywords = map[string]bool{
	"$id": true, "$schema": true, "$anchor": true, "$dynamicRef": true, "$dynamicAnchor": true,
	"$vocabulary": true, "$recursiveRef": true, "$recursiveAnchor": true,
	"dependentSchemas": true, "dependentRequired": true,
	"unevaluatedItems": true, "unevaluatedProperties": true, "contains": true,
	"minContains": true, "maxContains": true, "contentSchema": true,
}

// Check validates inst and returns its failures, or nil.
func (rc *ruleChecker) Check(inst any) *check.Finding {
	return rc.validate(rc.root, inst, nil)
}

// validate checks one value against one schema. Like the engine, it stops
// at the first failure of type, const, enum or format, and otherwise
// reports every failure.
func (rc *ruleChecker) validate(v any, inst any, loc []string) *check.Finding {
	if b, ok := v.(bool); ok {
		if b {
			return nil
		}
		return &check.Finding{Loc: loc, Keyword: "false"}
	}
	s := v.(*object)
	leaf := func(kw string, want any) *check.Finding {
		return &check.Finding{Loc: loc, Rule: kw, Keyword: kw, Want: want}
	}
	if t, ok := s.get("type"); ok && !typeMatches(t, inst) {
		return &check.Finding{Loc: loc, Kind: check.Type, Rule: "type", Keyword: "type", Want: wantTypes(t), Got: jsonTypeOf(inst)}
	}
	if c, ok := s.get("const"); ok && !instEqual(inst, instanceOf(c)) {
		return leaf("const", instanceOf(c))
	}
	if e, ok := s.get("enum"); ok {
		list := e.([]any)
		found := false
		vals := make([]any, len(list))
		for i, w := range list {
			vals[i] = instanceOf(w)
			found = found || instEqual(inst, vals[i])
		}
		if !found {
			return leaf("enum", vals)
		}
	}
	if f := s.getString("format"); f != "" {
		if str, ok := inst.(string); ok {
			if ok := nativeFormats[f]; ok != nil && !ok(str) {
				return leaf("format", f)
			}
		}
	}
	var out []*check.Finding
	add := func(f *check.Finding) {
		if f != nil {
			out = append(out, f)
		}
	}
	if ref := s.getString("$ref"); ref != "" {
		target := any(rc.root)
		if ref != "#" {
			target, _ = rc.defs.get(ref[len("#/$defs/"):])
		}
		if f := rc.validate(target, inst, loc); f != nil {
			causes := []*check.Finding{f}
			if f.Kind == check.Group && f.Rule == "" {
				causes = f.Causes
			}
			add(&check.Finding{Loc: loc, Kind: check.Group, Rule: "$ref", Keyword: "$ref", Causes: causes})
		}
	}
	switch x := inst.(type) {
	case map[string]any:
		rc.checkObject(s, x, loc, add)
	case []any:
		rc.checkArray(s, x, loc, add)
	case string:
		rc.checkString(s, x, loc, add)
	case json.Number:
		checkNumber(s, x, loc, add)
	}
	rc.checkCombinators(s, inst, loc, add)
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	return &check.Finding{Loc: loc, Kind: check.Group, Causes: out}
}

func (rc *ruleChecker) checkObject(s *object, obj map[string]any, loc []string, add func(*check.Finding)) {
	for _, key := range []string{"minProperties", "maxProperties"} {
		if n, ok := countOf(s, key); ok && (len(obj) < n) == (key == "minProperties") && len(obj) != n {
			add(&check.Finding{Loc: loc, Rule: key, Keyword: key, Want: n})
		}
	}
	if req, ok := s.get("required"); ok {
		var missing []string
		for _, r := range req.([]any) {
			if _, ok := obj[r.(string)]; !ok {
				missing = append(missing, r.(string))
			}
		}
		if missing != nil {
			add(&check.Finding{Loc: loc, Kind: check.Required, Rule: "required", Keyword: "required", Names: missing})
		}
	}
	props := s.getObject("properties")
	patterns := s.getObject("patternProperties")
	addl, hasAddl := s.get("additionalProperties")
	var unknown []string
	for _, name := range sortedMembers(obj) {
		val := obj[name]
		at := append(slices.Clip(loc), name)
		evaluated := false
		if props != nil {
			if ps, ok := props.get(name); ok {
				add(rc.validate(ps, val, at))
				evaluated = true
			}
		}
		if patterns != nil {
			for _, p := range patterns.members {
				if rc.regexes[p.key].MatchString(name) {
					add(rc.validate(p.val, val, at))
					evaluated = true
				}
			}
		}
		if evaluated || !hasAddl {
			continue
		}
		if b, ok := addl.(bool); ok {
			if !b {
				unknown = append(unknown, name)
			}
			continue
		}
		add(rc.validate(addl, val, at))
	}
	if unknown != nil {
		add(&check.Finding{Loc: loc, Kind: check.Unknown, Rule: "additionalProperties", Keyword: "additionalProperties", Names: unknown})
	}
	if pn, ok := s.get("propertyNames"); ok {
		for _, name := range sortedMembers(obj) {
			if f := rc.validate(pn, name, nil); f != nil {
				add(&check.Finding{Loc: loc, Rule: "propertyNames", Keyword: "propertyNames", Causes: []*check.Finding{f}})
			}
		}
	}
}

func (rc *ruleChecker) checkArray(s *object, arr []any, loc []string, add func(*check.Finding)) {
	for _, key := range []string{"minItems", "maxItems"} {
		if n, ok := countOf(s, key); ok && (len(arr) < n) == (key == "minItems") && len(arr) != n {
			add(&check.Finding{Loc: loc, Rule: key, Keyword: key, Want: n})
		}
	}
	if u, _ := s.get("uniqueItems"); u == true && len(arr) > 1 {
	dup:
		for i := 1; i < len(arr); i++ {
			for j := range i {
				if instEqual(arr[i], arr[j]) {
					add(&check.Finding{Loc: loc, Rule: "uniqueItems", Keyword: "uniqueItems"})
					break dup
				}
			}
		}
	}
	done := 0
	if p, ok := s.get("prefixItems"); ok {
		list := p.([]any)
		for i := 0; i < len(list) && i < len(arr); i++ {
			add(rc.validate(list[i], arr[i], append(slices.Clip(loc), strconv.Itoa(i))))
			done++
		}
	}
	if it, ok := s.get("items"); ok {
		for i := done; i < len(arr); i++ {
			add(rc.validate(it, arr[i], append(slices.Clip(loc), strconv.Itoa(i))))
		}
	}
}

func (rc *ruleChecker) checkString(s *object, str string, loc []string, add func(*check.Finding)) {
	n := -1
	if s.has("minLength") || s.has("maxLength") {
		n = utf8.RuneCountInString(str)
	}
	for _, key := range []string{"minLength", "maxLength"} {
		if want, ok := countOf(s, key); ok && (n < want) == (key == "minLength") && n != want {
			add(&check.Finding{Loc: loc, Rule: key, Keyword: key, Want: want})
		}
	}
	if src := s.getString("pattern"); src != "" || s.has("pattern") {
		if !rc.regexes[src].MatchString(str) {
			add(&check.Finding{Loc: loc, Rule: "pattern", Keyword: "pattern", Want: src})
		}
	}
}

func checkNumber(s *object, n json.Number, loc []string, add func(*check.Finding)) {
	v, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return
	}
	for _, c := range []struct {
		key   string
		fails func(cmp int) bool
	}{
		{"minimum", func(c int) bool { return c < 0 }},
		{"maximum", func(c int) bool { return c > 0 }},
		{"exclusiveMinimum", func(c int) bool { return c <= 0 }},
		{"exclusiveMaximum", func(c int) bool { return c >= 0 }},
	} {
		if b, ok := ratOf(s, c.key); ok && c.fails(v.Cmp(b)) {
			add(&check.Finding{Loc: loc, Rule: c.key, Keyword: c.key, Want: b})
		}
	}
	if m, ok := ratOf(s, "multipleOf"); ok && !new(big.Rat).Quo(v, m).IsInt() {
		add(&check.Finding{Loc: loc, Rule: "multipleOf", Keyword: "multipleOf", Want: m})
	}
}

func (rc *ruleChecker) checkCombinators(s *object, inst any, loc []string, add func(*check.Finding)) {
	if n, ok := s.get("not"); ok && rc.validate(n, inst, loc) == nil {
		add(&check.Finding{Loc: loc, Keyword: "not"})
	}
	if l, ok := s.get("allOf"); ok {
		var errs []*check.Finding
		for _, sub := range l.([]any) {
			if f := rc.validate(sub, inst, loc); f != nil {
				errs = append(errs, f)
			}
		}
		if errs != nil {
			add(&check.Finding{Loc: loc, Kind: check.Group, Rule: "allOf", Keyword: "allOf", Causes: errs})
		}
	}
	if l, ok := s.get("anyOf"); ok {
		var errs []*check.Finding
		matched := false
		for _, sub := range l.([]any) {
			f := rc.validate(sub, inst, loc)
			if f == nil {
				matched = true
				break
			}
			errs = append(errs, f)
		}
		if !matched {
			add(&check.Finding{Loc: loc, Kind: check.AnyOf, Rule: "anyOf", Keyword: "anyOf", Causes: errs})
		}
	}
	if l, ok := s.get("oneOf"); ok {
		var errs []*check.Finding
		matched := -1
		for _, sub := range l.([]any) {
			f := rc.validate(sub, inst, loc)
			switch {
			case f != nil:
				if matched < 0 {
					errs = append(errs, f)
				}
				continue
			case matched < 0:
				matched = 0
				continue
			}
			add(&check.Finding{Loc: loc, Kind: check.OneOf, Rule: "oneOf", Keyword: "oneOf"}) // two matched
			break
		}
		if matched < 0 {
			add(&check.Finding{Loc: loc, Kind: check.OneOf, Rule: "oneOf", Keyword: "oneOf", Causes: errs})
		}
	}
	if cond, ok := s.get("if"); ok {
		branch := "else"
		if rc.validate(cond, inst, loc) == nil {
			branch = "then"
		}
		if b, ok := s.get(branch); ok {
			add(rc.validate(b, inst, loc))
		}
	}
}

// typeMatches reports whether inst has one of the JSON types t names; a
// number with an integer value is an "integer".
func typeMatches(t any, inst any) bool {
	got := jsonTypeOf(inst)
	match := func(want string) bool {
		if want == got {
			return true
		}
		if want == "integer" && got == "number" {
			r, ok := new(big.Rat).SetString(string(inst.(json.Number)))
			return ok && r.IsInt()
		}
		return false
	}
	switch t := t.(type) {
	case string:
		return match(t)
	case []any:
		for _, e := range t {
			if match(e.(string)) {
				return true
			}
		}
	}
	return false
}

// wantTypes lists the types t names, in the engine's order.
func wantTypes(t any) []string {
	var names []string
	switch t := t.(type) {
	case string:
		names = []string{t}
	case []any:
		for _, e := range t {
			names = append(names, e.(string))
		}
	}
	var out []string
	for _, n := range []string{"null", "boolean", "number", "integer", "string", "array", "object"} {
		if slices.Contains(names, n) {
			out = append(out, n)
		}
	}
	return out
}

// instEqual compares two instances as JSON Schema does: numbers by value.
func instEqual(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, ok := bm[k]
			if !ok || !instEqual(av, bv) {
				return false
			}
		}
		return true
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !instEqual(a[i], bl[i]) {
				return false
			}
		}
		return true
	case json.Number:
		bn, ok := b.(json.Number)
		if !ok {
			return false
		}
		ra, ok1 := new(big.Rat).SetString(string(a))
		rb, ok2 := new(big.Rat).SetString(string(bn))
		return ok1 && ok2 && ra.Cmp(rb) == 0
	}
	return a == b
}

func countOf(s *object, key string) (int, bool) {
	v, ok := s.get(key)
	if !ok {
		return 0, false
	}
	return countValue(v)
}

func ratOf(s *object, key string) (*big.Rat, bool) {
	v, ok := s.get(key)
	if !ok {
		return nil, false
	}
	n, ok := v.(number)
	if !ok {
		return nil, false
	}
	return parseRat(n)
}

func sortedMembers(obj map[string]any) []string {
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
