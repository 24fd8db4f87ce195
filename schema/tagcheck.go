package schema

import (
	"encoding/json"
	"math"
	"math/big"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// Constraints written in jsonschema tags (enum=, minimum=, pattern=, ...)
// are not known to the validator, yet the schema states them, so Bind must
// enforce them. The common ones are checked here, while scanning the
// arguments, from the keywords the tag wrote into the field's schema (so
// what is checked is what is published); any other keyword makes Bind
// check the arguments against the whole schema instead (complete, but
// dear). The native checks stay for their figure: without them, a
// tools/call over stdio of a tool with one jsonschema maximum= took 32.8
// instead of 26.6 us one call at a time and 20.1 instead of 7.9 us with 16
// in flight (medians of 5 interleaved runs), far over the 10% bar.

// tagChecks holds the checks from one field's jsonschema tag.
type tagChecks struct {
	value *valueChecks // the field's value
	items *valueChecks // each element of a slice or array field
	// element count bounds for slice and array fields; -1 if unset
	minItems, maxItems int
}

// valueChecks checks one string or number.
type valueChecks struct {
	class valueClass
	// strings
	enumStr    []string
	minLen     int // -1 if unset
	maxLen     int // -1 if unset
	pattern    *regexp.Regexp
	patternSrc string
	// numbers: each check is a predicate built once, so a call allocates
	// nothing
	nums    []numCheck
	enumMsg string
}

type numCheck struct {
	rule, msg string
	ok        func(num) bool
}

// num is a JSON number read as the field's kind.
type num struct {
	i int64
	u uint64
	f float64
}

// buildTagChecks prepares the native checks of field f from s, the schema
// describe.go made for it (through a nullable wrapper, before
// validate rules are mirrored into it): the checks read the very keywords
// the published schema states, so the two cannot disagree. Only a field
// whose jsonschema tag uses a constraint key gets checks. Strings and
// numbers are checked themselves, slices of them by element count and
// element. ok is false if some keyword needs the full schema check.
func buildTagChecks(f *fieldPlan, s *object) (tc *tagChecks, ok bool) {
	if !hasConstraintKey(f.stags) {
		return nil, true
	}
	if f.quoted {
		return nil, false
	}
	base := f.typ
	for base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	if f.plan.kind != planOpaque && f.plan.kind != planArray {
		return nil, true // tags write no constraints for objects and any-values
	}
	if sh, bad := shapeOf(base); sh != shapeNormal || bad != "" {
		return nil, false
	}
	tc = &tagChecks{minItems: -1, maxItems: -1}
	class := classOf(base)
	node := s
	if class == classList {
		elem := base.Elem()
		switch elem.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map, reflect.Struct, reflect.Interface:
			return nil, false
		}
		if sh, _ := shapeOf(elem); sh != shapeNormal {
			return nil, false
		}
		for _, m := range s.members {
			var n *int
			switch m.key {
			case "minItems":
				n = &tc.minItems
			case "maxItems":
				n = &tc.maxItems
			case "items":
				continue
			default:
				if !annotation(m.key, m.val, "array") {
					return nil, false
				}
				continue
			}
			v, ok := countValue(m.val)
			if !ok {
				return nil, false
			}
			*n = v
		}
		if node = s.getObject("items"); node == nil {
			return nil, false
		}
		base = elem
	}
	elemPlan := f.plan
	if class == classList {
		elemPlan = f.plan.elem
	}
	vc, ok := newValueChecks(node, classOf(base), elemPlan.jsonType, base.Kind() == reflect.Float32)
	if !ok {
		return nil, false
	}
	if class == classList {
		tc.items = vc
	} else {
		tc.value = vc
	}
	return tc, true
}

// hasConstraintKey reports whether jsonschema tag parts use a key that
// constrains values.
func hasConstraintKey(stags []string) bool {
	for _, t := range stags {
		k, _, _ := strings.Cut(t, "=")
		if slices.Contains(constraintKeys, k) {
			return true
		}
	}
	return false
}

// annotation reports whether a keyword with value val constrains nothing
// beyond what the decoder enforces for a value of JSON type jsonType.
func annotation(key string, val any, jsonType string) bool {
	switch key {
	case "type":
		return val == jsonType // a type= tag that changes it needs the schema check
	case "title", "description", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly":
		return true
	}
	return strings.HasPrefix(key, "x-")
}

// countValue reads a non-negative integer keyword value.
func countValue(v any) (int, bool) {
	n, ok := v.(number)
	if !ok {
		return 0, false
	}
	u, err := strconv.ParseUint(string(n), 10, 64)
	if err != nil {
		return 0, false
	}
	return int(min(u, math.MaxInt32)), true
}

