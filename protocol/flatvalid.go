package protocol

// flatValid reports whether v is certainly valid JSON of a simple shape
// that it checks without a decoder: an object of at most 8 members with
// distinct names, no whitespace, and as member values numbers, literals
// (true, false, null) or strings, names and strings being printable ASCII
// without escapes. Structured tool results are mostly such objects. false
// says nothing: v may still be valid, and a full check must decide.
func flatValid(v []byte) bool {
	if len(v) < 2 || v[0] != '{' {
		return false
	}
	var names [8][]byte
	n := 0
	i := 1
	if v[i] == '}' {
		return i+1 == len(v)
	}
	for {
		name, next, ok := flatString(v, i)
		if !ok || n == len(names) {
			return false
		}
		for _, other := range names[:n] {
			if string(other) == string(name) {
				return false
			}
		}
		names[n] = name
		n++
		i = next
		if i >= len(v) || v[i] != ':' {
			return false
		}
		if i, ok = flatScalar(v, i+1); !ok || i >= len(v) {
			return false
		}
		switch v[i] {
		case ',':
			i++
		case '}':
			return i+1 == len(v)
		default:
			return false
		}
	}
}

// flatString reads a string of printable ASCII without escapes at v[i]
// and returns its contents and the offset after it.
func flatString(v []byte, i int) (s []byte, next int, ok bool) {
	if i >= len(v) || v[i] != '"' {
		return nil, 0, false
	}
	for j := i + 1; j < len(v); j++ {
		switch c := v[j]; {
		case c == '"':
			return v[i+1 : j], j + 1, true
		case c < 0x20 || c > 0x7e || c == '\\':
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// flatScalar reads a number, a literal or a flat string at v[i] and
// returns the offset after it.
func flatScalar(v []byte, i int) (int, bool) {
	if i >= len(v) {
		return 0, false
	}
	switch c := v[i]; {
	case c == '"':
		_, next, ok := flatString(v, i)
		return next, ok
	case c == 't':
		return flatLiteral(v, i, "true")
	case c == 'f':
		return flatLiteral(v, i, "false")
	case c == 'n':
		return flatLiteral(v, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return flatNumber(v, i)
	}
	return 0, false
}

func flatLiteral(v []byte, i int, lit string) (int, bool) {
	if len(v)-i >= len(lit) && string(v[i:i+len(lit)]) == lit {
		return i + len(lit), true
	}
	return 0, false
}

// flatNumber reads a JSON number at v[i]: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func flatNumber(v []byte, i int) (int, bool) {
	digits := func(i int) int { // the offset after a run of digits
		for i < len(v) && v[i] >= '0' && v[i] <= '9' {
			i++
		}
		return i
	}
	if v[i] == '-' {
		i++
	}
	switch {
	case i < len(v) && v[i] == '0':
		i++
	case i < len(v) && v[i] >= '1' && v[i] <= '9':
		i = digits(i)
	default:
		return 0, false
	}
	if i < len(v) && v[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(v) && (v[i] == 'e' || v[i] == 'E') {
		i++
		if i < len(v) && (v[i] == '+' || v[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}
