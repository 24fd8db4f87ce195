package protocol

import (
	"bytes"
	"encoding/json"

	"github.com/go-json-experiment/json/jsontext"
)

// Member returns the exact text of the value of the top-level member name
// of the JSON object obj, and whether it is there. It reads obj only as far
// as that member, so what follows is not checked.
func Member(obj json.RawMessage, name string) (json.RawMessage, bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, false
	}
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, false
		}
		key := tok.String() // before the next read voids tok
		v, err := dec.ReadValue()
		if err != nil {
			return nil, false
		}
		if key == name {
			return json.RawMessage(v), true
		}
	}
	return nil, false
}
