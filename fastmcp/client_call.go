package fastmcp

import (
	"bytes"
	"encoding/json"

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
	ms, err := objectMembers(res)
	if err != nil {
		return res
	}
	b := make([]byte, 0, len(res))
	b = append(b, '{')
	changed := false
	add := func(key string, val []byte) {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b, _ = jsontext.AppendQuote(b, key)
		b = append(b, ':')
		b = append(b, val...)
	}
	for _, m := range ms {
		switch {
		case m.key == "resultType" && string(m.val) == `"`+protocol.ResultTypeComplete+`"`:
			changed = true
			continue
		case m.key == "_meta":
			meta, dropped := withoutServerInfo(m.val)
			if dropped {
				changed = true
				if meta == nil {
					continue
				}
			}
			add(m.key, meta)
			continue
		}
		add(m.key, m.val)
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
	ms, err := objectMembers(meta)
	if err != nil {
		return meta, false
	}
	b := []byte{'{'}
	for _, m := range ms {
		if m.key == protocol.MetaServerInfo {
			dropped = true
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b, _ = jsontext.AppendQuote(b, m.key)
		b = append(b, ':')
		b = append(b, m.val...)
	}
	switch {
	case !dropped:
		return meta, false
	case len(b) == 1:
		return nil, true
	}
	return append(b, '}'), true
}
