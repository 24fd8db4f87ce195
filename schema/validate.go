package schema

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/go-playground/validator/v10"
)

// validate returns the one validator the package uses, made on first use
// (making one fills its tables of rules, a cost a program that never
// validates need not pay at startup). *validator.Validate is safe for
// concurrent use; its only state is a cache of parsed struct tags.
var validate = sync.OnceValue(newValidator)

func newValidator() *validator.Validate {
	v := validator.New(validator.WithTagNameFuncBlankOmit())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			return f.Name
		}
		if f.Anonymous && name == "" {
			return "" // embedded: its fields are promoted, so no path segment
		}
		if name == "" {
			return f.Name
		}
		return name
	})
	return v
}

// preflight runs the validator once over the zero value of every struct
// type, so a malformed validate tag fails at registration, not on a call.
func preflight(a *analyzer) (err error) {
	for _, st := range a.structs {
		func() {
			defer func() {
				if v := recover(); v != nil {
					err = fmt.Errorf("schema: type %s: validate tag in %s: %v: fix the tag", a.root, st, v)
				}
			}()
			_ = validate().Struct(reflect.New(st).Interface())
		}()
		if err != nil {
			return err
		}
	}
	return nil
}

// markRules computes, per plan, whether it (or anything inside it) carries
// validate rules, and whether Bind must validate elements that the validator
// skips: the validator checks struct elements of slices and maps only under
// "dive", yet the schema describes their rules, so Bind enforces them
// always. Both are fixed points, since types can contain themselves.
func markRules(a *analyzer) {
	for _, p := range a.plans {
		for _, f := range p.fields {
			if f.vtag != "" && f.vtag != "-" {
				p.hasRules = true
			}
			f.dive = f.rules.dive != nil
		}
	}
	for changed := true; changed; {
		changed = false
		for _, p := range a.plans {
			if p.hasRules {
				continue
			}
			has := p.elem != nil && p.elem.hasRules
			for _, f := range p.fields {
				has = has || f.plan.hasRules
			}
			if has {
				p.hasRules, changed = true, true
			}
		}
	}
	// skipped reports whether the elements of a collection of plan e hold
	// something the validator does not check.
	skipped := func(e *plan, dived bool) bool {
		if e.kind != planArray && e.kind != planMap {
			return false
		}
		return e.elem.needsExtra || (e.elem.kind == planStruct && e.elem.hasRules && !dived)
	}
	for changed := true; changed; {
		changed = false
		for _, p := range a.plans {
			for _, f := range p.fields {
				need := skipped(f.plan, f.dive) || (f.plan.kind == planStruct && f.plan.needsExtra)
				if need && !f.extra {
					f.extra, changed = true, true
				}
				if need && !p.needsExtra {
					p.needsExtra, changed = true, true
				}
			}
			if skipped(p, false) && !p.needsExtra {
				p.needsExtra, changed = true, true
			}
		}
	}
}

// runValidator validates v (a pointer to a struct) and adds the issues.
// A panic inside the validator (a rule that does not fit a value) becomes
// an error, never a crash.
func runValidator(v reflect.Value, p *plan, prefix string, base path, is *issues) error {
	return collect(p, prefix, base, is, func() error { return validate().Struct(v.Interface()) })
}

// collect runs the validator through run and adds each failure it reports
// as an issue at its namespace, less prefix, read by the plan p below
// base. A panic inside the validator becomes an error.
func collect(p *plan, prefix string, base path, is *issues, run func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("schema: validator failed on %s: %v", p.t, r)
		}
	}()
	verr := run()
	if verr == nil {
		return nil
	}
	var ves validator.ValidationErrors
	if !errors.As(verr, &ves) {
		return fmt.Errorf("schema: validator: %w", verr)
	}
	for _, fe := range ves {
		is.addValidator(nsPath(strings.TrimPrefix(fe.Namespace(), prefix), p, base), fe)
	}
	return nil
}

