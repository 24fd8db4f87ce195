package schema

import (
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-playground/validator/v10"
)

// Presence, not the zero value, decides what "optional" means.
//
// In a validate tag, omitempty and omitzero make the validator skip a zero
// value. The validator sees only the decoded struct, where a member left
// out and a member sent as 0, "" or false look the same. The schema says
// what the tag means to the model: the property may be left out, and a
// value that is given satisfies every rule (omitempty,min=1 is published
// as "minimum": 1, not as "0, or at least 1"). Bind keeps that promise: a
// member present in the arguments, and not null, is checked by every rule
// of its tag, zero or not; only absence (or null, which counts as absence)
// skips the rules. Elements of slices and maps are always present, so an
// omit modifier after dive skips nothing either.
//
// The validator still runs as it always has. The scanner notes each
// present member whose tag has an omit modifier; after the validator,
// checkPresent validates again the values the validator skipped, with the
// validator itself, on the tag without its omit modifiers. Rules that compare with other fields
// (eqfield, required_if, ...) are left out of that second pass: they need
// the whole struct, and the schema states none of them.

// presenceRules is how Bind checks one member when it is present.
type presenceRules struct {
	// tag is the validate tag without omitempty, omitzero and cross-field
	// rules; "" if nothing is left.
	tag string
	// top: an omit modifier applies to the member's own value.
	top bool
	// dive: an omit modifier applies to elements (after dive).
	dive bool
	// structVal: the member is a struct (or a pointer to one), which the
	// validator skips whole, fields and all, when it is zero.
	structVal bool
}

// newPresenceRules reads the validate tag vtag of a field of Go type t. It
// returns nil when the tag has no omit modifier that could skip a present
// value.
func newPresenceRules(vtag string, t reflect.Type) *presenceRules {
	if !strings.Contains(vtag, "omit") {
		return nil
	}
	pr := &presenceRules{}
	pr.tag, pr.top, pr.dive = presentTag(vtag)
	if !pr.top && !pr.dive {
		return nil
	}
	base := t
	for base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	pr.structVal = pr.top && base.Kind() == reflect.Struct && !base.ConvertibleTo(timeType)
	if pr.tag == "" && !pr.structVal {
		return nil
	}
	return pr
}

// presentTag returns the rules of validate tag vtag that a present value
// must satisfy: the tag without omitempty, omitzero and cross-field rules
// ("" if nothing is left to check). top and dive report whether an omit
// modifier applied to the value itself or to its elements.
func presentTag(vtag string) (tag string, top, dive bool) {
	if vtag == "" || vtag == "-" {
		return "", false, false
	}
	toks := strings.Split(vtag, ",")
	kept := make([]string, 0, len(toks))
	inDive := false
	for _, tok := range toks {
		switch tok {
		case "dive":
			inDive = true
		case "omitempty", "omitzero":
			if inDive {
				dive = true
			} else {
				top = true
			}
			continue
		}
		if tokenCrossField(tok) {
			continue
		}
		kept = append(kept, tok)
	}
	if onlyModifiers(kept) {
		return "", top, dive
	}
	return strings.Join(kept, ","), top, dive
}

// checkDefault reports, as an error for For, a default that the field's
// validate rules refuse: the schema would offer a value the server, when
// the model sends it, rejects. def is the default's JSON.
func checkDefault(typ reflect.Type, vtag string, def []byte) (err error) {
	tag, _, _ := presentTag(vtag)
	if tag == "" {
		return nil
	}
	probe := reflect.New(typ)
	if jsonv2.Unmarshal(def, probe.Interface()) != nil {
		return nil // defaultValue reports it
	}
	defer func() {
		if r := recover(); r != nil {
			err = nil // a malformed tag: the preflight reports it
		}
	}()
	verr := validate().Var(probe.Elem().Interface(), tag)
	var ves validator.ValidationErrors
	if errors.As(verr, &ves) && len(ves) > 0 {
		fe := ves[0]
		rule := fe.Tag()
		if fe.Param() != "" {
			rule += "=" + fe.Param()
		}
		return fmt.Errorf("the default %s breaks the rule %s", def, rule)
	}
	return nil
}

// tokenCrossField reports whether a validate tag token (maybe an a|b
// group) names a rule that depends on other fields.
func tokenCrossField(tok string) bool {
	for alt := range strings.SplitSeq(tok, "|") {
		name, _, _ := strings.Cut(alt, "=")
		if crossField(name) {
			return true
		}
	}
	return false
}

// onlyModifiers reports whether a tag's tokens check nothing by themselves.
func onlyModifiers(toks []string) bool {
	for _, t := range toks {
		switch t {
		case "", "dive", "keys", "endkeys", "omitnil":
		default:
			return false
		}
	}
	return true
}

// presentMember is a member the scanner met in the arguments, not null,
// whose rules carry an omit modifier: its path is
// scanner.presentSegs[start:end].
type presentMember struct {
	f          *fieldPlan
	start, end int
}

