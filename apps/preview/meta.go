package preview

import (
	"encoding/json"
	"slices"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// MIMEType is the MIME type of an MCP Apps view (an HTML ui:// resource).
const MIMEType = "text/html;profile=mcp-app"

// toolUI is the part of a tool's _meta.ui the preview uses.
type toolUI struct {
	ResourceURI string   `json:"resourceUri,omitempty"`
	Visibility  []string `json:"visibility,omitempty"`
}

// toolUIOf decodes the tool's _meta.ui, falling back on the deprecated flat
// key "ui/resourceUri".
func toolUIOf(t *protocol.Tool) toolUI {
	var ui toolUI
	if raw, ok := t.Meta["ui"]; ok {
		decodeInto(raw, &ui)
	}
	if ui.ResourceURI == "" {
		if s, ok := t.Meta["ui/resourceUri"].(string); ok {
			ui.ResourceURI = s
		}
	}
	return ui
}

// visibleTo reports whether who ("model" or "app") may call the tool. An
// absent or empty visibility means both.
func (ui toolUI) visibleTo(who string) bool {
	return len(ui.Visibility) == 0 || slices.Contains(ui.Visibility, who)
}

// resourceCSP is _meta.ui.csp of a view resource.
type resourceCSP struct {
	ConnectDomains  []string `json:"connectDomains,omitempty"`
	ResourceDomains []string `json:"resourceDomains,omitempty"`
	FrameDomains    []string `json:"frameDomains,omitempty"`
	BaseURIDomains  []string `json:"baseUriDomains,omitempty"`
}

// resourceUI is the part of a view resource's _meta.ui the preview uses.
type resourceUI struct {
	CSP           *resourceCSP   `json:"csp,omitempty"`
	Permissions   map[string]any `json:"permissions,omitempty"`
	Domain        string         `json:"domain,omitempty"`
	PrefersBorder *bool          `json:"prefersBorder,omitempty"`
}

func resourceUIOf(m protocol.Meta) (ui resourceUI, ok bool) {
	raw, ok := m["ui"]
	if !ok {
		return ui, false
	}
	decodeInto(raw, &ui)
	return ui, true
}

// decodeInto re-encodes a decoded _meta value into dst; a value of the
// wrong shape leaves dst as it was.
func decodeInto(v any, dst any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	_ = json.Unmarshal(b, dst)
}