// extraValidate validates, below v, the struct elements of slices and maps
// that the validator skipped (no "dive").
func extraValidate(v reflect.Value, p *plan, at path, is *issues) error {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	switch p.kind {
	case planStruct:
		for _, f := range p.fields {
			if !f.extra {
				continue
			}
			fv, err := v.FieldByIndexErr(f.index)
			if err != nil {
				continue // nil embedded pointer: nothing decoded there
			}
			if err := extraElems(fv, f.plan, !f.dive, at.member(f.name), is); err != nil {
				return err
			}
		}
	case planArray, planMap:
		return extraElems(v, p, false, at, is)
	}
	return nil
}

// extraElems handles one field value. validateElems says the validator did
// not dive into it, so struct elements need validating here.
func extraElems(v reflect.Value, p *plan, validateElems bool, at path, is *issues) error {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	switch p.kind {
	case planStruct:
		return extraValidate(v, p, at, is)
	case planArray:
		for i := range v.Len() {
			if err := extraElem(v.Index(i), p.elem, validateElems, at.item(i), is); err != nil {
				return err
			}
		}
	case planMap:
		iter := v.MapRange()
		for iter.Next() {
			key := fmt.Sprint(iter.Key().Interface())
			if err := extraElem(iter.Value(), p.elem, validateElems, at.member(key), is); err != nil {
				return err
			}
		}
	}
	return nil
}

func extraElem(e reflect.Value, p *plan, validateElems bool, at path, is *issues) error {
	for e.Kind() == reflect.Pointer || e.Kind() == reflect.Interface {
		if e.IsNil() {
			return nil
		}
		e = e.Elem()
	}
	if p.kind == planStruct && validateElems && p.hasRules {
		ptr := reflect.New(e.Type())
		ptr.Elem().Set(e)
		prefix := ""
		if e.Type().Name() != "" {
			prefix = e.Type().Name() + "."
		}
		if err := runValidator(ptr, p, prefix, at, is); err != nil {
			return err
		}
	}
	if p.needsExtra || p.kind == planStruct {
		return extraElems(e, p, true, at, is)
	}
	return nil
}

// nsPath turns a validator namespace (JSON names, root prefix removed) into
// a path, using the plan to tell names, indexes and map keys apart.
func nsPath(ns string, p *plan, base path) path {
	out := base
	for ns != "" && p != nil {
		switch p.kind {
		case planStruct:
			var best *fieldPlan
			for _, f := range p.fields {
				if strings.HasPrefix(ns, f.name) {
					rest := ns[len(f.name):]
					if (rest == "" || rest[0] == '.' || rest[0] == '[') && (best == nil || len(f.name) > len(best.name)) {
						best = f
					}
				}
			}
			if best == nil {
				return append(out, segment{name: ns, index: -1})
			}
			out = out.member(best.name)
			ns = strings.TrimPrefix(ns[len(best.name):], ".")
			p = best.plan
		case planArray:
			if ns[0] != '[' {
				return append(out, segment{name: ns, index: -1})
			}
			end := strings.IndexByte(ns, ']')
			if end < 0 {
				return append(out, segment{name: ns, index: -1})
			}
			var i int
			if _, err := fmt.Sscanf(ns[1:end], "%d", &i); err != nil {
				return append(out, segment{name: ns, index: -1})
			}
			out = out.item(i)
			ns = strings.TrimPrefix(ns[end+1:], ".")
			p = p.elem
		case planMap:
			if ns[0] != '[' {
				return append(out, segment{name: ns, index: -1})
			}
			end := -1
			for j := 1; j < len(ns); j++ {
				if ns[j] == ']' && (j+1 == len(ns) || ns[j+1] == '.' || ns[j+1] == '[') {
					end = j
					break
				}
			}
			if end < 0 {
				return append(out, segment{name: ns, index: -1})
			}
			out = out.member(ns[1:end])
			ns = strings.TrimPrefix(ns[end+1:], ".")
			p = p.elem
		default:
			return append(out, segment{name: ns, index: -1})
		}
	}
	return out
}

// addValidator records one validator failure with a message a model can act on.
func (is *issues) addValidator(p path, fe validator.FieldError) {
	tag, param := fe.Tag(), fe.Param()
	ruleText := tag
	if param != "" {
		ruleText += "=" + param
	}
	is.add(p, tag, validatorMessage(fe, tag, param, ruleText))
}

