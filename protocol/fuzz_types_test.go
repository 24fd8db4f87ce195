package protocol_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"

	"github.com/go-json-experiment/json/jsontext"
)

// FuzzCallToolResult checks that any CallToolResult that decodes encodes
// to JSON that decodes to an equal value.
func FuzzCallToolResult(f *testing.F) {
	f.Add(`{"content":[{"type":"text","text":"a"},{"type":"image","data":"/wA=","mimeType":"image/png"}],"isError":true}`)
	f.Add(`{"content":[{"type":"resource","resource":{"uri":"a","blob":"AAEC"}},{"type":"resource_link","uri":"u","name":"n","size":3}]}`)
	f.Add(`{"content":[],"structuredContent":{"a":[1,2,{"b":null}]},"_meta":{"k":1.5}}`)
	f.Add(`{"content":[{"type":"tool_result","toolUseId":"1","content":[{"type":"audio","data":"","mimeType":"a"}]}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		checkStable[protocol.CallToolResult](t, in)
	})
}

// FuzzDetailedTask checks that any tasks/get result the decoder accepts
// encodes stably (a client decodes what a server of any make sends).
func FuzzDetailedTask(f *testing.F) {
	f.Add(`{"taskId":"t","status":"completed","createdAt":"x","lastUpdatedAt":"y","ttlMs":null,"result":{"content":[]}}`)
	f.Add(`{"taskId":"t","status":"failed","ttlMs":5,"pollIntervalMs":1,"error":{"code":-1,"message":"m","data":[1]}}`)
	f.Add(`{"taskId":"t","status":"input_required","inputRequests":{"k":{"method":"roots/list"}},"_meta":{"a":{}}}`)
	f.Fuzz(func(t *testing.T, in string) {
		checkStable[protocol.DetailedTask](t, in)
	})
}

// FuzzRequestMeta checks that ParseRequestMeta never panics and that
// SetMeta on any object gives a strictly valid object whose _meta holds the
// value set.
func FuzzRequestMeta(f *testing.F) {
	f.Add(`{"name":"x","_meta":{"progressToken":1,"io.modelcontextprotocol/logLevel":"info"}}`)
	f.Add(`{}`)
	f.Add(` { "a" : [ {"_meta":1} ] , "_meta" : null } `)
	f.Add(`{"_meta":{"\u0070rogressToken":"t","x":{}}}`)
	f.Fuzz(func(t *testing.T, in string) {
		params := json.RawMessage(in)
		_, _ = protocol.ParseRequestMeta(params)
		var obj map[string]json.RawMessage
		if err := protocol.Unmarshal(params, &obj); err != nil || obj == nil {
			return // SetMeta requires a valid object
		}
		out, err := protocol.SetMeta(params, protocol.MetaProgressToken, "tok")
		if err != nil {
			if m := jsontext.Value(obj["_meta"]); m.Kind() == '{' || m.Kind() == 'n' || m == nil {
				t.Fatalf("SetMeta(%s): %v", in, err)
			}
			return
		}
		var got map[string]json.RawMessage
		if err := protocol.Unmarshal(out, &got); err != nil {
			t.Fatalf("SetMeta(%s) = %s: %v", in, out, err)
		}
		for k, v := range obj {
			if k != "_meta" && !reflect.DeepEqual([]byte(got[k]), []byte(v)) {
				t.Fatalf("member %q changed: %s -> %s", k, v, got[k])
			}
		}
		m, err := protocol.ParseRequestMeta(out)
		if err != nil {
			return // other reserved keys may hold wrongly typed values
		}
		if m.ProgressToken != protocol.StringID("tok") {
			t.Fatalf("SetMeta(%s) = %s: token %v", in, out, m.ProgressToken)
		}
	})
}

// checkStable checks that in, when T's decoder accepts it, encodes to
// bytes that decode and encode again to the same bytes.
func checkStable[T any](t *testing.T, in string) {
	t.Helper()
	var v1 T
	if err := protocol.Unmarshal([]byte(in), &v1); err != nil {
		return
	}
	b1, err := protocol.Marshal(&v1)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	var v2 T
	if err := protocol.Unmarshal(b1, &v2); err != nil {
		t.Fatalf("re-decode %s: %v", b1, err)
	}
	b2, err := protocol.Marshal(&v2)
	if err != nil {
		t.Fatalf("re-encode: %v", err)
	}
	if string(b1) != string(b2) {
		t.Fatalf("encoding not stable:\n%s\n%s", b1, b2)
	}
}
