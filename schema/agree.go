package schema

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// A field's jsonschema tag and its validate tag may both say what values
// it takes. Said twice, it must be said the same way: the published
// schema merges the two (the tighter bound, the intersection of the
// value lists) while the tag's keywords and the validator each refuse
// with their own message, so enum=a,enum=b beside oneof=a c published
// ["a"] and refused b with `must be one of "a", "c"` and c with `must be
// one of "a", "b"`. For refuses such a field instead. Constraints that
// add to each other rather than restate one thing (two patterns, a
// pattern and a length) are both published and both enforced, and stay
// allowed.

// constraintGroup names what a keyword constrains: keywords of one group
// restate one thing (a lower bound, the set of values, ...).
func constraintGroup(key string) string {
	switch key {
	case "minimum", "exclusiveMinimum":
		return "lower bound"
	case "maximum", "exclusiveMaximum":
		return "upper bound"
	case "enum", "const":
		return "values"
	case "minLength":
		return "minimum length"
	case "maxLength":
		return "maximum length"
	case "minItems":
		return "minimum number of items"
	case "maxItems":
		return "maximum number of items"
	case "format":
		return "format"
	}
	return ""
}

// listLevelKeys are the jsonschema tag keys that apply to an array
// itself; its other keys apply to its items (see arrayKeywords).
var listLevelKeys = []string{"minItems", "maxItems", "uniqueItems", "default"}

// checkAgreement returns an error if a validate rule of field f restates,
// differently, a constraint f's jsonschema tag wrote into s, the field's
// schema before the rules are mirrored into it. For a slice field, the
// rules after dive are compared with the tag keys that apply to items.
func checkAgreement(s *object, f *fieldPlan) error {
	if f.quoted || len(f.stags) == 0 || f.rules == nil {
		return nil // numbers sent as strings: the rules are not mirrored
	}
	t := f.typ
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	class := classOf(t)
	if class != classList {
		return disagreement(s, f, f.rules, f.stags, class, f.typ.Kind() == reflect.Pointer, "")
	}
	var own, items []string
	for _, part := range f.stags {
		key, _, _ := strings.Cut(part, "=")
		if slices.Contains(listLevelKeys, key) {
			own = append(own, part)
		} else {
			items = append(items, part)
		}
	}
	if err := disagreement(s, f, f.rules, own, class, false, ""); err != nil {
		return err
	}
	is := s.getObject("items")
	if f.rules.dive == nil || is == nil {
		return nil
	}
	elem := t.Elem()
	return disagreement(is, f, f.rules.dive, items, classOf(elem), elem.Kind() == reflect.Pointer, "dive,")
}

// disagreement compares the rules of rs, on a value of class, with the
// keywords the tag parts wrote into s. prefix is put before a rule's
// text in the message ("dive," for the rules on items).
func disagreement(s *object, f *fieldPlan, rs *ruleSet, parts []string, class valueClass, isPtr bool, prefix string) error {
	for _, r := range rs.rules {
		if r.or || r.name == "required" {
			continue // required is presence, not a bound
		}
		var said object
		if mirrorRule(&said, class, isPtr, r) != nil {
			continue // mirror reports a bad parameter
		}
		for _, m := range said.members {
			group := constraintGroup(m.key)
			if group == "" {
				continue
			}
			key, val := tagKeyword(s, parts, group)
			if key == "" || sameConstraint(key, val, m.key, m.val) {
				continue
			}
			return fmt.Errorf("jsonschema tag %s and validate rule %s%s disagree about the %s: remove the jsonschema %s (the validate rule is published as well) or make the two say the same",
				tagText(parts, key), prefix, ruleText(r), group, key)
		}
	}
	return nil
}

// tagKeyword returns the keyword of the constraint group that the tag
// parts wrote into s, and its value, or "" if the tag wrote none.
func tagKeyword(s *object, parts []string, group string) (string, any) {
	for _, part := range parts {
		key, _, _ := strings.Cut(part, "=")
		if constraintGroup(key) != group {
			continue
		}
		if v, ok := s.get(key); ok {
			return key, v
		}
	}
	return "", nil
}

// tagText is the text of the tag parts with key, for messages:
// enum=a,enum=b.
func tagText(parts []string, key string) string {
	var out []string
	for _, part := range parts {
		if k, _, _ := strings.Cut(part, "="); k == key {
			out = append(out, part)
		}
	}
	return strings.Join(out, ",")
}

// sameConstraint reports whether keyword ka with value va says what kb
// with vb says: the same bound by the same keyword, the same set of
// values (an enum of one value and a const agree), the same format.
func sameConstraint(ka string, va any, kb string, vb any) bool {
	if ka == "const" {
		va, ka = []any{va}, "enum"
	}
	if kb == "const" {
		vb, kb = []any{vb}, "enum"
	}
	if ka != kb {
		return false
	}
	if ka != "enum" {
		return sameValue(va, vb)
	}
	la, _ := va.([]any)
	lb, _ := vb.([]any)
	in := func(x any, l []any) bool {
		return slices.ContainsFunc(l, func(y any) bool { return sameValue(x, y) })
	}
	for _, x := range la {
		if !in(x, lb) {
			return false
		}
	}
	for _, y := range lb {
		if !in(y, la) {
			return false
		}
	}
	return true
}

// sameValue reports whether two scalar values of the tree are equal,
// numbers by value (3 and 3.0 are one bound).
func sameValue(a, b any) bool {
	na, okA := a.(number)
	nb, okB := b.(number)
	if okA && okB {
		ra, okA := parseRat(na)
		rb, okB := parseRat(nb)
		if okA && okB {
			return ra.Cmp(rb) == 0
		}
	}
	return string(encodeTree(a)) == string(encodeTree(b))
}

// presenceAgreement returns an error if the tags of a field disagree
// about whether its member may be left out (or sent as null, which Bind
// takes as left out): the jsonschema tag's required (tagRequired) against
// a validate omit modifier or a default= (hasDefault), and nullable
// against validate's required.
func presenceAgreement(tagRequired, nullable, hasDefault bool, rs *ruleSet) error {
	omit := ""
	for _, m := range []string{"omitempty", "omitzero", "omitnil"} {
		if rs.has(m) {
			omit = m
			break
		}
	}
	switch {
	case tagRequired && omit != "":
		return fmt.Errorf("jsonschema tag required and validate rule %s disagree: the tag says the member must be sent, the rule lets it be left out: remove one", omit)
	case tagRequired && hasDefault:
		return fmt.Errorf("jsonschema tags required and default= disagree: a member with a default may be left out: remove required")
	case nullable && rs.required():
		return fmt.Errorf("jsonschema tag nullable and validate rule required disagree: null counts as left out, which required refuses: remove one")
	}
	return nil
}
