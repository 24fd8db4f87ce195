package protocol_test

import (
	"reflect"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// TestDecodeContentMembersInAnyOrder checks that a block's "type" may come
// anywhere among its members, and that a block keeps only the members of
// its type.
func TestDecodeContentMembersInAnyOrder(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want protocol.Content
	}{
		{`{"text":"a","type":"text"}`, &protocol.TextContent{Text: "a"}},
		{`{"mimeType":"image/png","data":"AQ==","type":"image"}`, &protocol.ImageContent{Data: []byte{1}, MIMEType: "image/png"}},
		{`{"type":"text","text":"x","uri":"u","name":"n","mimeType":"m"}`, &protocol.TextContent{Text: "x"}},
		{`{"name":"n","uri":"u","type":"resource_link","text":"ignored"}`, &protocol.ResourceLink{URI: "u", Name: "n"}},
		{`{"input":{"a":1},"type":"tool_use","id":"1","name":"t"}`, &protocol.ToolUseContent{ID: "1", Name: "t", Input: []byte(`{"a":1}`)}},
		{`{"content":[{"text":"in","type":"text"}],"toolUseId":"1","type":"tool_result"}`,
			&protocol.ToolResultContent{ToolUseID: "1", Content: protocol.ContentList{&protocol.TextContent{Text: "in"}}}},
	} {
		got, err := protocol.DecodeContent([]byte(tc.in))
		if err != nil {
			t.Errorf("DecodeContent(%s): %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("DecodeContent(%s) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
}
