package schema

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// This file mirrors validate tags (go-playground/validator/v10) into the
// schema, so the model sees the rules the server enforces. The validator stays
// the authority at run time; the schema is its description.

type rule struct {
	name  string
	param string
	or    bool // part of an a|b group: enforced, not mirrored
}

type ruleSet struct {
	rules []rule
	keys  *ruleSet // keys ... endkeys, for map keys (only after dive)
	dive  *ruleSet // rules after dive apply to elements
}

// noRules is what parseRules returns for an empty tag; it is shared, like
// every rule set, and must not be modified.
var noRules ruleSet

// parseRules parses a validate tag the way the validator splits it.
func parseRules(tag string) *ruleSet {
	if tag == "" || tag == "-" {
		return &noRules
	}
	return parseRuleList(strings.Split(tag, ","))
}

func parseRuleList(toks []string) *ruleSet {
	rs := &ruleSet{rules: make([]rule, 0, len(toks))}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t {
		case "":
			continue
		case "dive":
			rest := toks[i+1:]
			var keys []string
			if len(rest) > 0 && rest[0] == "keys" {
				for j := 1; j < len(rest); j++ {
					if rest[j] == "endkeys" {
						keys = rest[1:j]
						rest = rest[j+1:]
						break
					}
				}
			}
			rs.dive = parseRuleList(rest)
			if keys != nil {
				rs.dive.keys = parseRuleList(keys)
			}
			return rs
		}
		if strings.Contains(t, "|") {
			for _, alt := range strings.Split(t, "|") {
				n, p, _ := strings.Cut(alt, "=")
				rs.rules = append(rs.rules, rule{name: n, param: unescapeParam(p), or: true})
			}
			continue
		}
		n, p, _ := strings.Cut(t, "=")
		rs.rules = append(rs.rules, rule{name: n, param: unescapeParam(p)})
	}
	return rs
}

func unescapeParam(p string) string {
	p = strings.ReplaceAll(p, "0x2C", ",")
	return strings.ReplaceAll(p, "0x7C", "|")
}

func (rs *ruleSet) has(name string) bool {
	for _, r := range rs.rules {
		if r.name == name && !r.or {
			return true
		}
	}
	return false
}

func (rs *ruleSet) required() bool { return rs.has("required") }

// crossField reports rules whose outcome depends on other fields or on
// other values than the field itself.
func crossField(name string) bool {
	return strings.Contains(name, "field") || strings.HasPrefix(name, "required_") ||
		strings.HasPrefix(name, "excluded_") || strings.HasPrefix(name, "skip_unless")
}

// failsOnZero reports whether the validator rejects the zero value of t
// under these rules: such a field must be sent, so the schema requires it.
func (rs *ruleSet) failsOnZero(t reflect.Type) bool {
	base := t
	for base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	if base.Kind() == reflect.Struct && base != timeType && t.Kind() != reflect.Pointer {
		// The validator always walks into a non-pointer struct field unless
		// the tag skips it, so the field must be sent if its zero value fails.
		if len(rs.rules) > 0 {
			switch rs.rules[0].name {
			case "omitempty", "omitzero", "structonly", "nostructlevel", "-":
				return false
			}
		}
		failed := false
		func() {
			defer func() {
				if recover() != nil {
					failed = false
				}
			}()
			failed = validate().Struct(reflect.New(base).Interface()) != nil
		}()
		return failed
	}
	if len(rs.rules) == 0 && rs.dive == nil {
		return false
	}
	for _, r := range rs.rules {
		if crossField(r.name) {
			return false
		}
	}
	var tag []string
	for _, r := range rs.rules {
		if r.or {
			return false
		}
		if r.param != "" {
			tag = append(tag, r.name+"="+strings.ReplaceAll(strings.ReplaceAll(r.param, ",", "0x2C"), "|", "0x7C"))
		} else {
			tag = append(tag, r.name)
		}
	}
	if rs.dive != nil {
		tag = append(tag, "dive")
	}
	if len(tag) == 0 {
		return false
	}
	failed := false
	func() {
		defer func() {
			if recover() != nil {
				failed = false
			}
		}()
		failed = validate().Var(reflect.Zero(t).Interface(), strings.Join(tag, ",")) != nil
	}()
	return failed
}

