package protocol_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
)

func TestCallToolResultTextAndStructured(t *testing.T) {
	type point struct {
		X int `json:"x"`
		Y int `json:"y"`
	}
	text := func(s string) protocol.Content { return &protocol.TextContent{Text: s} }
	for _, tc := range []struct {
		name    string
		res     protocol.CallToolResult
		text    string
		want    point
		wantErr string // substring; "" for success
		failed  bool   // the error matches ErrToolFailed
	}{
		{name: "structured content wins over text",
			res:  protocol.CallToolResult{Content: protocol.ContentList{text(`{"x":9,"y":9}`)}, StructuredContent: json.RawMessage(`{"x":1,"y":2}`)},
			text: `{"x":9,"y":9}`, want: point{1, 2}},
		{name: "text decoded when there is no structured content",
			res:  protocol.CallToolResult{Content: protocol.ContentList{text(`{"x":3,"y":4}`)}},
			text: `{"x":3,"y":4}`, want: point{3, 4}},
		{name: "text blocks joined, other blocks skipped",
			res:  protocol.CallToolResult{Content: protocol.ContentList{text("a"), &protocol.ImageContent{Data: []byte{1}, MIMEType: "image/png"}, text("b")}},
			text: "a\nb", wantErr: "has no structured content"},
		{name: "error result",
			res:  protocol.CallToolResult{Content: protocol.ContentList{text("boom")}, IsError: true, StructuredContent: json.RawMessage(`{"x":1}`)},
			text: "boom", wantErr: "protocol: the tool failed: boom", failed: true},
		{name: "structured content of another shape",
			res:     protocol.CallToolResult{StructuredContent: json.RawMessage(`{"x":"one"}`)},
			wantErr: "decoding the structured content"},
		{name: "empty", res: protocol.CallToolResult{}, wantErr: "has no structured content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.res.Text(); got != tc.text {
				t.Errorf("Text() = %q, want %q", got, tc.text)
			}
			var got point
			err := tc.res.Structured(&got)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Structured: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("Structured: %v, want an error containing %q", err, tc.wantErr)
			}
			if errors.Is(err, protocol.ErrToolFailed) != tc.failed {
				t.Errorf("errors.Is(%v, ErrToolFailed) = %v, want %v", err, !tc.failed, tc.failed)
			}
			if tc.wantErr == "" && got != tc.want {
				t.Errorf("Structured = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestPromptAndResourceText(t *testing.T) {
	pr := protocol.GetPromptResult{Messages: []protocol.PromptMessage{
		{Role: protocol.RoleUser, Content: &protocol.TextContent{Text: "one"}},
		{Role: protocol.RoleUser, Content: &protocol.ImageContent{Data: []byte{1}, MIMEType: "image/png"}},
		{Role: protocol.RoleAssistant, Content: &protocol.EmbeddedResource{Resource: protocol.ResourceContents{URI: "a://b", Text: "two"}}},
		{Role: protocol.RoleAssistant, Content: &protocol.EmbeddedResource{Resource: protocol.ResourceContents{URI: "a://c", Blob: []byte("x")}}},
	}}
	for i, want := range []string{"one", "", "two", ""} {
		if got := pr.Messages[i].Text(); got != want {
			t.Errorf("Messages[%d].Text() = %q, want %q", i, got, want)
		}
	}
	if got := pr.Text(); got != "one\ntwo" {
		t.Errorf("GetPromptResult.Text() = %q", got)
	}
	rr := protocol.ReadResourceResult{Contents: []protocol.ResourceContents{
		{URI: "a://1", Text: "x"}, {URI: "a://2", Blob: []byte{0}}, {URI: "a://3", Text: ""}, {URI: "a://4", Text: "y"},
	}}
	if got := rr.Text(); got != "x\n\ny" {
		t.Errorf("ReadResourceResult.Text() = %q", got)
	}
}

// TestCallToolResultEncoding checks how a tool result encodes, member by
// member: order, omitted members, the content blocks' "type", the
// structured content in canonical form, and errors for what cannot be sent.
func TestCallToolResultEncoding(t *testing.T) {
	t.Parallel()
	p := 0.5
	for _, tc := range []struct {
		res  *protocol.CallToolResult
		want string
	}{
		{&protocol.CallToolResult{}, `{"content":[]}`},
		{&protocol.CallToolResult{Meta: protocol.Meta{"b": 1, "a": true}, ResultType: "complete", Content: protocol.ContentList{
			&protocol.TextContent{Text: "x", Annotations: &protocol.Annotations{Audience: []protocol.Role{protocol.RoleUser}, Priority: &p}, Meta: protocol.Meta{"k": "v"}},
			&protocol.ImageContent{Data: []byte{1}, MIMEType: "image/png"},
		}, StructuredContent: json.RawMessage(`{ "a" : "\u0041\/" }`), IsError: true},
			`{"_meta":{"a":true,"b":1},"resultType":"complete","content":[{"type":"text","text":"x","annotations":{"audience":["user"],"priority":0.5},"_meta":{"k":"v"}},{"type":"image","data":"AQ==","mimeType":"image/png"}],"structuredContent":{"a":"A/"},"isError":true}`},
		{&protocol.CallToolResult{Content: protocol.ContentList{&protocol.TextContent{Text: "<a&b>\u2028 \x01\t\"\\ é"}}}, "{\"content\":[{\"type\":\"text\",\"text\":\"<a&b>\u2028 \\u0001\\t\\\"\\\\ é\"}]}"},
	} {
		for _, v := range []any{tc.res, *tc.res} {
			if got, err := protocol.Marshal(v); err != nil || string(got) != tc.want {
				t.Errorf("Marshal(%T %+v) = %s, %v; want %s", v, tc.res, got, err, tc.want)
			}
		}
	}
	for _, bad := range []*protocol.CallToolResult{
		{Content: protocol.ContentList{&protocol.TextContent{Text: "\xff"}}},
		{StructuredContent: json.RawMessage(`{"a":1,"a":2}`)},
		{Content: protocol.ContentList{nil}},
	} {
		if b, err := protocol.Marshal(bad); err == nil {
			t.Errorf("Marshal(%+v) = %s, want an error", bad, b)
		}
	}
}