// newValueChecks reads the keywords of the schema s of a string or number
// of class class and JSON type jsonType. ok is false if s has a keyword it
// does not check.
func newValueChecks(s *object, class valueClass, jsonType string, f32 bool) (*valueChecks, bool) {
	vc := &valueChecks{class: class, minLen: -1, maxLen: -1}
	for _, m := range s.members {
		if annotation(m.key, m.val, jsonType) {
			continue
		}
		var ok bool
		switch class {
		case classString:
			ok = vc.stringKeyword(m)
		case classInt, classUint, classFloat:
			ok = vc.numberKeyword(m, f32)
		}
		if !ok {
			return nil, false
		}
	}
	return vc, true
}

// stringKeyword reads keyword m of a string's schema into vc; it reports
// false for a keyword it does not check.
func (vc *valueChecks) stringKeyword(m member) bool {
	switch m.key {
	case "enum":
		list, ok := m.val.([]any)
		if !ok {
			return false
		}
		for _, e := range list {
			str, ok := e.(string)
			if !ok {
				return false
			}
			vc.enumStr = append(vc.enumStr, str)
		}
		vc.enumMsg = enumMessage(list)
	case "minLength", "maxLength":
		n, ok := countValue(m.val)
		if !ok {
			return false
		}
		if m.key == "minLength" {
			vc.minLen = n
		} else {
			vc.maxLen = n
		}
	case "pattern":
		src, ok := m.val.(string)
		if !ok {
			return false
		}
		re, err := regexp.Compile(src)
		if err != nil {
			return false // the schema compile reports it
		}
		vc.pattern, vc.patternSrc = re, src
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		// number keywords do not apply to strings
	default:
		return false
	}
	return true
}

// numberKeyword reads keyword m of a number's schema into vc (f32: the Go
// type is a float32); it reports false for a keyword it does not check.
func (vc *valueChecks) numberKeyword(m member, f32 bool) bool {
	class := vc.class
	switch m.key {
	case "minLength", "maxLength", "pattern":
		return true // string keywords do not apply to numbers
	case "enum":
		list, ok := m.val.([]any)
		if !ok {
			return false
		}
		rats := make([]*big.Rat, 0, len(list))
		for _, e := range list {
			n, ok := e.(number)
			if !ok {
				return false
			}
			r, ok := parseRat(n)
			if !ok {
				return false
			}
			rats = append(rats, r)
		}
		vc.enumMsg = enumMessage(list)
		vc.nums = append(vc.nums, numCheck{"enum", vc.enumMsg, oneOfNumbers(class, rats, f32)})
		return true
	}
	n, ok := m.val.(number)
	if !ok {
		return false
	}
	r, ok := parseRat(n)
	if !ok {
		return false
	}
	var c numCheck
	switch m.key {
	case "minimum":
		c = numCheck{m.key, msgCompare(">=", ratText(r)), bound(class, r, true, false, f32)}
	case "maximum":
		c = numCheck{m.key, msgCompare("<=", ratText(r)), bound(class, r, false, false, f32)}
	case "exclusiveMinimum":
		c = numCheck{m.key, msgCompare(">", ratText(r)), bound(class, r, true, true, f32)}
	case "exclusiveMaximum":
		c = numCheck{m.key, msgCompare("<", ratText(r)), bound(class, r, false, true, f32)}
	default:
		return false
	}
	vc.nums = append(vc.nums, c)
	return true
}

// enumMessage words a failed enum of the given values.
func enumMessage(vals []any) string {
	words := make([]string, len(vals))
	for i, v := range vals {
		if str, ok := v.(string); ok {
			b, _ := json.Marshal(str) // as the schema check words it
			words[i] = string(b)
		} else {
			words[i] = string(encodeTree(v))
		}
	}
	return msgOneOf(words)
}

func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// checkString checks a JSON string value.
func (vc *valueChecks) checkString(str string, add func(rule, msg string)) {
	if vc.class != classString {
		return
	}
	if vc.enumStr != nil && !slices.Contains(vc.enumStr, str) {
		add("enum", vc.enumMsg)
	}
	if vc.minLen >= 0 || vc.maxLen >= 0 {
		n := utf8.RuneCountInString(str)
		if vc.minLen >= 0 && n < vc.minLen {
			add("minLength", msgAtLeast(countInt(vc.minLen, unitCharacter)))
		}
		if vc.maxLen >= 0 && n > vc.maxLen {
			add("maxLength", msgAtMost(countInt(vc.maxLen, unitCharacter)))
		}
	}
	if vc.pattern != nil && !vc.pattern.MatchString(str) {
		add("pattern", msgPattern(vc.patternSrc))
	}
}