// valueClass is how a rule reads a Go type.
type valueClass uint8

const (
	classOther valueClass = iota
	classString
	classInt
	classUint
	classFloat
	classBool
	classList // slices and arrays
	classMap
	classTime
)

func classOf(t reflect.Type) valueClass {
	switch {
	case t == timeType:
		return classTime
	}
	switch t.Kind() {
	case reflect.String:
		return classString
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return classInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return classUint
	case reflect.Float32, reflect.Float64:
		return classFloat
	case reflect.Bool:
		return classBool
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return classOther // []byte travels as base64 text
		}
		return classList
	case reflect.Array:
		return classList
	case reflect.Map:
		return classMap
	}
	return classOther
}

// Patterns for rules that the validator checks with a regular expression
// (copied from validator/v10 regexes.go) or that reduce to one.
var rulePatterns = map[string]string{
	"alpha":           `^[a-zA-Z]+$`,
	"alphanum":        `^[a-zA-Z0-9]+$`,
	"alphaunicode":    `^[\p{L}]+$`,
	"alphanumunicode": `^[\p{L}\p{N}]+$`,
	"numeric":         `^[-+]?[0-9]+(?:\.[0-9]+)?$`,
	"number":          `^[0-9]+$`,
	"hexadecimal":     `^(0[xX])?[0-9a-fA-F]+$`,
	"hexcolor":        `^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$`,
	"e164":            `^\+?[1-9]\d{7,14}$`,
	"lowercase":       `^[^\p{Lu}\p{Lt}]+$`,
	"uppercase":       `^[^\p{Ll}\p{Lt}]+$`,
	"hostname":        `^[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$`,
}

var ruleFormats = map[string]string{
	"email":            "email",
	"url":              "uri",
	"uri":              "uri",
	"uuid":             "uuid",
	"ipv4":             "ipv4",
	"ipv6":             "ipv6",
	"hostname":         "hostname",
	"hostname_rfc1123": "hostname",
}

// MirroredRules lists the validate rules that appear in generated schemas.
// Every other rule is still enforced by Bind but is invisible to the model.
var mirroredRules = []string{
	"required", "omitempty", "omitzero", "omitnil", "dive", "keys", "endkeys",
	"min", "max", "len", "eq", "ne", "gt", "gte", "lt", "lte", "oneof", "unique",
	"email", "url", "uri", "uuid", "ipv4", "ipv6", "ip", "hostname", "hostname_rfc1123",
	"datetime", "alpha", "alphanum", "alphaunicode", "alphanumunicode", "numeric", "number",
	"hexadecimal", "hexcolor", "e164", "lowercase", "uppercase", "contains", "startswith", "endswith",
}

// mirror writes the rules of rs into the schema node s, which describes a
// value of Go type t. quoted is the json ",string" option.
func mirror(s *object, t reflect.Type, rs *ruleSet, quoted bool) error {
	isPtr := t.Kind() == reflect.Pointer
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	class := classOf(t)
	if quoted && (class == classInt || class == classUint || class == classFloat) {
		class = classOther // numbers inside strings: the schema says string
	}
	for _, r := range rs.rules {
		if r.or {
			continue
		}
		if err := mirrorRule(s, class, isPtr, r); err != nil {
			return fmt.Errorf("rule %s: %w", ruleText(r), err)
		}
	}
	if rs.dive == nil {
		return nil
	}
	switch class {
	case classList:
		if items := s.getObject("items"); items != nil {
			if err := mirror(items, t.Elem(), rs.dive, false); err != nil {
				return fmt.Errorf("dive: %w", err)
			}
		}
	case classMap:
		if rs.dive.keys != nil {
			names := s.getObject("propertyNames")
			if names == nil {
				names = &object{}
				s.set("propertyNames", names)
			}
			if err := mirror(names, t.Key(), rs.dive.keys, false); err != nil {
				return fmt.Errorf("keys: %w", err)
			}
			if len(names.members) == 0 {
				s.del("propertyNames")
			}
		}
		vals := []*object{s.getObject("additionalProperties")}
		if pp := s.getObject("patternProperties"); pp != nil { // integer keys
			for _, m := range pp.members {
				o, _ := m.val.(*object)
				vals = append(vals, o)
			}
		}
		for _, v := range vals {
			if v == nil {
				continue
			}
			if err := mirror(v, t.Elem(), rs.dive, false); err != nil {
				return fmt.Errorf("dive: %w", err)
			}
		}
	}
	return nil
}