// notePresent records that member f, at the scanner's current path plus
// f.name, is present.
func (sc *scanner) notePresent(f *fieldPlan) {
	start := len(sc.presentSegs)
	sc.presentSegs = append(sc.presentSegs, sc.stack...)
	sc.presentSegs = append(sc.presentSegs, segment{name: f.name, index: -1})
	sc.present = append(sc.present, presentMember{f: f, start: start, end: len(sc.presentSegs)})
}

// checkPresent validates the present members the validator skipped
// because their value (or an element of it) is zero. root is the decoded
// struct (a pointer to it); issues at paths in skip, or inside them, are
// left out, as the scan already reported a problem there.
func (sc *scanner) checkPresent(root reflect.Value, rootPlan *plan, skip map[string]bool, is *issues) error {
	for _, pm := range sc.present {
		at := path(sc.presentSegs[pm.start:pm.end:pm.end])
		if skip != nil && covered(at.String(), skip) {
			continue
		}
		v, ok := valueAt(root, rootPlan, at)
		if !ok {
			continue
		}
		pr := pm.f.presence
		topZero := pr.top && zeroish(v)
		if !topZero && !(pr.dive && zeroishInside(v)) {
			continue // the validator did not skip it
		}
		var found issues
		if pr.structVal {
			if topZero && pm.f.plan.hasRules {
				if err := validateStructCopy(v, pm.f.plan, at, &found); err != nil {
					return err
				}
			}
		} else if err := runVar(v, pr.tag, pm.f.plan, at, &found); err != nil {
			return err
		}
		for i, x := range found.list {
			if skip == nil || !covered(x.Path, skip) {
				is.addFrom(&found, i)
			}
		}
	}
	return nil
}

// zeroish reports whether the validator's omitempty or omitzero may skip
// v: v, through pointers and interfaces, is the zero value, or an empty
// slice or map.
func zeroish(v reflect.Value) bool {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return false // null: absent, never recorded as present
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Map:
		return v.Len() == 0
	}
	return v.IsZero()
}

// zeroishInside reports whether some element or key of v, at any depth,
// is zeroish.
func zeroishInside(v reflect.Value) bool {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return false
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return false // []byte is one base64 string
		}
		for i := range v.Len() {
			if e := v.Index(i); zeroish(e) || zeroishInside(e) {
				return true
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if zeroish(iter.Key()) || zeroish(iter.Value()) || zeroishInside(iter.Value()) {
				return true
			}
		}
	}
	return false
}

// runVar validates v by tag with the validator and adds its issues at
// base (element issues below it, as the plan p reads them).
func runVar(v reflect.Value, tag string, p *plan, base path, is *issues) error {
	if tag == "" {
		return nil
	}
	return collect(p, "", base, is, func() error { return validate().Var(v.Interface(), tag) })
}

// validateStructCopy validates the struct v (through pointers) that the
// validator skipped whole.
func validateStructCopy(v reflect.Value, p *plan, at path, is *issues) error {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	ptr := reflect.New(v.Type())
	ptr.Elem().Set(v)
	prefix := ""
	if v.Type().Name() != "" {
		prefix = v.Type().Name() + "."
	}
	return runValidator(ptr, p, prefix, at, is)
}

// valueAt finds the value at path at inside v, of plan p.
func valueAt(v reflect.Value, p *plan, at path) (reflect.Value, bool) {
	for _, seg := range at {
		for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		if p == nil {
			return reflect.Value{}, false
		}
		switch p.kind {
		case planStruct:
			f := p.byName[seg.name]
			if f == nil || seg.index >= 0 {
				return reflect.Value{}, false
			}
			fv, err := v.FieldByIndexErr(f.index)
			if err != nil {
				return reflect.Value{}, false
			}
			v, p = fv, f.plan
		case planArray:
			if seg.index < 0 || seg.index >= v.Len() {
				return reflect.Value{}, false
			}
			v, p = v.Index(seg.index), p.elem
		case planMap:
			k, ok := mapKey(v.Type().Key(), seg.name)
			if !ok {
				return reflect.Value{}, false
			}
			e := v.MapIndex(k)
			if !e.IsValid() {
				return reflect.Value{}, false
			}
			v, p = e, p.elem
		default:
			return reflect.Value{}, false
		}
	}
	return v, true
}

// mapKey turns a JSON member name into a key of type kt, as the decoder
// does.
func mapKey(kt reflect.Type, name string) (reflect.Value, bool) {
	k := reflect.New(kt)
	if u, ok := k.Interface().(encoding.TextUnmarshaler); ok {
		return k.Elem(), u.UnmarshalText([]byte(name)) == nil
	}
	switch kt.Kind() {
	case reflect.String:
		k.Elem().SetString(name)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(name, 10, kt.Bits())
		if err != nil {
			return reflect.Value{}, false
		}
		k.Elem().SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(name, 10, kt.Bits())
		if err != nil {
			return reflect.Value{}, false
		}
		k.Elem().SetUint(n)
	default:
		return reflect.Value{}, false
	}
	return k.Elem(), true
}
