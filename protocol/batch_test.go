package protocol_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// TestDecodeBatch covers JSON arrays: a batch of valid elements, invalid
// elements kept with their own errors, and the arrays that fail as a
// whole (empty, invalid JSON).
func TestDecodeBatch(t *testing.T) {
	t.Parallel()
	const ir, pe = protocol.CodeInvalidRequest, protocol.CodeParseError
	tests := []struct {
		name     string
		in       string
		messages []protocol.Message // the valid elements
		invalid  []string           // the messages of the invalid elements' errors
		code     int64              // when the whole array fails: the code
		msg      string             // and part of the message
	}{
		{name: "requests and a notification", in: `[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":"2","method":"b","params":{"x":1}}]`,
			messages: []protocol.Message{req("1", "a", ""), req("", "n", ""), req(`"2"`, "b", `{"x":1}`)}},
		{name: "responses", in: ` [ {"jsonrpc":"2.0","id":1,"result":{}} ] `,
			messages: []protocol.Message{&protocol.Response{ID: mustID("1"), Result: []byte("{}")}}},
		{name: "invalid elements", in: `[1,{"jsonrpc":"2.0","id":1,"method":"a"},[],{"jsonrpc":"2.0","id":2,"id":3,"method":"x"},{"id":4,"method":"x"}]`,
			messages: []protocol.Message{req("1", "a", "")},
			invalid:  []string{"a message must be a JSON object", "a message must be a JSON object", "duplicate member name", `missing "jsonrpc"`}},
		{name: "all invalid", in: `[1,2,3]`, invalid: []string{"JSON object", "JSON object", "JSON object"}},
		{name: "empty", in: `[]`, code: ir, msg: "empty batch"},
		{name: "empty with space", in: ` [ ] `, code: ir, msg: "empty batch"},
		{name: "truncated", in: `[{"jsonrpc":"2.0","id":1,"method":"a"},`, code: pe},
		{name: "trailing data", in: `[{"jsonrpc":"2.0","id":1,"method":"a"}] 1`, code: pe},
		{name: "invalid UTF-8", in: "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\"}]", code: pe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, err := protocol.DecodeMessage([]byte(tc.in))
			if tc.code != 0 {
				de, ok := errors.AsType[*protocol.DecodeError](err)
				if !ok || de.Err.Code != tc.code || !strings.Contains(de.Err.Message, tc.msg) {
					t.Fatalf("DecodeMessage(%s) = %#v, %v; want error %d %q", tc.in, m, err, tc.code, tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("DecodeMessage(%s): %v", tc.in, err)
			}
			b, ok := m.(*protocol.Batch)
			if !ok {
				t.Fatalf("DecodeMessage(%s) = %T, want *protocol.Batch", tc.in, m)
			}
			if len(b.Messages) != len(tc.messages) {
				t.Fatalf("%d messages, want %d", len(b.Messages), len(tc.messages))
			}
			for i, want := range tc.messages {
				if got := b.Messages[i]; !reflect.DeepEqual(got, want) {
					t.Errorf("message %d = %#v, want %#v", i, got, want)
				}
			}
			if len(b.Invalid) != len(tc.invalid) {
				t.Fatalf("%d invalid elements, want %d", len(b.Invalid), len(tc.invalid))
			}
			for i, want := range tc.invalid {
				if e := b.Invalid[i].Err; e.Code != ir || !strings.Contains(e.Message, want) {
					t.Errorf("invalid element %d: %d %q, want %d %q", i, e.Code, e.Message, ir, want)
				}
			}
		})
	}
}

// TestEncodeBatch checks the encoding of batches: an array of the
// messages, nothing for an empty batch, an error for what cannot be sent.
func TestEncodeBatch(t *testing.T) {
	t.Parallel()
	b, err := protocol.AppendMessage([]byte("x"), &protocol.Batch{Messages: []protocol.Message{
		&protocol.Response{ID: mustID("1"), Result: []byte(`{}`)},
		&protocol.Response{ID: mustID("2"), Error: protocol.NewError(-32601, "Method not found")},
	}})
	if want := `x[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}]`; err != nil || string(b) != want {
		t.Errorf("AppendMessage = %s, %v; want %s", b, err, want)
	}
	if b, err := protocol.AppendMessage([]byte("x"), &protocol.Batch{}); err != nil || string(b) != "x" {
		t.Errorf("empty batch appended %q, %v; want nothing", b, err)
	}
	for _, bad := range []*protocol.Batch{
		{Invalid: []*protocol.DecodeError{{Err: protocol.NewError(-32600, "x")}}},
		{Messages: []protocol.Message{req("1", "a", ""), &protocol.Batch{Messages: []protocol.Message{req("2", "b", "")}}}},
	} {
		if b, err := protocol.AppendMessage([]byte("x"), bad); err == nil || string(b) != "x" {
			t.Errorf("AppendMessage(%#v) = %q, %v; want an error and nothing appended", bad, b, err)
		}
	}
}
