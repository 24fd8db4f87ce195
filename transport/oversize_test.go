package transport

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// topScan recovers the top-level id of a message, and whether it is a
// request, whatever the order of the members and however the bytes are
// split.
func TestTopScan(t *testing.T) {
	pad := strings.Repeat("z", 300)
	for _, tc := range []struct {
		name, in string
		id       string // the id as JSON, "null" for none
		response bool
	}{
		{"id first", `{"jsonrpc":"2.0","id":7,"result":{"t":"` + pad + `"}}`, "7", true},
		{"id last", `{"jsonrpc":"2.0","result":{"t":"` + pad + `"},"id":7}`, "7", true},
		{"string id", `{"id":"a\"b,}","jsonrpc":"2.0","error":{"code":1,"message":"m"}}`, `"a\"b,}"`, true},
		{"spaces", "{ \"id\" :\t12 ,\n\"result\" : {} }", "12", true},
		{"escaped name", `{"\u0069d":3,"result":{}}`, "3", true},
		{"nested ids only", `{"result":{"id":9,"content":[{"id":8}]},"jsonrpc":"2.0"}`, "null", true},
		{"id in a string", `{"result":{"t":"\"id\":5"},"x":"}"}`, "null", true},
		{"request", `{"jsonrpc":"2.0","method":"tools/call","id":4,"params":{"p":"` + pad + `"}}`, "4", false},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`, "null", false},
		{"null id", `{"id":null,"result":{}}`, "null", true},
		{"object id", `{"id":{"a":1},"result":{}}`, "null", true},
		{"long id", `{"id":"` + pad + `","result":{}}`, "null", true},
		{"two ids", `{"id":1,"id":2,"result":{}}`, "null", true},
		{"array", `[{"id":1,"result":{}}]`, "null", false},
		{"garbage", `not json`, "null", false},
	} {
		for _, step := range []int{1, 7, len(tc.in)} {
			var sc topScan
			sc.reset()
			for i := 0; i < len(tc.in); i += step {
				sc.write([]byte(tc.in[i:min(i+step, len(tc.in))]))
			}
			de := sc.tooLarge(10)
			if idText(de.ID) != tc.id || de.NotRequest != tc.response {
				t.Errorf("%s (step %d): id %s, response %v; want %s, %v", tc.name, step, idText(de.ID), de.NotRequest, tc.id, tc.response)
			}
			if !errors.Is(de, ErrMessageTooLarge) || de.Err.Code != protocol.CodeInvalidRequest {
				t.Errorf("%s: error %v", tc.name, de)
			}
		}
	}
}

// A Stream skips a line over its limit and reports it with the id and kind
// of its message, then reads on.
func TestStreamTooLargeKeepsID(t *testing.T) {
	big := `{"jsonrpc":"2.0","result":{"t":"` + strings.Repeat("y", 5000) + `"},"id":"r1"}`
	in := big + "\r\n" + `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n"
	s := NewStream(strings.NewReader(in), nil, &StreamOptions{MaxMessageSize: 1000})
	_, err := s.Read(context.Background())
	de, ok := errors.AsType[*protocol.DecodeError](err)
	if !ok || idText(de.ID) != `"r1"` || !de.NotRequest || !errors.Is(err, ErrMessageTooLarge) {
		t.Fatalf("Read: %#v", err)
	}
	msg, err := s.Read(context.Background())
	if r, ok := msg.(*protocol.Response); err != nil || !ok || idText(r.ID) != "2" {
		t.Fatalf("next Read: %v, %v", msg, err)
	}
}

func idText(id protocol.ID) string {
	if !id.IsValid() {
		return "null"
	}
	return string(id.Raw())
}
