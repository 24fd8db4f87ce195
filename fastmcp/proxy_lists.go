package fastmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/appswire"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/schema"
)

// sync fetches the lists named by kinds from the backend and puts them in
// the proxy's registries, telling the proxy's clients (and the servers it
// is mounted on) when one changed, or, when told (the backend said they
// changed), in any case. A list that cannot be fetched keeps its last
// state; the failure is logged.
func (p *proxyBackend) sync(ctx context.Context, kinds listKinds, told bool) {
	caps := p.client.ServerCapabilities()
	if kinds&listTools != 0 && caps.Tools != nil {
		p.syncTools(ctx, told)
	}
	if kinds&listPrompts != 0 && caps.Prompts != nil {
		p.syncPrompts(ctx, told)
	}
	if kinds&listResources != 0 && caps.Resources != nil {
		p.syncResources(ctx, told)
	}
}

func (p *proxyBackend) syncTools(ctx context.Context, told bool) {
	items, err := p.fetch(ctx, protocol.MethodToolsList, "tools")
	if err != nil {
		p.fetchFailed(protocol.MethodToolsList, err)
		return
	}
	next := make(map[string]*tool, len(items))
	for _, raw := range items {
		var def protocol.Tool
		if err := protocol.Unmarshal(raw, &def); err != nil || def.Name == "" {
			p.srv.logger.Warn("proxy: a tool the backend listed is left out: it does not decode", "tool", string(raw), "error", err)
			continue
		}
		t := &tool{def: &def, enc: raw}
		p.appTool(t)
		if len(def.InputSchema) > 0 {
			// The arguments mirrored in Mcp-Param headers, which the
			// proxy checks as the backend would.
			if hs, err := schema.HeadersOf(def.InputSchema); err == nil {
				t.headers = hs
			}
		}
		next[def.Name] = t
	}
	p.link.InvalidateTools() // its Mcp-Param header definitions
	s := p.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	if replaceEntries(&s.tools, next) || told {
		p.changed(protocol.NotificationToolsListChanged)
	}
}

func (p *proxyBackend) syncPrompts(ctx context.Context, told bool) {
	items, err := p.fetch(ctx, protocol.MethodPromptsList, "prompts")
	if err != nil {
		p.fetchFailed(protocol.MethodPromptsList, err)
		return
	}
	next := make(map[string]*prompt, len(items))
	for _, raw := range items {
		var def protocol.Prompt
		if err := protocol.Unmarshal(raw, &def); err != nil || def.Name == "" {
			p.srv.logger.Warn("proxy: a prompt the backend listed is left out: it does not decode", "prompt", string(raw), "error", err)
			continue
		}
		next[def.Name] = &prompt{def: &def, enc: raw}
	}
	s := p.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	if replaceEntries(&s.prompts.reg, next) || told {
		p.changed(protocol.NotificationPromptsListChanged)
	}
}

// syncResources fetches the backend's resources and resource templates.
// Each list that cannot be fetched keeps its last state, without holding
// up the other; a backend without resources/templates/list (MethodNotFound)
// has no templates.
func (p *proxyBackend) syncResources(ctx context.Context, told bool) {
	var statics map[string]*resource
	if items, err := p.fetchOptional(ctx, protocol.MethodResourcesList, "resources"); err != nil {
		p.fetchFailed(protocol.MethodResourcesList, err)
	} else {
		statics = make(map[string]*resource, len(items))
		for _, raw := range items {
			var def protocol.Resource
			if err := protocol.Unmarshal(raw, &def); err != nil || def.URI == "" {
				p.srv.logger.Warn("proxy: a resource the backend listed is left out: it does not decode", "resource", string(raw), "error", err)
				continue
			}
			// An MCP Apps view: not listed to callers that render none.
			statics[def.URI] = &resource{def: &def, enc: raw, view: appswire.IsViewMIMEType(def.MIMEType)}
		}
	}
	var templates map[string]*resourceTemplate
	if items, err := p.fetchOptional(ctx, protocol.MethodResourcesTemplatesList, "resourceTemplates"); err != nil {
		p.fetchFailed(protocol.MethodResourcesTemplatesList, err)
	} else {
		templates = make(map[string]*resourceTemplate, len(items))
		for _, raw := range items {
			var def protocol.ResourceTemplate
			if err := protocol.Unmarshal(raw, &def); err != nil || def.URITemplate == "" {
				p.srv.logger.Warn("proxy: a resource template the backend listed is left out: it does not decode", "template", string(raw), "error", err)
				continue
			}
			t := &resourceTemplate{def: &def, enc: raw}
			t.tmpl, _ = parseTemplate(def.URITemplate) // nil when it is not one fastmcp reads: subscribing then needs the backend's word
			templates[def.URITemplate] = t
		}
	}
	if statics == nil && templates == nil {
		return
	}
	s := p.srv
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := statics != nil && replaceEntries(&s.resources.static, statics)
	if templates != nil && replaceEntries(&s.resources.templates, templates) {
		ordered := slices.SortedFunc(maps.Values(templates), compareKeys[*resourceTemplate])
		for _, t := range s.resources.orderedTemplates() {
			if t.mount != nil {
				ordered = append(ordered, t)
			}
		}
		s.resources.ordered.Store(&ordered)
		changed = true
	}
	if changed || told {
		p.changed(protocol.NotificationResourcesListChanged)
	}
}

