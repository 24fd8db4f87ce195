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
// enforce them. The common ones are checked here, on the decoded Go value,
// which costs next to nothing; any other constraint makes Bind check the
// arguments against the whole schema instead (slower, but complete).

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

// tagKeysNative are the jsonschema tag keys checked natively.
var tagKeysNative = []string{
	"enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	"minLength", "maxLength", "pattern", "minItems", "maxItems",
}

// buildTagChecks reads the constraint keys of f's jsonschema tag, the way
// invopop/jsonschema applies them: to the value for strings and numbers, to
// the elements (and the count) for slices of strings or numbers. ok is
// false if some constraint needs the full schema check.
func buildTagChecks(f *fieldPlan) (tc *tagChecks, ok bool) {
	var keys []string
	for _, t := range f.stags {
		k, _, _ := strings.Cut(t, "=")
		if slices.Contains(constraintKeys, k) {
			keys = append(keys, t)
		}
	}
	if len(keys) == 0 {
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
		return nil, true // invopop ignores these tags on objects and any-values
	}
	if _, custom := shapeOf(base); custom != "" {
		return nil, false
	}
	if sh, _ := shapeOf(base); sh != shapeNormal {
		return nil, false
	}
	tc = &tagChecks{minItems: -1, maxItems: -1}
	class := classOf(base)
	target := &valueChecks{class: class, minLen: -1, maxLen: -1}
	if class == classList {
		elem := base.Elem()
		if elem.Kind() == reflect.Pointer || elem.Kind() == reflect.Slice || elem.Kind() == reflect.Array || elem.Kind() == reflect.Map || elem.Kind() == reflect.Struct {
			return nil, false
		}
		if sh, _ := shapeOf(elem); sh != shapeNormal {
			return nil, false
		}
		target.class = classOf(elem)
	}
	var enum []string
	var enumRats []*big.Rat
	for _, kv := range keys {
		k, v, _ := strings.Cut(kv, "=")
		if !slices.Contains(tagKeysNative, k) {
			return nil, false
		}
		if class == classList && (k == "minItems" || k == "maxItems") {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				continue // invopop drops it too
			}
			if k == "minItems" {
				tc.minItems = int(min(n, math.MaxInt32))
			} else {
				tc.maxItems = int(min(n, math.MaxInt32))
			}
			continue
		}
		switch target.class {
		case classString:
			switch k {
			case "enum":
				enum = append(enum, v)
			case "minLength", "maxLength":
				n, err := strconv.ParseUint(v, 10, 64)
				if err != nil {
					continue
				}
				if k == "minLength" {
					target.minLen = int(min(n, math.MaxInt32))
				} else {
					target.maxLen = int(min(n, math.MaxInt32))
				}
			case "pattern":
				re, err := regexp.Compile(v)
				if err != nil {
					return nil, false // the schema compile reports it
				}
				target.pattern, target.patternSrc = re, v
			default:
				continue // a number keyword on a string: ignored, like invopop
			}
		case classInt, classUint, classFloat:
			if !isJSONNumber(v) {
				continue
			}
			r, okR := new(big.Rat).SetString(v)
			if !okR {
				continue
			}
			isF32 := elemKind(base) == reflect.Float32
			switch k {
			case "enum":
				enum = append(enum, v)
				enumRats = append(enumRats, r)
			case "minimum":
				target.nums = append(target.nums, numCheck{k, msgCompare(">=", ratText(r)), bound(target.class, r, true, false, isF32)})
			case "maximum":
				target.nums = append(target.nums, numCheck{k, msgCompare("<=", ratText(r)), bound(target.class, r, false, false, isF32)})
			case "exclusiveMinimum":
				target.nums = append(target.nums, numCheck{k, msgCompare(">", ratText(r)), bound(target.class, r, true, true, isF32)})
			case "exclusiveMaximum":
				target.nums = append(target.nums, numCheck{k, msgCompare("<", ratText(r)), bound(target.class, r, false, true, isF32)})
			default:
				continue
			}
		default:
			return nil, false
		}
	}
	if len(enum) > 0 {
		if target.class == classString {
			target.enumStr = enum
		}
		vals := make([]string, len(enum))
		for i, e := range enum {
			if target.class == classString {
				b, _ := json.Marshal(e) // encoding a value for the message
				vals[i] = string(b)
			} else {
				vals[i] = e
			}
		}
		target.enumMsg = msgOneOf(vals)
		if target.class != classString {
			target.nums = append(target.nums, numCheck{"enum", target.enumMsg, oneOfNumbers(target.class, enumRats, elemKind(base) == reflect.Float32)})
		}
	}
	if class == classList {
		tc.items = target
	} else {
		tc.value = target
	}
	return tc, true
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

// elemKind is the kind of t, or of its elements for slices and arrays.
func elemKind(t reflect.Type) reflect.Kind {
	if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		return t.Elem().Kind()
	}
	return t.Kind()
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

// prepareTagChecks builds the tag checks of every field. It reports whether some constraint needs the full
// schema check instead. useRefs says named slice types became "$ref"s,
// which lose their tag constraints in invopop's output (so there is
// nothing to enforce).
func prepareTagChecks(a *analyzer, useRefs bool) (fallback bool) {
	for _, p := range a.plans {
		for _, f := range p.fields {
			if useRefs && f.plan.kind == planArray && f.plan.t.Name() != "" {
				continue
			}
			tc, ok := buildTagChecks(f)
			if !ok {
				fallback = true
				continue
			}
			f.checks = tc
		}
	}
	return fallback
}
