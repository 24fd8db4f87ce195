package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Bind decodes one call's arguments into a new value of GoType and checks
// them. The steps:
//
//  1. nil, empty or JSON null arguments mean {}; anything but an object is
//     an error.
//  2. One pass over the JSON finds syntax errors, duplicate member names,
//     missing required members (a required member must be present even if
//     its value is the zero value), nulls where the schema allows none,
//     unknown members under Options.Strict, and values that break
//     constraints from jsonschema tags (enum=, minimum=, pattern=, ...).
//  3. Missing members, and optional members sent as null, get their schema
//     defaults.
//  4. The arguments are decoded with github.com/go-json-experiment/json:
//     member names match exactly (case-sensitive), so {"Name":1} never
//     fills the field "name".
//  5. The validate tags are checked (go-playground/validator/v10), including
//     struct elements of slices and maps, as if "dive" were given. A member
//     present in the arguments is checked even when it is a zero value
//     that omitempty or omitzero would skip: only absence skips the rules
//     (see presence.go).
//  6. jsonschema-tag constraints that step 2 does not handle (format=,
//     multipleOf=, uniqueItems=, ...) are checked against the schema.
//
// Every failure comes back in one *ValidationError naming each bad value by
// its JSON path and rule. When the decoding itself fails (a value of the
// wrong type), the arguments are checked against the whole schema so that
// all problems are reported at once; issues found that way carry JSON Schema
// keyword names as rules.
//
// The returned value has type GoType (a pointer if GoType is one). For a
// Type from FromJSON it is a map[string]any. Bind is safe for concurrent use
// and never panics: a panic inside a type's own unmarshal method comes back
// as an error that is not a *ValidationError. It does not keep rawArgs.
func (t *Type) Bind(rawArgs json.RawMessage) (_ reflect.Value, err error) {
	args := jsontext.Value(rawArgs)
	defer func() {
		// Only a type's own UnmarshalText (or JSONSchema-described
		// UnmarshalJSON) method can panic here; that is a server bug, not
		// bad input, so it is an error but not a *ValidationError.
		if r := recover(); r != nil {
			err = fmt.Errorf("schema: binding arguments to %s panicked: %v", t.goType, r)
		}
	}()
	if t.raw != nil {
		return t.bindRaw(args)
	}
	data := normalizeArgs(args)
	sc := t.getScanner()
	defer t.putScanner(sc)

	var is issues
	rewrite, fatal := sc.scan(data, t.plan, &is)
	if fatal {
		return reflect.Value{}, is.err()
	}
	if rewrite {
		var err error
		data, err = sc.rewrite(data, t.plan)
		if err != nil {
			is.add(nil, "json", "invalid JSON: "+err.Error())
			return reflect.Value{}, is.err()
		}
	}
	ptr := reflect.New(t.plan.t)
	if err := jsonv2.Unmarshal(data, ptr.Interface()); err != nil {
		t.slowPath(data, err, &is)
		return reflect.Value{}, is.err()
	}
	var skip map[string]bool
	if !is.empty() {
		skip = make(map[string]bool, len(is.list))
		for _, x := range is.list {
			skip[x.Path] = true
		}
	}
	if t.plan.hasRules {
		if err := runValidatorSkip(ptr, t, skip, &is); err != nil {
			return reflect.Value{}, err
		}
	}
	if t.extraCheck {
		if err := extraValidate(ptr, t.plan, nil, &is); err != nil {
			return reflect.Value{}, err
		}
	}
	if len(sc.present) > 0 {
		if err := sc.checkPresent(ptr, t.plan, skip, &is); err != nil {
			return reflect.Value{}, err
		}
	}
	if t.schemaCheck {
		// Only report what the faster checks did not already say.
		all := make(map[string]bool, len(is.list))
		for _, x := range is.list {
			all[x.Path] = true
		}
		t.checkSchema(data, all, &is)
	}
	if !is.empty() {
		return reflect.Value{}, is.err()
	}
	if t.ptr {
		return ptr, nil
	}
	return ptr.Elem(), nil
}

