package apps

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/fastmcp-go/fastmcp/internal/appswire"
	"github.com/fastmcp-go/fastmcp/protocol"
)

const (
	// Extension is the extension's identifier, declared under extensions in
	// the client's and the server's capabilities.
	Extension = appswire.Extension
	// MIMEType is the MIME type of an HTML view.
	MIMEType = appswire.MIMEType
	// Scheme is the URI scheme every view's URI has.
	Scheme = "ui"
	// MetaKey is the _meta key under which tools and views carry their
	// ToolMeta and ViewMeta.
	MetaKey = appswire.MetaKey
	// LegacyResourceURIMetaKey is the flat _meta key older hosts read a
	// tool's view URI from (deprecated by the extension in favour of
	// _meta.ui.resourceUri; servers publish both).
	LegacyResourceURIMetaKey = appswire.LegacyResourceURIMetaKey
)

// IsViewMIMEType reports whether a resource's MIME type is MIMEType,
// ignoring case, spaces around parameters, quotes around the profile and
// other parameters (such as charset): "text/html; profile=mcp-app" is a
// view too.
func IsViewMIMEType(mime string) bool { return appswire.IsViewMIMEType(mime) }

// ViewMeta is the _meta.ui of a view: what the host needs to know to
// sandbox it. The zero value asks for nothing: no network, no external
// resources, no nested frames, the host's default border.
type ViewMeta struct {
	// CSP lists the origins the view may reach; hosts allow nothing else.
	CSP *CSP `json:"csp,omitzero"`
	// Permissions lists the browser features the view asks for; hosts may
	// refuse them, so the view must detect what it got.
	Permissions *Permissions `json:"permissions,omitzero"`
	// Domain asks for a dedicated sandbox origin, in the form the host
	// documents (for example "a904794854a047f6.claudemcpcontent.com").
	Domain string `json:"domain,omitzero"`
	// PrefersBorder asks the host for a visible border and background
	// (true) or none (false); nil leaves it to the host.
	PrefersBorder *bool `json:"prefersBorder,omitzero"`
}

// CSP lists the origins a view's Content Security Policy must allow, such
// as "https://api.example.com" or "https://*.example.com". Empty lists
// allow none.
type CSP struct {
	// ConnectDomains may be reached by fetch, XHR and WebSocket
	// (connect-src).
	ConnectDomains []string `json:"connectDomains,omitzero"`
	// ResourceDomains may serve scripts, stylesheets, images, fonts and
	// media (script-src, style-src, img-src, font-src, media-src).
	ResourceDomains []string `json:"resourceDomains,omitzero"`
	// FrameDomains may be loaded in nested iframes (frame-src).
	FrameDomains []string `json:"frameDomains,omitzero"`
	// BaseURIDomains may be the document's base URI (base-uri).
	BaseURIDomains []string `json:"baseUriDomains,omitzero"`
}

// Permissions are the browser features a view asks for. On the wire each
// one granted is an empty object.
type Permissions struct {
	Camera         bool
	Microphone     bool
	Geolocation    bool
	ClipboardWrite bool
}

type permissionsWire struct {
	Camera         *struct{} `json:"camera,omitempty"`
	Microphone     *struct{} `json:"microphone,omitempty"`
	Geolocation    *struct{} `json:"geolocation,omitempty"`
	ClipboardWrite *struct{} `json:"clipboardWrite,omitempty"`
}

// MarshalJSON encodes each permission asked for as an empty object.
func (p Permissions) MarshalJSON() ([]byte, error) {
	on := func(b bool) *struct{} {
		if b {
			return &struct{}{}
		}
		return nil
	}
	return json.Marshal(permissionsWire{on(p.Camera), on(p.Microphone), on(p.Geolocation), on(p.ClipboardWrite)})
}

// UnmarshalJSON sets each permission present in the object.
func (p *Permissions) UnmarshalJSON(b []byte) error {
	var w permissionsWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*p = Permissions{w.Camera != nil, w.Microphone != nil, w.Geolocation != nil, w.ClipboardWrite != nil}
	return nil
}

// Visibility says who may call a tool.
type Visibility string

const (
	// VisibilityModel: the tool is in the model's tool list.
	VisibilityModel Visibility = appswire.VisibilityModel
	// VisibilityApp: views of the same server may call the tool.
	VisibilityApp Visibility = appswire.VisibilityApp
)

// ToolMeta is the _meta.ui of a tool.
type ToolMeta struct {
	// ResourceURI is the ui:// URI of the tool's view, if it has one.
	ResourceURI string `json:"resourceUri,omitzero"`
	// Visibility says who may call the tool; empty means both the model
	// and views.
	Visibility []Visibility `json:"visibility,omitzero"`
}

// VisibleTo reports whether v may call the tool.
func (m ToolMeta) VisibleTo(v Visibility) bool {
	return len(m.Visibility) == 0 || slices.Contains(m.Visibility, v)
}

// ClientSettings is the extension's settings object in a client's
// capabilities: the view MIME types the host renders.
type ClientSettings struct {
	MIMETypes []string `json:"mimeTypes"`
}

// ClientSupports reports whether caps declare the extension with the HTML
// view MIME type: a host that renders views. Servers give other clients the
// fallback.
func ClientSupports(caps *protocol.ClientCapabilities) bool { return appswire.ClientSupports(caps) }

// ToolMetaOf returns the view metadata of a listed tool: its _meta.ui, or
// the deprecated flat _meta["ui/resourceUri"] of older servers. ok is false
// when the tool has neither; an error says the metadata is malformed.
func ToolMetaOf(t *protocol.Tool) (m ToolMeta, ok bool, err error) {
	w, ok, err := appswire.ToolMetaOf(t)
	if !ok || err != nil {
		return ToolMeta{}, ok, err
	}
	m.ResourceURI = w.ResourceURI
	if w.Visibility != nil {
		m.Visibility = make([]Visibility, len(w.Visibility))
		for i, v := range w.Visibility {
			m.Visibility[i] = Visibility(v)
		}
	}
	return m, true, nil
}

// ViewMetaOf returns the _meta.ui of a view's contents (or of its
// resources/list entry); the zero ViewMeta when meta has none.
func ViewMetaOf(meta protocol.Meta) (ViewMeta, error) {
	var m ViewMeta
	v, ok := meta[MetaKey]
	if !ok {
		return m, nil
	}
	if err := appswire.Convert(v, &m); err != nil {
		return ViewMeta{}, fmt.Errorf("apps: _meta.ui: %w", err)
	}
	return m, nil
}
