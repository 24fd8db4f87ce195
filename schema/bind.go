package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	if t.plan.hasRules && (skip != nil || t.fast == nil || !t.fast.accepts(ptr.Elem())) {
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

// checkSchema validates data against the compiled schema.
func (t *Type) checkSchema(data []byte, skip map[string]bool, is *issues) {
	sch, err := t.compiled()
	if err != nil {
		is.add(nil, "schema", err.Error())
		return
	}
	inst, err := decodeInstance(data)
	if err != nil {
		return // the decoder accepted it; nothing more to say
	}
	if verr := sch.Validate(inst); verr != nil {
		is.addSchemaIssues(verr, inst, skip, t.plan)
	}
}

// slowPath runs after the decoder failed: the schema names every problem;
// if it finds none, the decoder's own error is reported.
func (t *Type) slowPath(data []byte, derr error, is *issues) {
	before := len(is.list)
	if sch, err := t.compiled(); err == nil {
		if inst, err := decodeInstance(data); err == nil {
			if verr := sch.Validate(inst); verr != nil {
				is.addSchemaIssues(verr, inst, nil, t.plan)
			}
		}
	}
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

// scanner makes one pass over the arguments, guided by the plan, before
// they are decoded: it finds missing required members, nulls where no null
// is allowed, unknown members (Strict) and syntax errors, and notes whether
// defaults must be filled in. Scanners are pooled per Type.
type scanner struct {
	in    bytes.Buffer
	dec   jsontext.Decoder
	out   bytes.Buffer
	enc   jsontext.Encoder
	stack []segment
	// present lists the members met whose rules have an omit modifier
	// (see presence.go); their paths live in presentSegs.
	present     []presentMember
	presentSegs []segment
}

func (t *Type) getScanner() *scanner {
	if sc, ok := t.scanners.Get().(*scanner); ok {
		return sc
	}
	return new(scanner)
}

// putScanner returns sc to the pool without keeping the caller's bytes
// (or a large rewrite buffer) alive.
func (t *Type) putScanner(sc *scanner) {
	sc.in = bytes.Buffer{}
	sc.dec.Reset(&sc.in)
	clear(sc.present) // drops the field plans
	sc.present = sc.present[:0]
	clear(sc.presentSegs) // and the member names read from the arguments
	sc.presentSegs = sc.presentSegs[:0]
	if sc.out.Cap() > 64<<10 {
		sc.out = bytes.Buffer{}
	}
	t.scanners.Put(sc)
}

func (sc *scanner) reset(data []byte) {
	sc.in = *bytes.NewBuffer(data)
	sc.dec.Reset(&sc.in)
	sc.stack = sc.stack[:0]
}

func (sc *scanner) here() path { return path(sc.stack) }

// scan reports whether defaults must be filled in, and whether the
// arguments are unusable (the issues say why).
func (sc *scanner) scan(data []byte, root *plan, is *issues) (rewrite, fatal bool) {
	sc.reset(data)
	sc.present, sc.presentSegs = sc.present[:0], sc.presentSegs[:0]
	if k := sc.dec.PeekKind(); k != '{' {
		if k == 0 {
			_, err := sc.dec.ReadToken()
			sc.syntaxIssue(err, root, is)
			return false, true
		}
		is.add(nil, "type", "arguments must be a JSON object, got "+kindName(k))
		return false, true
	}
	rewrite, err := sc.value(root, is)
	if err != nil {
		sc.syntaxIssue(err, root, is)
		return false, true
	}
	if _, err := sc.dec.ReadToken(); err != io.EOF {
		if err == nil {
			err = errors.New("unexpected data after the arguments object")
		}
		sc.syntaxIssue(err, root, is)
		return false, true
	}
	return rewrite, false
}

func (sc *scanner) syntaxIssue(err error, root *plan, is *issues) {
	if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
		is.add(nil, "json", "invalid JSON: unexpected end of input")
		return
	}
	var serr *jsontext.SyntacticError
	if errors.As(err, &serr) {
		p := pointerPath(serr.JSONPointer, root)
		if errors.Is(err, jsontext.ErrDuplicateName) {
			is.add(p, "duplicate", "duplicate member name: send each member once")
			return
		}
		is.add(p, "json", "invalid JSON: "+serr.Err.Error())
		return
	}
	is.add(nil, "json", "invalid JSON: "+err.Error())
}

// value scans one value of plan p.
func (sc *scanner) value(p *plan, is *issues) (rewrite bool, err error) {
	switch p.kind {
	case planStruct:
		if sc.dec.PeekKind() != '{' {
			return false, sc.dec.SkipValue() // wrong type: the decoder will say so
		}
		return sc.object(p, is)
	case planArray:
		if sc.dec.PeekKind() != '[' {
			return false, sc.dec.SkipValue()
		}
		if _, err := sc.dec.ReadToken(); err != nil {
			return false, err
		}
		for i := 0; sc.dec.PeekKind() != ']'; i++ {
			sc.stack = append(sc.stack, segment{index: i})
			r, err := sc.element(p.elem, is)
			sc.stack = sc.stack[:len(sc.stack)-1]
			if err != nil {
				return false, err
			}
			rewrite = rewrite || r
		}
		_, err := sc.dec.ReadToken()
		return rewrite, err
	case planMap:
		if sc.dec.PeekKind() != '{' {
			return false, sc.dec.SkipValue()
		}
		if _, err := sc.dec.ReadToken(); err != nil {
			return false, err
		}
		for sc.dec.PeekKind() != '}' {
			tok, err := sc.dec.ReadToken()
			if err != nil {
				return false, err
			}
			sc.stack = append(sc.stack, segment{name: tok.String(), index: -1})
			r, err := sc.element(p.elem, is)
			sc.stack = sc.stack[:len(sc.stack)-1]
			if err != nil {
				return false, err
			}
			rewrite = rewrite || r
		}
		_, err := sc.dec.ReadToken()
		return rewrite, err
	}
	return false, sc.dec.SkipValue()
}

// element scans an array element or map value, where null is not allowed
// unless the element is an interface.
func (sc *scanner) element(p *plan, is *issues) (bool, error) {
	if sc.dec.PeekKind() == 'n' {
		if p.kind != planAny {
			is.add(sc.here(), "type", nullMessage(p))
		}
		return false, sc.dec.SkipValue()
	}
	return sc.value(p, is)
}

func nullMessage(p *plan) string {
	if p.jsonType == "" {
		return "must not be null"
	}
	return "must be " + p.jsonType + ", got null"
}

func (sc *scanner) object(p *plan, is *issues) (rewrite bool, err error) {
	if _, err := sc.dec.ReadToken(); err != nil {
		return false, err
	}
	var seenSmall uint64
	var seenBig []bool
	if len(p.fields) > 64 {
		seenBig = make([]bool, len(p.fields))
	}
	for sc.dec.PeekKind() != '}' {
		tok, err := sc.dec.ReadToken()
		if err != nil {
			return false, err
		}
		f := p.byName[tok.String()]
		if f == nil {
			if p.strict {
				name := tok.String()
				sc.stack = append(sc.stack, segment{name: name, index: -1})
				is.add(sc.here(), "unknown", unknownMessage(p))
				sc.stack = sc.stack[:len(sc.stack)-1]
			}
			if err := sc.dec.SkipValue(); err != nil {
				return false, err
			}
			continue
		}
		if sc.dec.PeekKind() == 'n' {
			switch {
			case f.nullable || f.plan.kind == planAny:
				mark(&seenSmall, seenBig, f.ordinal)
			case f.required:
				mark(&seenSmall, seenBig, f.ordinal)
				sc.stack = append(sc.stack, segment{name: f.name, index: -1})
				is.add(sc.here(), "type", nullMessage(f.plan))
				sc.stack = sc.stack[:len(sc.stack)-1]
			default:
				// An optional member sent as null counts as absent.
			}
			if err := sc.dec.SkipValue(); err != nil {
				return false, err
			}
			continue
		}
		mark(&seenSmall, seenBig, f.ordinal)
		if f.presence != nil {
			sc.notePresent(f)
		}
		if f.checks != nil {
			sc.stack = append(sc.stack, segment{name: f.name, index: -1})
			err := sc.checked(f, is)
			sc.stack = sc.stack[:len(sc.stack)-1]
			if err != nil {
				return false, err
			}
			continue
		}
		if f.plan.kind == planOpaque || f.plan.kind == planAny {
			if err := sc.dec.SkipValue(); err != nil {
				return false, err
			}
			continue
		}
		sc.stack = append(sc.stack, segment{name: f.name, index: -1})
		r, err := sc.value(f.plan, is)
		sc.stack = sc.stack[:len(sc.stack)-1]
		if err != nil {
			return false, err
		}
		rewrite = rewrite || r
	}
	if _, err := sc.dec.ReadToken(); err != nil {
		return false, err
	}
	for _, f := range p.fields {
		if seen(seenSmall, seenBig, f.ordinal) {
			continue
		}
		if f.def != nil {
			rewrite = true
		} else if f.required {
			sc.stack = append(sc.stack, segment{name: f.name, index: -1})
			is.add(sc.here(), "required", msgRequired)
			sc.stack = sc.stack[:len(sc.stack)-1]
		}
	}
	return rewrite, nil
}

// checked scans the value of a field with jsonschema-tag constraints and
// checks them: a string or number, or a slice of them (element count and
// each element). A value of the wrong type is left to the decoder.
func (sc *scanner) checked(f *fieldPlan, is *issues) error {
	tc := f.checks
	report := func(rule, msg string) { is.add(sc.here(), rule, msg) }
	if tc.value != nil {
		if k := sc.dec.PeekKind(); k != '"' && k != '0' {
			return sc.dec.SkipValue()
		}
		tok, err := sc.dec.ReadToken()
		if err != nil {
			return err
		}
		tc.value.checkToken(tok, report)
		return nil
	}
	if sc.dec.PeekKind() != '[' {
		return sc.dec.SkipValue()
	}
	if _, err := sc.dec.ReadToken(); err != nil {
		return err
	}
	n := 0
	for ; sc.dec.PeekKind() != ']'; n++ {
		sc.stack = append(sc.stack, segment{index: n})
		var err error
		switch k := sc.dec.PeekKind(); {
		case k == 'n':
			report("type", nullMessage(f.plan.elem))
			err = sc.dec.SkipValue()
		case tc.items != nil && (k == '"' || k == '0'):
			var tok jsontext.Token
			if tok, err = sc.dec.ReadToken(); err == nil {
				tc.items.checkToken(tok, report)
			}
		default:
			err = sc.dec.SkipValue()
		}
		sc.stack = sc.stack[:len(sc.stack)-1]
		if err != nil {
			return err
		}
	}
	if _, err := sc.dec.ReadToken(); err != nil {
		return err
	}
	if tc.minItems >= 0 && n < tc.minItems {
		report("minItems", "must have at least "+countInt(tc.minItems, unitItem))
	}
	if tc.maxItems >= 0 && n > tc.maxItems {
		report("maxItems", "must have at most "+countInt(tc.maxItems, unitItem))
	}
	return nil
}

func unknownMessage(p *plan) string {
	if len(p.fields) == 0 {
		return msgUnknown + ": this object takes no fields"
	}
	var b []byte
	b = append(b, msgUnknown+"; known fields: "...)
	for i, f := range p.fields {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, f.name...)
	}
	return string(b)
}

