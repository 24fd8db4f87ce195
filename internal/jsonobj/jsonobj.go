// Package jsonobj reads and writes the members of JSON objects as text,
// keeping each value byte for byte. It is the one place the SDK takes an
// object apart or puts one together without decoding it: protocol, session,
// lowlevel and fastmcp (client and server code alike) all use it.
package jsonobj

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// ErrNotObject is returned by [Parse] when its input is not a JSON object.
var ErrNotObject = errors.New("not a JSON object")

// Member is one member of a JSON object: its name, unquoted, and the exact
// text of its value.
type Member struct {
	Name  string
	Value jsontext.Value
}

// Object is the members of a JSON object in document order.
type Object []Member

// Get returns the value of the member name, and whether it is there.
// Names are compared exactly.
func (o Object) Get(name string) (jsontext.Value, bool) {
	for _, m := range o {
		if m.Name == name {
			return m.Value, true
		}
	}
	return nil, false
}

// Range calls yield with the name and exact text of each top-level member
// of the JSON object obj, in order, until yield returns false. A value is
// valid only until yield returns. It reads obj only as far as it goes: when
// yield stops it early, the rest of obj is not checked. Otherwise it
// returns an error if obj is not a well-formed object, with nothing but
// white space after it ([ErrNotObject] if obj does not start as one).
func Range(obj []byte, yield func(name string, value jsontext.Value) bool) error {
	dec := jsontext.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return ErrNotObject
	}
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return err
		}
		name := tok.String() // before the next read voids tok
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		if !yield(name, v) {
			return nil
		}
	}
	if _, err := dec.ReadToken(); err != nil { // the closing brace
		return err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return fmt.Errorf("data after the object at offset %d", dec.InputOffset())
	}
	return nil
}

// Parse returns the members of the JSON object obj, in document order,
// each value copied out of obj. It fails if obj is not a well-formed JSON
// object (with only white space around it), or repeats a member name.
func Parse(obj []byte) (Object, error) {
	var out Object
	err := Range(obj, func(name string, v jsontext.Value) bool {
		out = append(out, Member{Name: name, Value: v.Clone()})
		return true
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AppendMember appends the member name: value to b, a JSON object being
// written ("{" and the members so far), with the comma it needs. value
// must be a valid JSON value; name is quoted, with invalid UTF-8 replaced.
// The caller writes the closing "}".
func AppendMember(b []byte, name string, value []byte) []byte {
	if len(b) > 1 {
		b = append(b, ',')
	}
	b, _ = jsontext.AppendQuote(b, name)
	b = append(b, ':')
	return append(b, value...)
}

// InsertFirst returns a copy of the JSON object obj with members, the
// text of one or more members ("name":value, separated by commas),
// inserted before its first member. obj itself is not modified. obj must
// be a JSON object; members is not checked.
func InsertFirst(obj []byte, members string) []byte {
	open := bytes.IndexByte(obj, '{')
	rest := obj[open+1:]
	out := make([]byte, 0, len(obj)+len(members)+1)
	out = append(out, obj[:open+1]...)
	out = append(out, members...)
	if t := bytes.TrimLeft(rest, " \t\r\n"); len(t) > 0 && t[0] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...)
}

// OrEmpty returns v, or the empty object {} when v is empty: what absent
// params or an absent result mean.
// The result for empty v is shared: callers must not write into it.
func OrEmpty[T ~[]byte](v T) T {
	if len(v) == 0 {
		return T(emptyObject[:2:2])
	}
	return v
}

var emptyObject = []byte("{}")
