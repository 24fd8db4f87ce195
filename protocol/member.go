package protocol

import (
	"encoding/json"
	"iter"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/go-json-experiment/json/jsontext"
)

// Member returns the exact text of the value of the top-level member name
// of the JSON object obj, and whether it is there. It reads obj only as far
// as that member, so what follows is not checked.
func Member(obj json.RawMessage, name string) (json.RawMessage, bool) {
	for key, v := range Members(obj) {
		if key == name {
			return v, true
		}
	}
	return nil, false
}

// Members yields the name and exact text of each top-level member of the
// JSON object obj, in order, in one reading of obj. A value is valid until
// the next step. It stops early, without an error, where obj is not a
// well-formed object: callers that need obj checked decode it.
func Members(obj json.RawMessage) iter.Seq2[string, json.RawMessage] {
	return func(yield func(string, json.RawMessage) bool) {
		_ = jsonobj.Range(obj, func(name string, v jsontext.Value) bool {
			return yield(name, json.RawMessage(v))
		})
	}
}
