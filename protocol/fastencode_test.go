package protocol_test

import (
	"encoding/json"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// reference is what jsonv2.Marshal writes, which protocol.Marshal's
// hand-written encodings must match byte for byte.
func reference(v any) ([]byte, error) { return jsonv2.Marshal(v, jsonv2.Deterministic(true)) }

func checkSameEncoding(t *testing.T, r *protocol.CallToolResult) {
	t.Helper()
	want, werr := reference(r)
	got, gerr := protocol.Marshal(r)
	if (werr != nil) != (gerr != nil) || string(got) != string(want) {
		t.Errorf("Marshal(%+v)\n got %s, %v\nwant %s, %v", r, got, gerr, want, werr)
	}
}

func TestMarshalCallToolResultMatchesJSON(t *testing.T) {
	t.Parallel()
	f := false
	for _, r := range []*protocol.CallToolResult{
		{},
		{Content: protocol.ContentList{}},
		{Content: protocol.ContentList{&protocol.TextContent{Text: "5"}}, StructuredContent: json.RawMessage(`{"result":5}`)},
		{Content: protocol.ContentList{&protocol.TextContent{Text: `{"sum":5}`}}, StructuredContent: json.RawMessage(`{"sum":5}`)},
		{Content: protocol.ContentList{&protocol.TextContent{Text: "a"}, &protocol.TextContent{Text: ""}}, IsError: true},
		{Content: protocol.ContentList{&protocol.TextContent{Text: "<a&b>\u2028\u2029 \x01\x1f\t\n\"\\ é 🙂"}}},
		{Content: protocol.ContentList{&protocol.TextContent{Text: "bad \xff utf-8"}}},
		{ResultType: "complete", Content: protocol.ContentList{&protocol.TextContent{Text: "x"}}},
		{Content: protocol.ContentList{&protocol.TextContent{Text: "x", Annotations: &protocol.Annotations{Audience: []protocol.Role{protocol.RoleUser}}}}},
		{Content: protocol.ContentList{&protocol.TextContent{Text: "x", Meta: protocol.Meta{"k": 1}}}},
		{Content: protocol.ContentList{(*protocol.TextContent)(nil)}},
		{Content: protocol.ContentList{nil}},
		{Content: protocol.ContentList{&protocol.ImageContent{Data: []byte{1}, MIMEType: "image/png"}}},
		{Content: protocol.ContentList{&protocol.TextContent{Text: "x"}, &protocol.ResourceLink{URI: "u", Name: "n"}}},
		{Meta: protocol.Meta{}},
		{Meta: protocol.Meta{"b": 1, "a": &f}},
		{StructuredContent: json.RawMessage(`{}`)},
		{StructuredContent: json.RawMessage(``)},
		{StructuredContent: json.RawMessage(`{ "a" : 1 }`)},
		{StructuredContent: json.RawMessage(`{"a":"x y","b":[1,2.50,-0,1e3,true,null]}`)},
		{StructuredContent: json.RawMessage(`{"a":"\u0041\/"}`)},
		{StructuredContent: json.RawMessage(`{"a":"\""}`)},
		{StructuredContent: json.RawMessage(`{"a":1,"a":2}`)},
		{StructuredContent: json.RawMessage(`{"a":`)},
		{StructuredContent: json.RawMessage(`{"a":"\xff"}`)},
		{StructuredContent: json.RawMessage(`[1,2]`)},
		{StructuredContent: json.RawMessage(`7`)},
	} {
		checkSameEncoding(t, r)
	}
}

// FuzzMarshalCallToolResult checks that protocol.Marshal encodes a
// CallToolResult of text blocks exactly as jsonv2.Marshal does.
func FuzzMarshalCallToolResult(f *testing.F) {
	f.Add("5", []byte(`{"result":5}`), false, "")
	f.Add("a\"b\\c\u2028<>&", []byte(`{"a":"b c","d":[1,{"e":null}]}`), true, "complete")
	f.Add("\xff", []byte(`{ "a":1}`), false, "")
	f.Fuzz(func(t *testing.T, text string, structured []byte, isError bool, resultType string) {
		r := &protocol.CallToolResult{
			ResultType:        resultType,
			Content:           protocol.ContentList{&protocol.TextContent{Text: text}, &protocol.TextContent{Text: resultType}},
			StructuredContent: structured,
			IsError:           isError,
		}
		checkSameEncoding(t, r)
	})
}