func ruleText(r rule) string {
	if r.param == "" {
		return r.name
	}
	return r.name + "=" + r.param
}

// addKeyword sets key, or adds {key: val} to allOf when key is taken.
func addKeyword(s *object, key string, val any) {
	if !s.has(key) {
		s.set(key, val)
		return
	}
	all, _ := s.get("allOf")
	list, _ := all.([]any)
	s.set("allOf", append(list, &object{members: []member{{key, val}}}))
}

// mirrorRule writes into s the JSON Schema keywords that say what the
// validate rule r checks on a value of class (isPtr: the field is a
// pointer). Rules the schema cannot express add nothing.
func mirrorRule(s *object, class valueClass, isPtr bool, r rule) error {
	switch r.name {
	case "required":
		mirrorRequired(s, class, isPtr)
		return nil
	case "min", "gte":
		return lengthOrBound(s, class, r, "minimum", true, 0)
	case "max", "lte":
		return lengthOrBound(s, class, r, "maximum", false, 0)
	case "gt":
		return lengthOrBound(s, class, r, "exclusiveMinimum", true, 1)
	case "lt":
		return lengthOrBound(s, class, r, "exclusiveMaximum", false, -1)
	case "len":
		return exactLength(s, class, r)
	case "eq", "ne":
		return mirrorEquality(s, class, r)
	case "oneof":
		return mirrorOneOf(s, class, r)
	case "unique":
		if class == classList && r.param == "" {
			s.set("uniqueItems", true)
		}
		return nil
	}
	if class == classString {
		mirrorStringRule(s, r)
	}
	return nil
}

// mirrorRequired mirrors "required": a non-pointer value must not be its
// type's zero value (a pointer must only be present and not null).
func mirrorRequired(s *object, class valueClass, isPtr bool) {
	if isPtr {
		return // non-nil: present and not null
	}
	switch class {
	case classString:
		setBound(s, "minLength", "1", true)
	case classInt, classUint, classFloat:
		addKeyword(s, "not", &object{members: []member{{"const", number("0")}}})
	case classBool:
		s.set("const", true)
	}
}

// exactLength mirrors "len" (and "eq" on lists and maps): both bounds.
func exactLength(s *object, class valueClass, r rule) error {
	if err := lengthOrBound(s, class, r, "", true, 0); err != nil {
		return err
	}
	return lengthOrBound(s, class, r, "", false, 0)
}

// mirrorEquality mirrors "eq" (const) and "ne" (not const) on scalars; "eq"
// on a list or map is a length.
func mirrorEquality(s *object, class valueClass, r rule) error {
	var v any
	switch class {
	case classString:
		v = r.param
	case classInt, classUint, classFloat:
		n, err := numberParam(class, r.param)
		if err != nil {
			return err
		}
		v = n
	case classBool:
		b, err := strconv.ParseBool(r.param)
		if err != nil {
			return fmt.Errorf("parameter %q is not a boolean", r.param)
		}
		v = b
	case classList, classMap:
		if r.name == "eq" {
			return exactLength(s, class, r)
		}
		return nil
	default:
		return nil
	}
	if r.name == "eq" {
		s.set("const", v)
	} else {
		addKeyword(s, "not", &object{members: []member{{"const", v}}})
	}
	return nil
}

// mirrorOneOf mirrors "oneof" as an enum, intersected with one already
// there.
func mirrorOneOf(s *object, class valueClass, r rule) error {
	vals := splitOneOf(r.param)
	enum := make([]any, 0, len(vals))
	for _, v := range vals {
		switch class {
		case classString:
			enum = append(enum, v)
		case classInt, classUint:
			n, err := numberParam(class, v)
			if err != nil {
				return err
			}
			enum = append(enum, n)
		default:
			return fmt.Errorf("oneof works on strings and integers only: use it on such a field")
		}
	}
	if old, ok := s.get("enum"); ok {
		if list, ok := old.([]any); ok {
			enum = intersect(list, enum)
		}
	}
	s.set("enum", enum)
	return nil
}

