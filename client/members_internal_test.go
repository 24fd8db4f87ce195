package client

import (
	"encoding/json"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// TestWithoutProtocolMembers checks which members of a 2026-07-28 result a
// client takes away, and that the rest is kept byte for byte, in order.
func TestWithoutProtocolMembers(t *testing.T) {
	const si = `"` + protocol.MetaServerInfo + `":{"name":"s","version":"1"}`
	tests := []struct{ name, in, want string }{
		{"plain", `{"a":1}`, `{"a":1}`},
		{"complete", `{"a":1,"resultType":"complete","b":[2]}`, `{"a":1,"b":[2]}`},
		{"other type kept", `{"resultType":"input_required"}`, `{"resultType":"input_required"}`},
		{"meta only server", `{"_meta":{` + si + `},"a":1}`, `{"a":1}`},
		{"meta kept", `{"_meta":{"x":1,` + si + `,"y":"z"},"a":1}`, `{"_meta":{"x":1,"y":"z"},"a":1}`},
		{"meta without server", `{"_meta":{"x": 1}}`, `{"_meta":{"x": 1}}`},
		{"not an object", `[1]`, `[1]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := withoutProtocolMembers(json.RawMessage(tt.in)); string(got) != tt.want {
				t.Errorf("withoutProtocolMembers(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

// TestRetryParams checks the params of a retried request: inputResponses
// and requestState replaced, the other members kept in order.
func TestRetryParams(t *testing.T) {
	answers := protocol.InputResponses{"q": json.RawMessage(`{"ok":true}`)}
	tests := []struct {
		name    string
		in      string
		answers protocol.InputResponses
		state   string
		want    string
	}{
		{"first retry", `{"name":"t","arguments":{}}`, answers, `"s1"`, `{"name":"t","arguments":{},"inputResponses":{"q":{"ok":true}},"requestState":"s1"}`},
		{"stale state dropped", `{"requestState":"old","name":"t","inputResponses":{}}`, answers, ``, `{"name":"t","inputResponses":{"q":{"ok":true}}}`},
		{"null state dropped", `{"name":"t"}`, nil, `null`, `{"name":"t"}`},
		{"empty", `{}`, nil, `"s"`, `{"requestState":"s"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := retryParams(json.RawMessage(tt.in), tt.answers, jsontext.Value(tt.state))
			if err != nil || string(got) != tt.want {
				t.Errorf("retryParams(%s) = %s, %v; want %s", tt.in, got, err, tt.want)
			}
		})
	}
	if _, err := retryParams(json.RawMessage(`[]`), nil, nil); err == nil {
		t.Error("retryParams([]): no error")
	}
}