func runValidatorSkip(ptr reflect.Value, t *Type, skip map[string]bool, is *issues) error {
	if skip == nil {
		return runValidator(ptr, t.plan, t.rootPrefix, nil, is)
	}
	var vis issues
	if err := runValidator(ptr, t.plan, t.rootPrefix, nil, &vis); err != nil {
		return err
	}
	for i, x := range vis.list {
		if !covered(x.Path, skip) {
			is.list = append(is.list, x)
			is.keys = append(is.keys, vis.keys[i])
		}
	}
	return nil
}

// covered reports whether p, or a value that contains it, already has an
// issue: a missing object explains the problems inside it.
func covered(p string, skip map[string]bool) bool {
	if skip[p] {
		return true
	}
	for i := 0; i < len(p); i++ {
		if (p[i] == '.' || p[i] == '[') && skip[p[:i]] {
			return true
		}
	}
	return false
}

// checkSchema checks data against the whole schema.
func (t *Type) checkSchema(data []byte, skip map[string]bool, is *issues) {
	inst, err := decodeInstance(data)
	if err != nil {
		return // the decoder accepted it; nothing more to say
	}
	if f := t.checker.Check(inst); f != nil {
		is.addFindings(f, inst, skip, t.plan)
	}
}

// slowPath runs after the decoder failed: the schema names every problem;
// if it finds none, the decoder's own error is reported.
func (t *Type) slowPath(data []byte, derr error, is *issues) {
	before := len(is.list)
	t.checkSchema(data, nil, is)
	if len(is.list) > before {
		return
	}
	var serr *jsonv2.SemanticError
	if errors.As(derr, &serr) {
		p := pointerPath(serr.JSONPointer, t.plan)
		want := planAt(serr.JSONPointer, t.plan)
		msg := "cannot be decoded"
		switch {
		case want != nil && want.jsonType != "" && serr.JSONKind != 0 && kindName(serr.JSONKind) == want.jsonType && serr.Err != nil:
			// The right JSON type, refused by the type itself (an
			// UnmarshalText method, base64).
			msg = "is not a valid " + want.t.String() + ": " + serr.Err.Error()
		case want != nil && want.jsonType != "":
			msg = "must be " + want.jsonType
			if serr.JSONKind != 0 {
				got := kindName(serr.JSONKind)
				if len(serr.JSONValue) > 0 && len(serr.JSONValue) < 40 {
					got += " " + string(serr.JSONValue)
				}
				msg += ", got " + got
			}
		case serr.Err != nil:
			msg = "cannot be decoded: " + serr.Err.Error()
		}
		is.add(p, "type", msg)
		return
	}
	is.add(nil, "json", "invalid JSON: "+derr.Error())
}

func kindName(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	case '"':
		return "string"
	case '0':
		return "number"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "value"
}

// normalizeArgs maps nil, empty and null arguments to {}.
func normalizeArgs(args jsontext.Value) []byte {
	b := bytes.TrimSpace(args)
	if len(b) == 0 || string(b) == "null" {
		return []byte("{}")
	}
	return b
}

// pointerPath converts a JSON Pointer to a path, using the plan to tell
// array indexes from member names.
func pointerPath(ptr jsontext.Pointer, p *plan) path {
	var out path
	for tok := range ptr.Tokens() {
		if p != nil && p.kind == planArray {
			if i, err := strconv.Atoi(tok); err == nil {
				out = out.item(i)
				p = p.elem
				continue
			}
		}
		out = out.member(tok)
		switch {
		case p == nil:
		case p.kind == planStruct:
			if f := p.byName[tok]; f != nil {
				p = f.plan
			} else {
				p = nil
			}
		case p.kind == planMap:
			p = p.elem
		default:
			p = nil
		}
	}
	return out
}

func planAt(ptr jsontext.Pointer, p *plan) *plan {
	for tok := range ptr.Tokens() {
		switch {
		case p == nil:
			return nil
		case p.kind == planStruct:
			f := p.byName[tok]
			if f == nil {
				return nil
			}
			p = f.plan
		case p.kind == planArray, p.kind == planMap:
			p = p.elem
		default:
			return nil
		}
	}
	return p
}
