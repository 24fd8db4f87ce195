package apps_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/fastmcp-go/fastmcp/apps"
	"github.com/fastmcp-go/fastmcp/internal/nodepeers"
)

// TestSchema checks what this package encodes against the JSON Schema the
// extension's reference package (@modelcontextprotocol/ext-apps) publishes.
func TestSchema(t *testing.T) {
	peers := nodepeers.Require(t, "@modelcontextprotocol/ext-apps")
	path := peers.Path("@modelcontextprotocol/ext-apps", "dist/src/generated/schema.json")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	const url = "file:///ext-apps/schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	border := false
	tests := []struct {
		def   string
		value any
	}{
		{"McpUiToolMeta", apps.ToolMeta{}},
		{"McpUiToolMeta", apps.ToolMeta{ResourceURI: "ui://a/v.html", Visibility: []apps.Visibility{apps.VisibilityApp, apps.VisibilityModel}}},
		{"McpUiResourceMeta", apps.ViewMeta{}},
		{"McpUiResourceMeta", apps.ViewMeta{
			CSP:           &apps.CSP{ConnectDomains: []string{"https://a"}, ResourceDomains: []string{"https://b"}, FrameDomains: []string{"https://c"}, BaseURIDomains: []string{"https://d"}},
			Permissions:   &apps.Permissions{Camera: true, Microphone: true, Geolocation: true, ClipboardWrite: true},
			Domain:        "x.example",
			PrefersBorder: &border,
		}},
		{"McpUiClientCapabilities", apps.ClientSettings{MIMETypes: []string{apps.MIMEType}}},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.value)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(tt.def+" "+string(b), func(t *testing.T) {
			sch, err := c.Compile(url + "#/$defs/" + tt.def)
			if err != nil {
				t.Fatal(err)
			}
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(v); err != nil {
				t.Fatalf("%s does not validate as %s: %v", b, tt.def, err)
			}
		})
	}
	// The schema catches a wrong value, or this test would check nothing.
	sch, err := c.Compile(url + "#/$defs/McpUiToolMeta")
	if err != nil {
		t.Fatal(err)
	}
	bad, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(`{"visibility":["everyone"]}`)))
	if sch.Validate(bad) == nil {
		t.Fatal("the schema accepts any visibility: this test checks nothing")
	}
}
