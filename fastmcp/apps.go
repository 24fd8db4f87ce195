package fastmcp

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"

	"github.com/fastmcp-go/fastmcp/internal/appswire"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// ToolUI is the MCP Apps part of a tool (the extension
// io.modelcontextprotocol/ui): what clients that render views get of it
// beyond what the others get. Package apps's tool options (apps.WithView,
// apps.AppOnly, apps.ModelOnly) fill it in through WithToolUI; use those.
// This is their hook into the server, which keeps the extension's code out
// of programs that do not use it.
type ToolUI struct {
	// Meta holds the _meta members (such as "ui") listed with the tool to
	// clients that render views; the others get the tool without them.
	Meta protocol.Meta
	// AppOnly hides the tool from clients that render no views: they
	// neither list nor call it.
	AppOnly bool
	// View is the view registered with the tool; nil for none.
	View *ToolView
}

// ToolView is a view registered with a tool (ToolUI.View): a resource
// served at URI with the extension's MIME type. It is registered once
// however many tools share it (they must give equal ToolViews), listed only
// to clients that render views, and removed with the last tool that has it.
// The server declares the extension in its capabilities once it has a view.
type ToolView struct {
	URI         string // the view's ui:// URI
	Name        string // its name in resources/list
	Description string // what it shows, in resources/list
	HTML        string // the whole document
	// Meta is the view's _meta, sent with its listing and with every read.
	Meta protocol.Meta
}

// WithToolUI returns the tool option that, at registration, calls set with
// the tool's ToolUI (the options given run in order, on the same ToolUI,
// empty at first), its name and its Meta. An error from set fails the
// registration.
func WithToolUI(set func(ui *ToolUI, tool string, meta protocol.Meta) error) ToolOption {
	return toolOption(func(c *toolConfig) { c.app.sets, c.app.code = append(c.app.sets, set), appsImpl })
}

// appConfig is what the MCP Apps options (WithToolUI) set on a tool.
type appConfig struct {
	sets []func(ui *ToolUI, tool string, meta protocol.Meta) error
	code *appsCode // set by the options: the code that serves them
}

// appsCode is the MCP Apps code of package fastmcp. The options that use
// the extension carry it, so that a program that uses none of them does
// not link it.
type appsCode struct {
	build          func(a *appConfig, name string, meta protocol.Meta) (*ToolUI, error)
	finish         func(t *tool, def *protocol.Tool, ui *ToolUI) error
	add            func(s *Server, t *tool) error // checkView, then addView; s.mu held
	drop           func(s *Server, uri string)    // dropViewIfUnused; s.mu held
	clientSupports func(*protocol.ClientCapabilities) bool
}

var appsImpl = &appsCode{
	build:  (*appConfig).build,
	finish: finishAppTool,
	add: func(s *Server, t *tool) error {
		registered, err := s.checkView(t.view)
		if err == nil && !registered {
			s.addView(t.view, t.viewRes)
		}
		return err
	},
	drop:           (*Server).dropViewIfUnused,
	clientSupports: appswire.ClientSupports,
}

// build runs the options on a new ToolUI; nil when they leave it empty.
func (a *appConfig) build(name string, meta protocol.Meta) (*ToolUI, error) {
	ui := &ToolUI{}
	for _, set := range a.sets {
		if err := set(ui, name, meta); err != nil {
			return nil, fmt.Errorf("fastmcp: tool %q: %w", name, err)
		}
	}
	if len(ui.Meta) == 0 && !ui.AppOnly && ui.View == nil {
		return nil, nil
	}
	return ui, nil
}

// finishAppTool adds ui's members to def's _meta, and, for a view, sets
// the tool's copy of it and the resource serving it.
func finishAppTool(t *tool, def *protocol.Tool, ui *ToolUI) error {
	meta := maps.Clone(def.Meta)
	if meta == nil {
		meta = protocol.Meta{}
	}
	maps.Copy(meta, ui.Meta)
	def.Meta = meta
	if ui.View != nil {
		v := *ui.View
		t.view = &v
		var err error
		if t.viewRes, err = newViewResource(t.view); err != nil {
			return fmt.Errorf("fastmcp: tool %q: view: %w", def.Name, err)
		}
	}
	return nil
}

// newViewResource builds the resource serving v.
func newViewResource(v *ToolView) (*resource, error) {
	cfg := &resourceConfig{name: v.Name, mimeType: appswire.MIMEType}
	cfg.description = v.Description
	cfg.meta = v.Meta
	contents := ResourceContents{URI: v.URI, MIMEType: appswire.MIMEType, Text: v.HTML, Meta: v.Meta}
	r, err := newResource(v.URI, func() ResourceContents { return contents }, cfg)
	if err != nil {
		return nil, err
	}
	r.view = true
	return r, nil
}

// sameView reports whether a and b serve the same thing.
func sameView(a, b *ToolView) bool {
	return a.HTML == b.HTML && a.Name == b.Name && a.Description == b.Description && reflect.DeepEqual(a.Meta, b.Meta)
}

// checkView reports whether v can be registered: nil when its URI is free
// or holds the same view already; s.mu held.
func (s *Server) checkView(v *ToolView) (registered bool, err error) {
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
func (s *Server) addView(v *ToolView, r *resource) {
	if s.apps.views == nil {
		s.apps.views = map[string]*ToolView{}
		s.ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) {
			if c.Extensions == nil {
				c.Extensions = map[string]json.RawMessage{}
			}
			c.Extensions[appswire.Extension] = json.RawMessage("{}")
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
