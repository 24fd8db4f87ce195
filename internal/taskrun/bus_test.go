package taskrun

import (
	"encoding/json"
	"maps"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// FuzzControlMessages: whatever arrives on a task's control topic,
// decoding does not panic, and what it accepts is a request a server would
// send, which encodes back to the same request (the same cancel and keys).
func FuzzControlMessages(f *testing.F) {
	for _, seed := range []string{
		`{"cancel":true}`,
		`{"inputResponses":{"who":{"action":"accept","content":{"username":"ada"}}}}`,
		`{"inputResponses":{}}`,
		`{"method":"notifications/tools/list_changed"}`,
		`null`, `[]`, `{"cancel":1}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		c, err := decodeControl(msg)
		if err != nil {
			return
		}
		if !c.Cancel && len(c.InputResponses) == 0 {
			t.Fatalf("accepted %q as an empty request", msg)
		}
		raw, err := protocol.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		again, err := decodeControl(raw)
		if err != nil || again.Cancel != c.Cancel || !maps.EqualFunc(again.InputResponses, c.InputResponses,
			func(a, b json.RawMessage) bool { return len(a) > 0 && len(b) > 0 }) {
			t.Fatalf("%+v encodes to %s, which decodes to %+v, %v", c, raw, again, err)
		}
	})
}
