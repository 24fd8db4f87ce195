package fastmcp

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"

	"github.com/fastmcp-go/fastmcp/apps"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// appConfig is what the MCP Apps options (App, AppOnly, ModelOnly) set on
// a tool.
type appConfig struct {
	view      *apps.View
	viewSet   bool // App was given (perhaps with nil)
	appOnly   bool
	modelOnly bool
	code      *appsCode // set by the options: the code that serves them
}

// appsCode is the MCP Apps code of package fastmcp. The options that use
// the extension carry it, so that a program that uses none of them does
// not link it (nor package apps's).
type appsCode struct {
	toolMeta       func(a *appConfig, name string, meta protocol.Meta) (apps.ToolMeta, bool, error)
	finish         func(t *tool, def *protocol.Tool, a *appConfig, meta protocol.Meta, m apps.ToolMeta) error
	add            func(s *Server, t *tool) error // checkView, then addView; s.mu held
	drop           func(s *Server, uri string)    // dropViewIfUnused; s.mu held
	clientSupports func(*protocol.ClientCapabilities) bool
}

var appsImpl = &appsCode{
	toolMeta: (*appConfig).toolMeta,
	finish:   finishAppTool,
	add: func(s *Server, t *tool) error {
		registered, err := s.checkView(t.view)
		if err == nil && !registered {
			s.addView(t.view, t.viewRes)
		}
		return err
	},
	drop:           (*Server).dropViewIfUnused,
	clientSupports: apps.ClientSupports,
}

// finishAppTool sets _meta.ui m in def, and, for App, the tool's copy of
// the view and the resource serving it.
func finishAppTool(t *tool, def *protocol.Tool, a *appConfig, meta protocol.Meta, m apps.ToolMeta) (err error) {
	def.Meta = withToolMeta(meta, m)
	if a.viewSet {
		if t.view, err = cloneView(a.view); err != nil {
			return fmt.Errorf("fastmcp: tool %q: App: %w", def.Name, err)
		}
		if t.viewRes, err = newViewResource(t.view); err != nil {
			return fmt.Errorf("fastmcp: tool %q: App: %w", def.Name, err)
		}
	}
	return nil
}

// App gives a tool an interactive view (the MCP Apps extension): hosts that
// render views show view beside the tool's result, and the view gets the
// tool's arguments and result and may call the server's tools. The view is
// registered as a resource with the tool (once, however many tools share
// it) and the server declares the extension.
//
// Clients that do not render views get the tool as if it had none: no
// _meta.ui, and the result unchanged, so the tool's text content must
// still say what the view shows.
//
// Registration fails when view is not valid (see apps.View.Validate), when
// another view, or a resource that is not a view, has its URI, or when the
// tool's Meta already has a "ui" key.
func App(view *apps.View) ToolOption {
	return toolOption(func(c *toolConfig) { c.app.view, c.app.viewSet, c.app.code = view, true, appsImpl })
}

// AppOnly makes a tool callable by views only (visibility ["app"]): hosts
// leave it out of the model's tool list, and clients that do not render
// views neither see nor call it. Use it for what a view's buttons do.
func AppOnly() ToolOption {
	return toolOption(func(c *toolConfig) { c.app.appOnly, c.app.code = true, appsImpl })
}

// ModelOnly makes a tool callable by the model but not by views
// (visibility ["model"]); hosts refuse a view's call to it.
func ModelOnly() ToolOption {
	return toolOption(func(c *toolConfig) { c.app.modelOnly, c.app.code = true, appsImpl })
}

// toolMeta builds a tool's _meta.ui from its options; ok is false when the
// tool uses none of them.
func (a *appConfig) toolMeta(name string, meta protocol.Meta) (m apps.ToolMeta, ok bool, err error) {
	if !a.viewSet && !a.appOnly && !a.modelOnly {
		return m, false, nil
	}
	if a.appOnly && a.modelOnly {
		return m, false, fmt.Errorf("fastmcp: tool %q: AppOnly and ModelOnly exclude each other: give one, or neither for a tool both may call", name)
	}
	if _, taken := meta[apps.MetaKey]; taken {
		return m, false, fmt.Errorf("fastmcp: tool %q: Meta has a %q key: use fastmcp.App, AppOnly or ModelOnly instead", name, apps.MetaKey)
	}
	if a.viewSet {
		if err := a.view.Validate(); err != nil {
			return m, false, fmt.Errorf("fastmcp: tool %q: App: %w", name, err)
		}
		m.ResourceURI = a.view.URI
	}
	switch {
	case a.appOnly:
		m.Visibility = []apps.Visibility{apps.VisibilityApp}
	case a.modelOnly:
		m.Visibility = []apps.Visibility{apps.VisibilityModel}
	}
	return m, true, nil
}

