package fastmcp

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// FuzzBusMessages: whatever arrives on the bus, decoding does not panic,
// and what it accepts is a message the server would send, which encodes
// back to the same announcement. (The requests for a task are fuzzed in
// internal/taskrun: FuzzControlMessages.)
func FuzzBusMessages(f *testing.F) {
	for _, seed := range []string{
		`{"method":"notifications/tools/list_changed"}`,
		`{"method":"notifications/resources/updated","uri":"res://a"}`,
		`{"method":"notifications/message"}`,
		`{"cancel":true}`,
		`{"inputResponses":{"who":{"action":"accept","content":{"username":"ada"}}}}`,
		`{"inputResponses":{}}`,
		`null`, `[]`, `{"method":1}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		if n, err := decodeNotice(msg); err == nil {
			switch n.Method {
			case protocol.NotificationToolsListChanged, protocol.NotificationPromptsListChanged,
				protocol.NotificationResourcesListChanged, protocol.NotificationResourcesUpdated:
			default:
				t.Fatalf("accepted %q as an announcement", msg)
			}
			raw, err := protocol.Marshal(n)
			if err != nil {
				t.Fatal(err)
			}
			if again, err := decodeNotice(raw); err != nil || again != n {
				t.Fatalf("%+v encodes to %s, which decodes to %+v, %v", n, raw, again, err)
			}
		}
	})
}