// checkNumber checks a JSON number token. A number the field's kind cannot
// hold is left to the decoder, which reports it.
func (vc *valueChecks) checkNumber(tok jsontext.Token, add func(rule, msg string)) {
	if len(vc.nums) == 0 {
		return
	}
	var n num
	var err error
	switch vc.class {
	case classInt:
		n.i, err = tok.Int()
	case classUint:
		n.u, err = tok.Uint()
	case classFloat:
		n.f, err = tok.Float()
	default:
		return
	}
	if err != nil {
		return
	}
	for _, c := range vc.nums {
		if !c.ok(n) {
			add(c.rule, c.msg)
		}
	}
}

// checkToken checks a scalar token against vc.
func (vc *valueChecks) checkToken(tok jsontext.Token, add func(rule, msg string)) {
	switch tok.Kind() {
	case '"':
		vc.checkString(tok.String(), add)
	case '0':
		vc.checkNumber(tok, add)
	}
}

var (
	minInt64  = big.NewInt(math.MinInt64)
	maxInt64  = big.NewInt(math.MaxInt64)
	maxUint64 = new(big.Int).SetUint64(math.MaxUint64)
)

// floorCeil returns floor(r) and ceil(r).
func floorCeil(r *big.Rat) (*big.Int, *big.Int) {
	fl := new(big.Int).Div(r.Num(), r.Denom()) // Euclidean: floor for a positive divisor
	ce := new(big.Int).Set(fl)
	if !r.IsInt() {
		ce.Add(ce, big.NewInt(1))
	}
	return fl, ce
}

// bound builds the predicate v >= r (lower), v > r (lower, exclusive),
// v <= r or v < r, exact for integers. Floats compare at the field's own
// precision, as the JSON number that produced them would.
func bound(class valueClass, r *big.Rat, lower, exclusive, f32 bool) func(num) bool {
	switch class {
	case classInt, classUint:
		fl, ce := floorCeil(r)
		// Integer threshold t: lower bounds need v >= t, upper bounds v <= t.
		var t *big.Int
		switch {
		case lower && exclusive:
			t = new(big.Int).Add(fl, big.NewInt(1))
		case lower:
			t = ce
		case exclusive:
			t = new(big.Int).Sub(ce, big.NewInt(1))
		default:
			t = fl
		}
		always := func(b bool) func(num) bool { return func(num) bool { return b } }
		if class == classInt {
			switch {
			case t.Cmp(minInt64) < 0:
				return always(lower)
			case t.Cmp(maxInt64) > 0:
				return always(!lower)
			}
			ti := t.Int64()
			if lower {
				return func(v num) bool { return v.i >= ti }
			}
			return func(v num) bool { return v.i <= ti }
		}
		switch {
		case t.Sign() < 0:
			return always(lower)
		case t.Cmp(maxUint64) > 0:
			return always(!lower)
		}
		tu := t.Uint64()
		if lower {
			return func(v num) bool { return v.u >= tu }
		}
		return func(v num) bool { return v.u <= tu }
	}
	f, _ := r.Float64()
	if f32 {
		f = float64(float32(f))
	}
	switch {
	case lower && exclusive:
		return func(v num) bool { return v.f > f }
	case lower:
		return func(v num) bool { return v.f >= f }
	case exclusive:
		return func(v num) bool { return v.f < f }
	}
	return func(v num) bool { return v.f <= f }
}

// oneOfNumbers builds the predicate "v is one of vals".
func oneOfNumbers(class valueClass, vals []*big.Rat, f32 bool) func(num) bool {
	switch class {
	case classInt:
		var set []int64
		for _, r := range vals {
			if r.IsInt() && r.Num().IsInt64() {
				set = append(set, r.Num().Int64())
			}
		}
		return func(v num) bool { return slices.Contains(set, v.i) }
	case classUint:
		var set []uint64
		for _, r := range vals {
			if r.IsInt() && r.Num().IsUint64() {
				set = append(set, r.Num().Uint64())
			}
		}
		return func(v num) bool { return slices.Contains(set, v.u) }
	}
	var set []float64
	for _, r := range vals {
		f, _ := r.Float64()
		if f32 {
			f = float64(float32(f))
		}
		set = append(set, f)
	}
	return func(v num) bool { return slices.Contains(set, v.f) }
}
