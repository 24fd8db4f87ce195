package schema

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

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

// copyValue copies one value of plan p, filling in defaults inside it. A
// value of another JSON kind than p expects (null among them) has no
// defaults to fill in and is copied as it is.
func (sc *scanner) copyValue(p *plan) error {
	switch p.kind {
	case planStruct:
		if sc.dec.PeekKind() != '{' {
			return sc.copyRaw()
		}
		if err := sc.copyToken(); err != nil {
			return err
		}
		seen := newFieldSet(len(p.fields))
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
			seen.add(f.ordinal)
			if err := sc.copyValue(f.plan); err != nil {
				return err
			}
		}
		for _, f := range p.fields {
			if f.def == nil || seen.has(f.ordinal) {
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
	case planArray, planMap:
		opening, closing := jsontext.Kind('['), jsontext.Kind(']')
		if p.kind == planMap {
			opening, closing = '{', '}'
		}
		if sc.dec.PeekKind() != opening {
			return sc.copyRaw()
		}
		if err := sc.copyToken(); err != nil {
			return err
		}
		for sc.dec.PeekKind() != closing {
			if p.kind == planMap {
				if err := sc.copyToken(); err != nil { // the key
					return err
				}
			}
			if err := sc.copyValue(p.elem); err != nil {
				return err
			}
		}
		return sc.copyToken()
	}
	return sc.copyRaw()
}