// validatorMessage is the message for a validator failure of rule tag
// (with param; ruleText is "tag=param") on a value of fe's type.
func validatorMessage(fe validator.FieldError, tag, param, ruleText string) string {
	t := fe.Type()
	isTime := t == timeType
	class := classOther
	if t != nil {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		isTime = t == timeType
		class = classOf(t)
	}
	if msg, ok := ruleMessages[tag]; ok {
		return msg
	}
	switch tag {
	case "required":
		return requiredMessage(class)
	case "min", "gte", "max", "lte", "gt", "lt", "len", "eq":
		return sizeMessage(tag, param, class, isTime)
	case "ne":
		return "must not be " + param
	case "oneof":
		vals := splitOneOf(param)
		if class == classString {
			for i, v := range vals {
				vals[i] = jsonString(v)
			}
		}
		return msgOneOf(vals)
	case "datetime":
		return "must be a date/time in the layout " + param
	case "contains":
		return "must contain " + fmt.Sprintf("%q", param)
	case "startswith":
		return "must start with " + fmt.Sprintf("%q", param)
	case "endswith":
		return "must end with " + fmt.Sprintf("%q", param)
	}
	return msgRule(ruleText)
}

// ruleMessages are the messages of the validator rules that take no
// parameter and mean the same on every type.
var ruleMessages = map[string]string{
	"unique":           msgUnique,
	"email":            "must be an email address",
	"url":              "must be a URL",
	"uri":              "must be a URL",
	"uuid":             "must be a UUID",
	"ipv4":             "must be an IPv4 address",
	"ipv6":             "must be an IPv6 address",
	"ip":               "must be an IP address",
	"hostname":         "must be a host name",
	"hostname_rfc1123": "must be a host name",
	"alpha":            "must contain only ASCII letters",
	"alphanum":         "must contain only ASCII letters and digits",
	"alphaunicode":     "must contain only letters",
	"alphanumunicode":  "must contain only letters and digits",
	"numeric":          "must be a number",
	"number":           "must contain only digits",
	"lowercase":        "must be lowercase",
	"uppercase":        "must be uppercase",
}

// requiredMessage is the message for "required" on a value of class.
func requiredMessage(class valueClass) string {
	switch class {
	case classString:
		return "must not be empty"
	case classInt, classUint, classFloat:
		return "must not be zero"
	case classBool:
		return "must be true"
	}
	// Left for the validator: a null interface (the scan refuses a
	// null pointer to a typed value itself).
	return msgNotNull
}

// sizeMessage is the message for a bound or size rule (min, gte, max, lte,
// gt, lt, len, eq) with param on a value of class: a length, count or
// number of entries for sized values, a moment for times (isTime), a
// comparison otherwise.
func sizeMessage(tag, param string, class valueClass, isTime bool) string {
	if msg, ok := timeMessages[tag]; ok && isTime {
		return msg
	}
	var unit string
	switch class {
	case classString:
		unit = count(param, unitCharacter)
	case classList:
		unit = count(param, unitItem)
	case classMap:
		unit = count(param, unitEntry)
	default:
		// Not sized: a number's (or a time's) bound or value.
		switch tag {
		case "min", "gte":
			return msgCompare(">=", param)
		case "max", "lte":
			return msgCompare("<=", param)
		case "gt":
			return msgCompare(">", param)
		case "lt":
			return msgCompare("<", param)
		}
		return "must be " + param // len, eq
	}
	switch tag {
	case "min", "gte":
		return msgAtLeast(unit)
	case "max", "lte":
		return msgAtMost(unit)
	case "gt":
		return "must have more than " + unit
	case "lt":
		return "must have fewer than " + unit
	case "eq":
		if class == classString {
			return "must be " + param
		}
	}
	return "must have exactly " + unit // len, and eq on a list or map
}

// timeMessages are the messages of the bound rules on a time, which the
// validator compares with now; len and eq compare with param.
var timeMessages = map[string]string{
	"min": "must not be in the past", "gte": "must not be in the past",
	"max": "must not be in the future", "lte": "must not be in the future",
	"gt": "must be in the future", "lt": "must be in the past",
}
