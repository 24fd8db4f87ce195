package fastmcp

import (
	"slices"
	"sync/atomic"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// This file holds tags and the run-time switches that select by them:
// Tags, Component, Selector, Server.Enable and Server.Disable. Per-caller
// visibility is in visibility.go.

// Tags labels a tool, resource, resource template or prompt with tags:
// names for groups of components ("admin", "billing", "read") that
// Server.Enable, Server.Disable and a Visibility function can select by.
// Tags are the server's own: clients do not see them. Several Tags options
// add up; each tag is kept once.
func Tags(tags ...string) CommonOption {
	tags = slices.Clone(tags)
	return commonOption(func(c *itemConfig) {
		for _, t := range tags {
			if !slices.Contains(c.tags, t) {
				c.tags = append(c.tags, t)
			}
		}
	})
}

// ComponentKind says what a Component is.
type ComponentKind string

// The kinds of components.
const (
	KindTool             ComponentKind = "tool"
	KindPrompt           ComponentKind = "prompt"
	KindResource         ComponentKind = "resource"
	KindResourceTemplate ComponentKind = "resource template"
)

// A Component describes a tool, prompt, resource or resource template to a
// Selector or a Visibility function.
type Component struct {
	Kind ComponentKind
	// Name is the tool's or prompt's name, the resource's URI or the
	// template's URI template, as clients list it (with a mount's prefix).
	Name string
	// Tags are the component's tags (Tags). Do not modify them.
	Tags []string
}

// HasTag reports whether the component has one of tags.
func (c Component) HasTag(tags ...string) bool {
	for _, t := range tags {
		if slices.Contains(c.Tags, t) {
			return true
		}
	}
	return false
}

func (t *tool) component() Component {
	return Component{Kind: KindTool, Name: t.def.Name, Tags: t.tags}
}
func (p *prompt) component() Component {
	return Component{Kind: KindPrompt, Name: p.def.Name, Tags: p.tags}
}
func (r *resource) component() Component {
	return Component{Kind: KindResource, Name: r.def.URI, Tags: r.tags}
}
func (t *resourceTemplate) component() Component {
	return Component{Kind: KindResourceTemplate, Name: t.def.URITemplate, Tags: t.tags}
}

// A Selector picks components for Server.Enable and Server.Disable: those
// of Kinds (every kind when empty) that are named in Names or have one of
// Tags, or, with All, every one of those kinds. The zero Selector picks
// none.
type Selector struct {
	// Names are tool and prompt names, resource URIs and resource
	// template URI templates.
	Names []string
	// Tags select the components that have any one of them.
	Tags []string
	// All selects every component of Kinds, named or not.
	All bool
	// Kinds limits the selection to components of these kinds.
	Kinds []ComponentKind
}

// Matches reports whether the selector picks c.
func (sel *Selector) Matches(c Component) bool {
	if len(sel.Kinds) > 0 && !slices.Contains(sel.Kinds, c.Kind) {
		return false
	}
	return sel.All || slices.Contains(sel.Names, c.Name) || c.HasTag(sel.Tags...)
}

func (sel *Selector) equal(o *Selector) bool {
	return sel.All == o.All && slices.Equal(sel.Names, o.Names) && slices.Equal(sel.Tags, o.Tags) && slices.Equal(sel.Kinds, o.Kinds)
}

// switchRule is one call of Enable or Disable.
type switchRule struct {
	sel Selector
	on  bool
}

// switches are the Enable and Disable calls in effect, oldest first; the
// last that matches a component decides. A slice once stored is never
// modified.
type switches struct {
	rules atomic.Pointer[[]switchRule]
}

// enabled reports whether c is enabled.
func (w *switches) enabled(c Component) bool { return enabledBy(w.rules.Load(), c) }

// enabledBy reports whether c is enabled under rules: the last rule that
// matches it says, and with none it is.
func enabledBy(rules *[]switchRule, c Component) bool {
	if rules == nil {
		return true
	}
	for i := len(*rules) - 1; i >= 0; i-- {
		if r := &(*rules)[i]; r.sel.Matches(c) {
			return r.on
		}
	}
	return true
}

// Enable makes the components sel picks available again after Disable: listed
// to clients and usable. Components are enabled when registered, so Enable
// undoes a Disable, or makes exceptions to a broader one:
//
//	s.Disable(fastmcp.Selector{All: true})
//	s.Enable(fastmcp.Selector{Tags: []string{"public"}}) // only the public ones
//
// The later of two calls that select the same component wins; the choice
// also holds for components registered afterwards. Connected clients get
// notifications/*/list_changed for each list that changed. Enable and
// Disable act on this process: call them on every replica.
func (s *Server) Enable(sel Selector) { s.setSwitch(sel, true) }

// Disable takes the components sel picks out of service: they are neither
// listed nor usable, as if unregistered (a call, read or get of one fails as
// for an unknown name), until Enable selects them again. A tool derived
// from a disabled one with TransformTool still works: disabling the
// original while serving the derived tool is how a transformation
// replaces a tool. See Enable for how calls combine.
func (s *Server) Disable(sel Selector) { s.setSwitch(sel, false) }

func (s *Server) setSwitch(sel Selector, on bool) {
	if !sel.All && len(sel.Names) == 0 && len(sel.Tags) == 0 {
		return // selects nothing
	}
	sel = Selector{Names: slices.Clone(sel.Names), Tags: slices.Clone(sel.Tags), All: sel.All, Kinds: slices.Clone(sel.Kinds)}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.switches.rules.Load()
	var next []switchRule
	if old != nil && !(sel.All && len(sel.Kinds) == 0) {
		// A rule for every component overrides all before it; a rule
		// repeated replaces its earlier self. So the list stays as short as
		// the distinct selections made.
		next = slices.DeleteFunc(slices.Clone(*old), func(r switchRule) bool { return r.sel.equal(&sel) })
	}
	next = append(next, switchRule{sel: sel, on: on})
	s.switches.rules.Store(&next)
	before := func(c Component) bool { return enabledBy(old, c) }
	after := s.switches.enabled
	if switched(&s.tools, before, after) {
		s.notifyListChanged(protocol.NotificationToolsListChanged)
	}
	if switched(&s.prompts.reg, before, after) {
		s.notifyListChanged(protocol.NotificationPromptsListChanged)
	}
	st, tt := switched(&s.resources.static, before, after), switched(&s.resources.templates, before, after)
	if st || tt {
		s.notifyListChanged(protocol.NotificationResourcesListChanged)
	}
}

// switched drops r's snapshot, so the next reader lists what is enabled
// now, and reports whether an entry of r changed state between before and
// after.
func switched[T entry](r *registry[T], before, after func(Component) bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.snap.Store(nil)
	for _, e := range r.cur {
		c := e.component()
		if before(c) != after(c) {
			return true
		}
	}
	return false
}