// withToolMeta returns meta with m under "ui" (and the view's URI under
// the deprecated flat key older hosts read), leaving meta itself alone.
func withToolMeta(meta protocol.Meta, m apps.ToolMeta) protocol.Meta {
	out := maps.Clone(meta)
	if out == nil {
		out = protocol.Meta{}
	}
	out[apps.MetaKey] = m
	if m.ResourceURI != "" {
		out[apps.LegacyResourceURIMetaKey] = m.ResourceURI
	}
	return out
}

// newViewResource builds the resource serving v.
func newViewResource(v *apps.View) (*resource, error) {
	cfg := &resourceConfig{name: v.Name, mimeType: apps.MIMEType}
	cfg.description = v.Description
	var meta protocol.Meta
	if !reflect.ValueOf(v.Meta).IsZero() {
		meta = protocol.Meta{apps.MetaKey: v.Meta}
	}
	cfg.meta = meta
	contents := ResourceContents{URI: v.URI, MIMEType: apps.MIMEType, Text: v.HTML, Meta: meta}
	r, err := newResource(v.URI, func() ResourceContents { return contents }, cfg)
	if err != nil {
		return nil, err
	}
	r.view = true
	return r, nil
}

// cloneView returns a deep copy of v (its Meta holds pointers and
// slices), so that what the server serves cannot change after
// registration.
func cloneView(v *apps.View) (*apps.View, error) {
	cp := *v
	b, err := json.Marshal(v.Meta)
	if err != nil {
		return nil, err
	}
	cp.Meta = apps.ViewMeta{}
	if err := json.Unmarshal(b, &cp.Meta); err != nil {
		return nil, err
	}
	return &cp, nil
}

// sameView reports whether a and b serve the same thing.
func sameView(a, b *apps.View) bool {
	return a.HTML == b.HTML && a.Name == b.Name && a.Description == b.Description && reflect.DeepEqual(a.Meta, b.Meta)
}

// checkView reports whether v can be registered: nil when its URI is free
// or holds the same view already; s.mu held.
func (s *Server) checkView(v *apps.View) (registered bool, err error) {
	if old, ok := s.apps.views[v.URI]; ok {
		if !sameView(old, v) {
			return false, fmt.Errorf("view %s: another view with different contents has this URI: give each view its own ui:// URI, or share one *apps.View between the tools", v.URI)
		}
		return true, nil
	}
	if s.resources.static.has(v.URI) {
		return false, fmt.Errorf("view %s: a resource that is not a view has this URI: give the view another ui:// URI", v.URI)
	}
	return false, nil
}

// addView registers the view resource r for v (a copy the server owns),
// and declares the extension; s.mu held, checkView passed.
func (s *Server) addView(v *apps.View, r *resource) {
	if s.apps.views == nil {
		s.apps.views = map[string]*apps.View{}
		s.ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) {
			if c.Extensions == nil {
				c.Extensions = map[string]json.RawMessage{}
			}
			c.Extensions[apps.Extension] = json.RawMessage("{}")
		})
	}
	s.apps.views[v.URI] = v
	s.installResourceHandlers()
	s.resources.static.update(func(m map[string]*resource) { m[v.URI] = r })
	s.notifyListChanged(protocol.NotificationResourcesListChanged)
}

// dropViewIfUnused removes the view uri when no tool names it any more;
// s.mu held.
func (s *Server) dropViewIfUnused(uri string) {
	if _, ok := s.apps.views[uri]; !ok {
		return // removed already, with RemoveResource
	}
	for _, t := range s.tools.load().sorted {
		if t.view != nil && t.view.URI == uri {
			return
		}
	}
	delete(s.apps.views, uri)
	s.resources.static.update(func(m map[string]*resource) { delete(m, uri) })
	s.notifyListChanged(protocol.NotificationResourcesListChanged)
}
