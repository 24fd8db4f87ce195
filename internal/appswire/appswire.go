// Package appswire is the wire vocabulary of the MCP Apps extension
// (io.modelcontextprotocol/ui) that the rest of the SDK reads: its
// identifier, keys and MIME type, and the few parsers the client and the
// proxy need. Package apps exports it to users, with the extension's types;
// package fastmcp uses this package instead, so that neither a server nor a
// client links package apps unless it uses the extension.
package appswire

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/fastmcp-go/fastmcp/protocol"
)

const (
	// Extension is the extension's identifier in capabilities.
	Extension = "io.modelcontextprotocol/ui"
	// MIMEType is the MIME type of an HTML view.
	MIMEType = "text/html;profile=mcp-app"
	// MetaKey is the _meta key of a tool's or a view's metadata.
	MetaKey = "ui"
	// LegacyResourceURIMetaKey is the flat _meta key older hosts read a
	// tool's view URI from.
	LegacyResourceURIMetaKey = "ui/resourceUri"
	// VisibilityModel and VisibilityApp are the values of a tool's
	// _meta.ui.visibility.
	VisibilityModel = "model"
	VisibilityApp   = "app"
)

// IsViewMIMEType reports whether mime is MIMEType, ignoring case, spaces
// around parameters, quotes around the profile and other parameters.
func IsViewMIMEType(mime string) bool {
	typ, params, _ := strings.Cut(mime, ";")
	if !strings.EqualFold(strings.TrimSpace(typ), "text/html") {
		return false
	}
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(p, "=")
		if strings.EqualFold(strings.TrimSpace(k), "profile") && strings.Trim(strings.TrimSpace(v), `"`) == "mcp-app" {
			return true
		}
	}
	return false
}

// ClientSettings is the extension's settings object in a client's
// capabilities.
type ClientSettings struct {
	MIMETypes []string `json:"mimeTypes"`
}

// ClientSupports reports whether caps declare the extension with MIMEType.
func ClientSupports(caps *protocol.ClientCapabilities) bool {
	if caps == nil {
		return false
	}
	raw, ok := caps.Extensions[Extension]
	if !ok {
		return false
	}
	var s ClientSettings
	if err := json.Unmarshal(raw, &s); err != nil {
		return false
	}
	return slices.Contains(s.MIMETypes, MIMEType)
}

// ToolMeta is a tool's _meta.ui as on the wire.
type ToolMeta struct {
	ResourceURI string   `json:"resourceUri,omitzero"`
	Visibility  []string `json:"visibility,omitzero"`
}

// VisibleTo reports whether v (VisibilityModel or VisibilityApp) may call
// the tool: an empty visibility means both may.
func (m ToolMeta) VisibleTo(v string) bool {
	return len(m.Visibility) == 0 || slices.Contains(m.Visibility, v)
}

// ToolMetaOf returns the _meta.ui of a listed tool, or the deprecated flat
// _meta["ui/resourceUri"] of older servers; ok is false when it has
// neither.
func ToolMetaOf(t *protocol.Tool) (m ToolMeta, ok bool, err error) {
	if t == nil {
		return ToolMeta{}, false, nil
	}
	if v, present := t.Meta[MetaKey]; present {
		if err := Convert(v, &m); err != nil {
			return ToolMeta{}, false, fmt.Errorf("apps: tool %q: _meta.ui: %w", t.Name, err)
		}
		ok = true
	}
	if m.ResourceURI == "" {
		if uri, isString := t.Meta[LegacyResourceURIMetaKey].(string); isString && uri != "" {
			m.ResourceURI, ok = uri, true
		}
	}
	return m, ok, nil
}

// Convert decodes v, a value from a decoded _meta (a map, or a typed value
// a server put there), into out.
func Convert(v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
