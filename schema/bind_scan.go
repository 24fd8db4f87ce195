package schema

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

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
		return msgNotNull
	}
	return "must be " + p.jsonType + ", got null"
}

// object scans a JSON object decoded into the struct of plan p: each
// member (member), then the fields it lacks (absent). rewrite is true when
// the arguments must be rewritten before decoding (a default to add).
func (sc *scanner) object(p *plan, is *issues) (rewrite bool, err error) {
	if _, err := sc.dec.ReadToken(); err != nil {
		return false, err
	}
	seen := newFieldSet(len(p.fields))
	for sc.dec.PeekKind() != '}' {
		tok, err := sc.dec.ReadToken()
		if err != nil {
			return false, err
		}
		// The lookup stays here, on tok.String(): the compiler then
		// looks the name up without making a string of it.
		f := p.byName[tok.String()]
		if f == nil {
			sc.unknownMember(p, tok.String(), is)
			if err := sc.dec.SkipValue(); err != nil {
				return false, err
			}
			continue
		}
		r, err := sc.member(f, &seen, is)
		if err != nil {
			return false, err
		}
		rewrite = rewrite || r
	}
	if _, err := sc.dec.ReadToken(); err != nil {
		return false, err
	}
	return sc.absent(p, &seen, is) || rewrite, nil
}

// unknownMember reports the member name, which no field of p decodes,
// when p is strict.
func (sc *scanner) unknownMember(p *plan, name string, is *issues) {
	if p.strict {
		sc.stack = append(sc.stack, segment{name: name, index: -1})
		is.add(sc.here(), "unknown", unknownMessage(p))
		sc.stack = sc.stack[:len(sc.stack)-1]
	}
}

// member scans the value of the member of an object that field f decodes,
// adding f to seen.
func (sc *scanner) member(f *fieldPlan, seen *fieldSet, is *issues) (rewrite bool, err error) {
	if sc.dec.PeekKind() == 'n' {
		switch {
		case f.nullable || f.plan.kind == planAny:
			seen.add(f.ordinal)
		case f.required:
			seen.add(f.ordinal)
			sc.stack = append(sc.stack, segment{name: f.name, index: -1})
			is.add(sc.here(), "type", nullMessage(f.plan))
			sc.stack = sc.stack[:len(sc.stack)-1]
		default:
			// An optional member sent as null counts as absent.
		}
		return false, sc.dec.SkipValue()
	}
	seen.add(f.ordinal)
	if f.presence != nil {
		sc.notePresent(f)
	}
	if f.checks != nil {
		sc.stack = append(sc.stack, segment{name: f.name, index: -1})
		err := sc.checked(f, is)
		sc.stack = sc.stack[:len(sc.stack)-1]
		return false, err
	}
	if f.plan.kind == planOpaque || f.plan.kind == planAny {
		return false, sc.dec.SkipValue()
	}
	sc.stack = append(sc.stack, segment{name: f.name, index: -1})
	rewrite, err = sc.value(f.plan, is)
	sc.stack = sc.stack[:len(sc.stack)-1]
	return rewrite, err
}

// absent reports the required fields of p not in seen, and whether one of
// the others has a default to add.
func (sc *scanner) absent(p *plan, seen *fieldSet, is *issues) (rewrite bool) {
	for _, f := range p.fields {
		if seen.has(f.ordinal) {
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
	return rewrite
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
		report("minItems", msgAtLeast(countInt(tc.minItems, unitItem)))
	}
	if tc.maxItems >= 0 && n > tc.maxItems {
		report("maxItems", msgAtMost(countInt(tc.maxItems, unitItem)))
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

// fieldSet records which fields of a struct an object has named: a bit
// per field, or a slice for a struct of more than 64 fields.
type fieldSet struct {
	small uint64
	big   []bool
}

func newFieldSet(n int) fieldSet {
	if n > 64 {
		return fieldSet{big: make([]bool, n)}
	}
	return fieldSet{}
}

func (s *fieldSet) add(i int) {
	if s.big != nil {
		s.big[i] = true
		return
	}
	s.small |= 1 << uint(i)
}

func (s *fieldSet) has(i int) bool {
	if s.big != nil {
		return s.big[i]
	}
	return s.small&(1<<uint(i)) != 0
}
