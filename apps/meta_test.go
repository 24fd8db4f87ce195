package apps_test

import (
	"encoding/json"
	"testing"

	"github.com/fastmcp-go/fastmcp/apps"
	"github.com/fastmcp-go/fastmcp/protocol"
)

func TestViewMetaJSON(t *testing.T) {
	border := true
	m := apps.ViewMeta{
		CSP:           &apps.CSP{ConnectDomains: []string{"https://api.example.com"}, ResourceDomains: []string{"https://*.cdn.example"}},
		Permissions:   &apps.Permissions{Camera: true, ClipboardWrite: true},
		Domain:        "abc.example",
		PrefersBorder: &border,
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"csp":{"connectDomains":["https://api.example.com"],"resourceDomains":["https://*.cdn.example"]},"permissions":{"camera":{},"clipboardWrite":{}},"domain":"abc.example","prefersBorder":true}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	var back apps.ViewMeta
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if string(again) != want {
		t.Fatalf("round trip: %s", again)
	}
	if b, _ := json.Marshal(apps.ViewMeta{}); string(b) != `{}` {
		t.Fatalf("zero ViewMeta = %s, want {}", b)
	}
}

func TestClientSupports(t *testing.T) {
	tests := []struct {
		name string
		caps *protocol.ClientCapabilities
		want bool
	}{
		{"nil", nil, false},
		{"none", &protocol.ClientCapabilities{}, false},
		{"other extension", &protocol.ClientCapabilities{Extensions: map[string]json.RawMessage{"io.modelcontextprotocol/tasks": json.RawMessage(`{}`)}}, false},
		{"no mime types", &protocol.ClientCapabilities{Extensions: map[string]json.RawMessage{apps.Extension: json.RawMessage(`{}`)}}, false},
		{"other mime type", &protocol.ClientCapabilities{Extensions: map[string]json.RawMessage{apps.Extension: json.RawMessage(`{"mimeTypes":["text/uri-list"]}`)}}, false},
		{"malformed", &protocol.ClientCapabilities{Extensions: map[string]json.RawMessage{apps.Extension: json.RawMessage(`{"mimeTypes":"text/html;profile=mcp-app"}`)}}, false},
		{"html", &protocol.ClientCapabilities{Extensions: map[string]json.RawMessage{apps.Extension: json.RawMessage(`{"mimeTypes":["text/uri-list","text/html;profile=mcp-app"]}`)}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := apps.ClientSupports(tt.caps); got != tt.want {
				t.Fatalf("ClientSupports = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestToolMetaOf(t *testing.T) {
	decode := func(s string) *protocol.Tool {
		var tool protocol.Tool
		if err := protocol.Unmarshal([]byte(s), &tool); err != nil {
			t.Fatal(err)
		}
		return &tool
	}
	tests := []struct {
		name    string
		tool    *protocol.Tool
		want    apps.ToolMeta
		ok, err bool
	}{
		{"none", decode(`{"name":"a","inputSchema":{"type":"object"}}`), apps.ToolMeta{}, false, false},
		{"ui", decode(`{"name":"a","inputSchema":{"type":"object"},"_meta":{"ui":{"resourceUri":"ui://a/v","visibility":["app"]}}}`),
			apps.ToolMeta{ResourceURI: "ui://a/v", Visibility: []apps.Visibility{apps.VisibilityApp}}, true, false},
		{"legacy key", decode(`{"name":"a","inputSchema":{"type":"object"},"_meta":{"ui/resourceUri":"ui://a/old"}}`),
			apps.ToolMeta{ResourceURI: "ui://a/old"}, true, false},
		{"malformed", decode(`{"name":"a","inputSchema":{"type":"object"},"_meta":{"ui":{"resourceUri":7}}}`), apps.ToolMeta{}, false, true},
		{"typed value", &protocol.Tool{Name: "a", Meta: protocol.Meta{"ui": apps.ToolMeta{ResourceURI: "ui://a/v"}}}, apps.ToolMeta{ResourceURI: "ui://a/v"}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := apps.ToolMetaOf(tt.tool)
			if (err != nil) != tt.err || ok != tt.ok {
				t.Fatalf("ToolMetaOf = %+v, %v, %v; want ok=%v err=%v", got, ok, err, tt.ok, tt.err)
			}
			if got.ResourceURI != tt.want.ResourceURI || len(got.Visibility) != len(tt.want.Visibility) {
				t.Fatalf("ToolMetaOf = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestVisibleTo(t *testing.T) {
	both := apps.ToolMeta{}
	appOnly := apps.ToolMeta{Visibility: []apps.Visibility{apps.VisibilityApp}}
	if !both.VisibleTo(apps.VisibilityModel) || !both.VisibleTo(apps.VisibilityApp) {
		t.Error("empty visibility must mean both")
	}
	if appOnly.VisibleTo(apps.VisibilityModel) || !appOnly.VisibleTo(apps.VisibilityApp) {
		t.Error("app-only tool visible to the model")
	}
}
