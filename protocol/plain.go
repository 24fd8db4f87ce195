package protocol

import (
	"math"
	"unicode/utf8"
)

// A hand-written reader for messages of the plain shape nearly every peer
// sends: no escapes in strings or names, few members per object, little
// nesting. It checks what the envelope decoder checks (valid JSON, valid
// UTF-8, no duplicate names at any depth, one value and nothing after it)
// and finds the same members, in a fraction of the time. On anything else,
// valid or not, it declines and readEnvelope decides (and words any error).

const (
	plainMaxDepth   = 32 // deeper values are declined
	plainMaxMembers = 16 // objects with more members are declined
)

// plainScanner reads b from offset i.
type plainScanner struct {
	b []byte
	i int
}

// readPlainEnvelope is readEnvelope for plain messages; ok is false when
// data is not plain (readEnvelope must then read it).
func readPlainEnvelope(data []byte) (w wireMessage, ok bool) {
	s := plainScanner{b: data}
	s.space()
	if !s.next('{') {
		return w, false
	}
	var names [plainMaxMembers][]byte
	n := 0
	s.space()
	if !s.next('}') {
		for {
			name, ok := s.member(names[:n])
			if !ok {
				return w, false
			}
			names[n] = name
			n++
			start := s.i
			var field *[]byte
			switch string(name) {
			case "jsonrpc":
				field = (*[]byte)(&w.JSONRPC)
			case "id":
				field = (*[]byte)(&w.ID)
			case "method":
				field = (*[]byte)(&w.Method)
			case "params":
				field = (*[]byte)(&w.Params)
			case "result":
				field = (*[]byte)(&w.Result)
			case "error":
				field = (*[]byte)(&w.Error)
			}
			if field == (*[]byte)(&w.Params) && s.i < len(s.b) && s.b[s.i] == '{' {
				w.index, ok = s.params()
			} else {
				ok = s.value(1)
			}
			if !ok {
				return w, false
			}
			if field != nil {
				*field = data[start:s.i]
			}
			s.space()
			if s.next('}') {
				break
			}
			if !s.next(',') {
				return w, false
			}
			s.space()
		}
	}
	s.space()
	return w, s.i == len(s.b)
}

// member reads a member name not among seen, and the colon after it,
// leaving s at the value.
func (s *plainScanner) member(seen [][]byte) ([]byte, bool) {
	if len(seen) == plainMaxMembers {
		return nil, false
	}
	name, ok := s.str()
	if !ok {
		return nil, false
	}
	for _, other := range seen {
		if string(other) == string(name) {
			return nil, false
		}
	}
	s.space()
	if !s.next(':') {
		return nil, false
	}
	s.space()
	return name, true
}

// params reads the params object at s and indexes its members as
// readParams does.
func (s *plainScanner) params() (paramsIndex, bool) {
	var x paramsIndex
	start := s.i
	s.i++ // '{'
	var names [plainMaxMembers][]byte
	n := 0
	indexed := true
	s.space()
	if s.next('}') {
		return x, true
	}
	for {
		nameStart := s.i
		name, ok := s.member(names[:n])
		if !ok {
			return x, false
		}
		names[n] = name
		n++
		nameEnd := nameStart + len(name) + 2
		valStart := s.i
		if !s.value(2) {
			return x, false
		}
		switch {
		case !indexed:
		case int(x.n) == maxIndexed || s.i-start > math.MaxUint16:
			indexed = false
		default:
			x.pos[x.n] = [4]uint16{uint16(nameStart - start), uint16(nameEnd - start), uint16(valStart - start), uint16(s.i - start)}
			x.n++
		}
		s.space()
		if s.next('}') {
			break
		}
		if !s.next(',') {
			return x, false
		}
		s.space()
	}
	if !indexed {
		x = paramsIndex{}
	}
	return x, true
}

// value reads one value at nesting depth.
func (s *plainScanner) value(depth int) bool {
	if s.i >= len(s.b) || depth > plainMaxDepth {
		return false
	}
	switch c := s.b[s.i]; {
	case c == '"':
		_, ok := s.str()
		return ok
	case c == '{':
		s.i++
		var names [plainMaxMembers][]byte
		n := 0
		s.space()
		if s.next('}') {
			return true
		}
		for {
			name, ok := s.member(names[:n])
			if !ok || !s.value(depth+1) {
				return false
			}
			names[n] = name
			n++
			s.space()
			if s.next('}') {
				return true
			}
			if !s.next(',') {
				return false
			}
			s.space()
		}
	case c == '[':
		s.i++
		s.space()
		if s.next(']') {
			return true
		}
		for {
			if !s.value(depth + 1) {
				return false
			}
			s.space()
			if s.next(']') {
				return true
			}
			if !s.next(',') {
				return false
			}
			s.space()
		}
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	}
	return false
}

// str reads a string without escapes and returns its contents.
func (s *plainScanner) str() ([]byte, bool) {
	if !s.next('"') {
		return nil, false
	}
	start := s.i
	ascii := true
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			v := s.b[start:s.i]
			s.i++
			return v, ascii || utf8.Valid(v)
		case c < 0x20 || c == '\\':
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

func (s *plainScanner) literal(lit string) bool {
	if len(s.b)-s.i >= len(lit) && string(s.b[s.i:s.i+len(lit)]) == lit {
		s.i += len(lit)
		return true
	}
	return false
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *plainScanner) number() bool {
	s.next('-')
	switch {
	case s.next('0'):
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		return false
	}
	if s.next('.') && !s.digits() {
		return false
	}
	if s.next('e') || s.next('E') {
		if !s.next('+') {
			s.next('-')
		}
		return s.digits()
	}
	return true
}

// digits reads a run of digits and reports whether it was not empty.
func (s *plainScanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}

// next consumes c if it comes next.
func (s *plainScanner) next(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *plainScanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}