// mirrorStringRule mirrors the rules on strings that become a format or a
// pattern: ip, datetime, contains/startswith/endswith, and those of
// ruleFormats and rulePatterns.
func mirrorStringRule(s *object, r rule) {
	switch r.name {
	case "ip":
		addKeyword(s, "anyOf", []any{
			&object{members: []member{{"format", "ipv4"}}},
			&object{members: []member{{"format", "ipv6"}}},
		})
		return
	case "datetime":
		switch r.param {
		case time.RFC3339:
			addKeyword(s, "format", "date-time")
		case time.DateOnly:
			addKeyword(s, "format", "date")
		}
		return
	case "contains", "startswith", "endswith":
		q := regexp.QuoteMeta(r.param)
		switch r.name {
		case "startswith":
			q = "^" + q
		case "endswith":
			q += "$"
		}
		addKeyword(s, "pattern", q)
		return
	}
	if f, ok := ruleFormats[r.name]; ok {
		addKeyword(s, "format", f)
	}
	if p, ok := rulePatterns[r.name]; ok {
		addKeyword(s, "pattern", p)
	}
}

// lengthOrBound mirrors a size rule: a length for strings, an item count for
// lists, a member count for maps, a bound for numbers. numKey names the
// numeric keyword; adjust turns gt/lt into a length bound (n+1, n-1).
func lengthOrBound(s *object, class valueClass, r rule, numKey string, lower bool, adjust int) error {
	switch class {
	case classString, classList, classMap:
		n, err := strconv.ParseInt(r.param, 0, 64)
		if err != nil {
			return fmt.Errorf("parameter %q is not an integer length", r.param)
		}
		n += int64(adjust)
		if n < 0 {
			n = 0
		}
		key := map[valueClass][2]string{
			classString: {"minLength", "maxLength"},
			classList:   {"minItems", "maxItems"},
			classMap:    {"minProperties", "maxProperties"},
		}[class]
		k := key[1]
		if lower {
			k = key[0]
		}
		setBound(s, k, number(strconv.FormatInt(n, 10)), lower)
	case classInt, classUint, classFloat:
		n, err := numberParam(class, r.param)
		if err != nil {
			return err
		}
		if numKey == "" { // len on a number: equality
			s.set("const", n)
			return nil
		}
		setBound(s, numKey, n, lower)
	}
	return nil
}

// numberParam parses a rule parameter the way the validator does for the
// field's kind and returns it as a JSON number.
func numberParam(class valueClass, p string) (number, error) {
	switch class {
	case classInt:
		n, err := strconv.ParseInt(p, 0, 64)
		if err != nil {
			return "", fmt.Errorf("parameter %q is not an integer", p)
		}
		return number(strconv.FormatInt(n, 10)), nil
	case classUint:
		n, err := strconv.ParseUint(p, 0, 64)
		if err != nil {
			return "", fmt.Errorf("parameter %q is not an unsigned integer", p)
		}
		return number(strconv.FormatUint(n, 10)), nil
	default:
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return "", fmt.Errorf("parameter %q is not a number", p)
		}
		return number(strconv.FormatFloat(f, 'g', -1, 64)), nil
	}
}

var oneOfSplit = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`'[^']*'|\S+`) })

// splitOneOf splits a oneof parameter like the validator: space separated,
// single quotes group words.
func splitOneOf(p string) []string {
	vals := oneOfSplit().FindAllString(p, -1)
	for i, v := range vals {
		vals[i] = strings.ReplaceAll(v, "'", "")
	}
	return vals
}

func intersect(a, b []any) []any {
	var out []any
	for _, x := range b {
		for _, y := range a {
			if string(encodeTree(x)) == string(encodeTree(y)) {
				out = append(out, x)
				break
			}
		}
	}
	return out
}
