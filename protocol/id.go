package protocol

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// ID identifies a JSON-RPC request. It is a string or a number, and it keeps
// the exact JSON text it was decoded from, so a response echoes the id
// byte for byte as the peer sent it (1, 1.0 and "1" are three different ids).
//
// The zero ID is "no id": a Request with the zero ID is a notification, and a
// Response with the zero ID encodes its id as null (used for errors about
// messages whose id could not be read). ID is comparable and can be a map key.
type ID struct {
	raw string // exact JSON text of a string or number; "" when absent
}

// ProgressToken identifies the progress notifications of one request. Like an
// ID it is a string or a number and is echoed exactly as received.
type ProgressToken = ID

// Int64ID returns the numeric id n.
func Int64ID(n int64) ID { return ID{raw: strconv.FormatInt(n, 10)} }

// StringID returns the string id s.
func StringID(s string) ID {
	b, _ := jsontext.AppendQuote(nil, s) // never fails: invalid UTF-8 is replaced
	return ID{raw: string(b)}
}

// IsValid reports whether the id is present (not the zero ID).
func (id ID) IsValid() bool { return id.raw != "" }

// IsString reports whether the id is a JSON string.
func (id ID) IsString() bool { return len(id.raw) > 0 && id.raw[0] == '"' }

// Raw returns the id's exact JSON text, or "" for the zero ID.
func (id ID) Raw() string { return id.raw }

// String returns the id for logs: a number as written, a string unquoted.
func (id ID) String() string {
	if id.IsString() {
		var s string
		if err := jsonUnmarshal([]byte(id.raw), &s); err == nil {
			return s
		}
	}
	if id.raw == "" {
		return "null"
	}
	return id.raw
}

// Int64 returns the id as an integer when it is a number without a fraction
// or exponent that fits in an int64.
func (id ID) Int64() (int64, bool) {
	if id.IsString() || id.raw == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(id.raw, 10, 64)
	return n, err == nil
}

// MarshalJSON encodes the id exactly as it was received; the zero ID encodes as null.
func (id ID) MarshalJSON() ([]byte, error) {
	if id.raw == "" {
		return []byte("null"), nil
	}
	return []byte(id.raw), nil
}

// UnmarshalJSON accepts a JSON string or number and keeps its exact text. Any
// other JSON value (null, bool, object, array) is an error.
func (id *ID) UnmarshalJSON(b []byte) error {
	v, err := ParseID(b)
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// ParseID parses the JSON text of an id: a string or a number.
func ParseID(b []byte) (ID, error) {
	v := jsontext.Value(b)
	switch v.Kind() {
	case '"', '0':
		if t := trimSpace(b); plainID(t) {
			return ID{raw: string(t)}, nil
		}
		if !v.IsValid() {
			return ID{}, NewError(CodeInvalidRequest, "Invalid Request: malformed id")
		}
		return ID{raw: string(trimSpace(b))}, nil
	default:
		return ID{}, NewError(CodeInvalidRequest, "Invalid Request: id must be a string or a number")
	}
}

// plainID reports, without a decoder, whether b is an id of the usual
// forms, which are valid JSON: an integer without sign, fraction or
// exponent (or with a minus sign), or a string of printable characters
// without escapes. It is false for every other valid id too.
func plainID(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	if b[0] == '"' {
		if len(b) < 2 || b[len(b)-1] != '"' {
			return false
		}
		for _, c := range b[1 : len(b)-1] {
			if c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				return false
			}
		}
		return true
	}
	d := b
	if d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 1 && d[0] == '0' {
		return false
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
