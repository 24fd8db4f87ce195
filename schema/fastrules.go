package schema

import (
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The validator walks a struct by reflection and allocates on every call,
// which costs more than decoding a small argument struct. Most argument
// structs are flat and use a few comparison rules, so For prepares, when
// it can, a direct check of them (fastRules) that answers whether the
// validator would accept a value. Bind runs it first and calls the
// validator only when it says no (the validator then words the issues),
// so a value is accepted exactly when the validator accepts it.

// fastRules checks the validate rules of a flat struct directly.
type fastRules struct {
	fields []fastField
}

type fastField struct {
	index     int
	kind      reflect.Kind
	omitempty bool // skip the rules when the value is the zero value
	rules     []fastRule
}

type ruleOp uint8

const (
	opRequired ruleOp = iota
	opGte             // gte, min
	opLte             // lte, max
	opGt
	opLt
	opLen
)

type fastRule struct {
	op ruleOp
	i  int64   // the parameter for int kinds and string lengths
	u  uint64  // for uint kinds
	f  float64 // for float kinds
}

// newFastRules returns the direct check of the validate rules of struct
// type st, or nil when the validator must run: st has an embedded field, a
// field the validator would walk into (a struct, a pointer, an interface),
// or a rule other than required, omitempty (first), gte, lte, gt, lt, min,
// max and len on a number or string, with a parameter the validator reads
// the same way.
func newFastRules(st reflect.Type) *fastRules {
	return newFastRulesFor(st, nil)
}

// newFastRulesFor is newFastRules, reusing the direct checks the analyzer
// made of the fields of p (the plan of st, or nil) where it can.
func newFastRulesFor(st reflect.Type, p *plan) *fastRules {
	if st.Kind() != reflect.Struct {
		return nil
	}
	var planned []*fieldPlan // p's fields, in index order, consumed as met
	if p != nil {
		planned = p.fields
	}
	fr := &fastRules{fields: make([]fastField, 0, st.NumField())}
	for i := range st.NumField() {
		f := st.Field(i)
		if f.Anonymous {
			return nil
		}
		if !f.IsExported() {
			continue // the validator skips unexported fields
		}
		for len(planned) > 0 && planned[0].index[0] < i {
			planned = planned[1:]
		}
		here := len(planned) > 0 && len(planned[0].index) == 1 && planned[0].index[0] == i
		var tag string
		if here {
			tag = planned[0].vtag // read by the analyzer
		} else {
			tag = f.Tag.Get("validate")
		}
		if tag == "-" {
			continue
		}
		k := f.Type.Kind()
		if tag == "" {
			switch k {
			case reflect.Struct, reflect.Pointer, reflect.Interface:
				return nil // the validator walks into them
			}
			continue
		}
		var ff fastField
		ok := false
		if here && planned[0].fastOK {
			ff, ok = planned[0].fast, true
			ff.index = i
		} else {
			ff, ok = newFastField(i, f.Type, tag)
		}
		if !ok {
			return nil
		}
		fr.fields = append(fr.fields, ff)
	}
	return fr
}

func newFastField(index int, t reflect.Type, tag string) (fastField, bool) {
	ff := fastField{index: index, kind: t.Kind()}
	switch ff.kind {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if t == durationType {
			return ff, false // the validator reads its parameters as durations
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.String:
	default:
		return ff, false
	}
	ff.rules = make([]fastRule, 0, strings.Count(tag, ",")+1)
	i := -1
	for r := range strings.SplitSeq(tag, ",") {
		i++
		name, param, hasParam := strings.Cut(r, "=")
		if strings.ContainsAny(r, "|") {
			return ff, false
		}
		var op ruleOp
		switch name {
		case "omitempty":
			if i != 0 || hasParam {
				return ff, false
			}
			ff.omitempty = true
			continue
		case "required":
			if hasParam {
				return ff, false
			}
			ff.rules = append(ff.rules, fastRule{op: opRequired})
			continue
		case "gte", "min":
			op = opGte
		case "lte", "max":
			op = opLte
		case "gt":
			op = opGt
		case "lt":
			op = opLt
		case "len":
			op = opLen
		default:
			return ff, false
		}
		if !hasParam {
			return ff, false
		}
		rule := fastRule{op: op}
		var err error
		switch ff.kind {
		case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			rule.i, err = strconv.ParseInt(param, 0, 64) // as the validator's asInt
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			rule.u, err = strconv.ParseUint(param, 0, 64) // asUint
		case reflect.Float32:
			rule.f, err = strconv.ParseFloat(param, 32) // asFloat32
		case reflect.Float64:
			rule.f, err = strconv.ParseFloat(param, 64) // asFloat64
		}
		if err != nil {
			return ff, false
		}
		ff.rules = append(ff.rules, rule)
	}
	return ff, true
}

// accepts reports whether the validator would accept the struct value v
// (of the type fr was made for).
func (fr *fastRules) accepts(v reflect.Value) bool {
	for i := range fr.fields {
		if !fr.fields[i].accepts(v.Field(fr.fields[i].index)) {
			return false
		}
	}
	return true
}

// accepts reports whether the validator would accept fv, the value of the
// field f was made for.
func (f *fastField) accepts(fv reflect.Value) bool {
	if f.omitempty && fv.IsZero() {
		return true
	}
	for _, r := range f.rules {
		if !r.holds(f.kind, fv) {
			return false
		}
	}
	return true
}

func (r *fastRule) holds(k reflect.Kind, v reflect.Value) bool {
	if r.op == opRequired {
		return !v.IsZero()
	}
	switch k {
	case reflect.String:
		return cmpOK(r.op, compare(int64(utf8.RuneCountInString(v.String())), r.i))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmpOK(r.op, compare(v.Int(), r.i))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return cmpOK(r.op, compare(v.Uint(), r.u))
	default: // floats
		x := v.Float()
		if x != x {
			return false // NaN: every comparison is false, as in the validator
		}
		return cmpOK(r.op, compare(x, r.f))
	}
}

func compare[T int64 | uint64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpOK(op ruleOp, c int) bool {
	switch op {
	case opGte:
		return c >= 0
	case opLte:
		return c <= 0
	case opGt:
		return c > 0
	case opLt:
		return c < 0
	default: // opLen
		return c == 0
	}
}