// fetchOptional is fetch for a list the backend may not implement: its
// MethodNotFound error is an empty list.
func (p *proxyBackend) fetchOptional(ctx context.Context, method, field string) ([]jsontext.Value, error) {
	items, err := p.fetch(ctx, method, field)
	if perr, ok := errors.AsType[*protocol.Error](err); ok && perr.Code == protocol.CodeMethodNotFound {
		return nil, nil
	}
	return items, err
}

// appTool gives t, when the backend lists it as an MCP Apps tool
// (_meta.ui), what the proxy's callers that render no views need: the
// definition without _meta.ui and, for a tool only views may call,
// appOnly, so that those callers get the extension's fallback.
func (p *proxyBackend) appTool(t *tool) {
	m, ok, err := appswire.ToolMetaOf(t.def)
	if !ok || err != nil {
		return
	}
	def := *t.def
	def.Meta = maps.Clone(def.Meta)
	delete(def.Meta, appswire.MetaKey)
	delete(def.Meta, appswire.LegacyResourceURIMetaKey)
	if len(def.Meta) == 0 {
		def.Meta = nil
	}
	plain, err := protocol.Marshal(&def)
	if err != nil {
		return
	}
	t.plain = plain
	t.appOnly = m.VisibleTo(appswire.VisibilityApp) && !m.VisibleTo(appswire.VisibilityModel)
	p.srv.apps.use(appswire.ClientSupports)
}

// changed tells of a list change: the proxy's clients, unless this is the
// first fetch (no client has seen a list: they wait for it), and the
// servers the proxy is mounted on; p.srv.mu held.
func (p *proxyBackend) changed(method string) {
	select {
	case <-p.ready:
		p.srv.notifyListChanged(method)
	default:
		p.srv.childChanged(method, true)
	}
}

func (p *proxyBackend) fetchFailed(method string, err error) {
	if p.link.Context().Err() != nil {
		return // the client was closed
	}
	p.srv.logger.Warn("proxy: the backend's list could not be fetched; the proxy keeps the last one", "method", method, "error", err)
}

// fetch returns every item of a backend list, page after page, each as
// the backend wrote it.
func (p *proxyBackend) fetch(ctx context.Context, method, field string) ([]jsontext.Value, error) {
	var items []jsontext.Value
	cursor := ""
	seen := map[string]bool{}
	for {
		var raw json.RawMessage
		if err := p.link.Call(ctx, method, &protocol.ListParams{Cursor: cursor}, &raw); err != nil {
			return nil, err
		}
		var page map[string]jsontext.Value
		if err := protocol.Unmarshal(raw, &page); err != nil {
			return nil, err
		}
		var got []jsontext.Value
		if v, ok := page[field]; ok && v.Kind() != 'n' {
			if err := protocol.Unmarshal(v, &got); err != nil {
				return nil, err
			}
		}
		items = append(items, got...)
		var next string
		if v, ok := page["nextCursor"]; ok && v.Kind() == '"' {
			_ = protocol.Unmarshal(v, &next)
		}
		if next == "" || seen[next] {
			return items, nil
		}
		seen[next] = true
		cursor = next
	}
}

// replaceEntries makes next the entries of r and reports whether anything
// a list shows changed. The caller serialises updates (s.mu).
// Entries of servers mounted on the proxy stay.
func replaceEntries[T mountable](r *registry[T], next map[string]T) (changed bool) {
	r.update(func(m map[string]T) {
		old := map[string]T{}
		for k, v := range m {
			if v.mountedFrom() != nil {
				delete(next, k) // the mounted one was there first
				continue
			}
			old[k] = v
			delete(m, k)
		}
		changed = len(old) != len(next)
		for k, v := range next {
			if o, ok := old[k]; !ok || !bytes.Equal(o.encoded(), v.encoded()) {
				changed = true
			}
			m[k] = v
		}
	})
	return changed
}