func mark(small *uint64, big []bool, i int) {
	if big != nil {
		big[i] = true
		return
	}
	*small |= 1 << uint(i)
}

func seen(small uint64, big []bool, i int) bool {
	if big != nil {
		return big[i]
	}
	return small&(1<<uint(i)) != 0
}

// rewrite copies data, filling in defaults for missing members (and for
// optional members sent as null).
func (sc *scanner) rewrite(data []byte, root *plan) ([]byte, error) {
	sc.reset(data)
	sc.out.Reset()
	sc.enc.Reset(&sc.out)
	if err := sc.copyValue(root); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(bytes.Clone(sc.out.Bytes())), nil
}

func (sc *scanner) copyRaw() error {
	v, err := sc.dec.ReadValue()
	if err != nil {
		return err
	}
	return sc.enc.WriteValue(v)
}

func (sc *scanner) copyToken() error {
	tok, err := sc.dec.ReadToken()
	if err != nil {
		return err
	}
	return sc.enc.WriteToken(tok)
}

func (sc *scanner) copyValue(p *plan) error {
	switch p.kind {
	case planStruct:
		if sc.dec.PeekKind() != '{' {
			return sc.copyRaw()
		}
		if err := sc.copyToken(); err != nil {
			return err
		}
		var seenSmall uint64
		var seenBig []bool
		if len(p.fields) > 64 {
			seenBig = make([]bool, len(p.fields))
		}
		for sc.dec.PeekKind() != '}' {
			tok, err := sc.dec.ReadToken()
			if err != nil {
				return err
			}
			name := tok.String()
			f := p.byName[name]
			if f != nil && sc.dec.PeekKind() == 'n' && !f.required && !f.nullable && f.plan.kind != planAny && f.def != nil {
				if err := sc.dec.SkipValue(); err != nil { // replaced by the default below
					return err
				}
				continue
			}
			if err := sc.enc.WriteToken(jsontext.String(name)); err != nil {
				return err
			}
			if f == nil {
				if err := sc.copyRaw(); err != nil {
					return err
				}
				continue
			}
			mark(&seenSmall, seenBig, f.ordinal)
			if sc.dec.PeekKind() == 'n' {
				if err := sc.copyRaw(); err != nil {
					return err
				}
				continue
			}
			if err := sc.copyValue(f.plan); err != nil {
				return err
			}
		}
		for _, f := range p.fields {
			if f.def == nil || seen(seenSmall, seenBig, f.ordinal) {
				continue
			}
			if err := sc.enc.WriteToken(jsontext.String(f.name)); err != nil {
				return err
			}
			if err := sc.enc.WriteValue(f.def); err != nil {
				return err
			}
		}
		return sc.copyToken()
	case planArray:
		if sc.dec.PeekKind() != '[' {
			return sc.copyRaw()
		}
		if err := sc.copyToken(); err != nil {
			return err
		}
		for sc.dec.PeekKind() != ']' {
			if sc.dec.PeekKind() == 'n' {
				if err := sc.copyRaw(); err != nil {
					return err
				}
				continue
			}
			if err := sc.copyValue(p.elem); err != nil {
				return err
			}
		}
		return sc.copyToken()
	case planMap:
		if sc.dec.PeekKind() != '{' {
			return sc.copyRaw()
		}
		if err := sc.copyToken(); err != nil {
			return err
		}
		for sc.dec.PeekKind() != '}' {
			if err := sc.copyToken(); err != nil {
				return err
			}
			if sc.dec.PeekKind() == 'n' {
				if err := sc.copyRaw(); err != nil {
					return err
				}
				continue
			}
			if err := sc.copyValue(p.elem); err != nil {
				return err
			}
		}
		return sc.copyToken()
	}
	return sc.copyRaw()
}
