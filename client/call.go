package client

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/go-json-experiment/json/jsontext"
)

// withoutProtocolMembers returns a result with the members that protocol
// revision 2026-07-28 adds to every result removed: resultType when it is
// "complete", and the server's identity (protocol.MetaServerInfo) in
// _meta, with _meta itself when nothing else is left in it. Every other
// member, including the rest of _meta, is kept byte for byte. A result
// without those members, or that is not a JSON object, is returned as it
// is.
func withoutProtocolMembers(res json.RawMessage) json.RawMessage {
	if !bytes.Contains(res, []byte(`"resultType"`)) && !bytes.Contains(res, []byte(`"_meta"`)) {
		return res
	}
	ms, err := jsonobj.Parse(res)
	if err != nil {
		return res
	}
	b := make([]byte, 0, len(res))
	b = append(b, '{')
	changed := false
	for _, m := range ms {
		switch {
		case m.Name == "resultType" && string(m.Value) == `"`+protocol.ResultTypeComplete+`"`:
			changed = true
			continue
		case m.Name == "_meta":
			meta, dropped := withoutServerInfo(m.Value)
			if dropped {
				changed = true
				if meta == nil {
					continue
				}
			}
			b = jsonobj.AppendMember(b, m.Name, meta)
			continue
		}
		b = jsonobj.AppendMember(b, m.Name, m.Value)
	}
	if !changed {
		return res
	}
	return append(b, '}')
}

// withoutServerInfo removes protocol.MetaServerInfo from the _meta object
// meta. dropped says whether it was there; the result is nil when nothing
// else is left.
func withoutServerInfo(meta jsontext.Value) (_ []byte, dropped bool) {
	ms, err := jsonobj.Parse(meta)
	if err != nil {
		return meta, false
	}
	b := []byte{'{'}
	for _, m := range ms {
		if m.Name == protocol.MetaServerInfo {
			dropped = true
			continue
		}
		b = jsonobj.AppendMember(b, m.Name, m.Value)
	}
	switch {
	case !dropped:
		return meta, false
	case len(b) == 1:
		return nil, true
	}
	return append(b, '}'), true
}

// resultTypeOf returns the ResultType of a decoded result (a pointer to one
// of the protocol's result structs); ok is false for any other result.
func resultTypeOf(result any) (rt string, ok bool) {
	v := reflect.ValueOf(result)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return "", false
	}
	f := v.Elem().FieldByName("ResultType")
	if !f.IsValid() || f.Kind() != reflect.String {
		return "", false
	}
	return f.String(), true
}

// resetResult sets a result decoded from an input_required round back to
// its zero value, for the next round to decode into.
func resetResult(result any) {
	if v := reflect.ValueOf(result); v.Kind() == reflect.Pointer && !v.IsNil() {
		v.Elem().SetZero()
	}
}
