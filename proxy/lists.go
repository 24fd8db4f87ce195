package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"maps"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/appswire"
	"github.com/fastmcp-go/fastmcp/internal/serverlink"
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
	l := &serverlink.Lists{Told: told}
	select {
	case <-p.ready:
	default:
		l.First = true
	}
	if kinds&listTools != 0 && caps.Tools != nil {
		p.fetchTools(ctx, l)
	}
	if kinds&listPrompts != 0 && caps.Prompts != nil {
		p.fetchPrompts(ctx, l)
	}
	if kinds&listResources != 0 && caps.Resources != nil {
		p.fetchResources(ctx, l)
	}
	p.srv.SetLists(l)
}

// fetchTools fetches the backend's tools into l.
func (p *proxyBackend) fetchTools(ctx context.Context, l *serverlink.Lists) {
	items, err := p.fetch(ctx, protocol.MethodToolsList, "tools")
	if err != nil {
		p.fetchFailed(protocol.MethodToolsList, err)
		return
	}
	l.Tools = make([]serverlink.Tool, 0, len(items))
	for _, raw := range items {
		var def protocol.Tool
		if err := protocol.Unmarshal(raw, &def); err != nil || def.Name == "" {
			p.logger.Warn("proxy: a tool the backend listed is left out: it does not decode", "tool", string(raw), "error", err)
			continue
		}
		t := serverlink.Tool{Def: &def, Raw: raw}
		if appTool(&t) {
			l.RendersViews = appswire.ClientSupports
		}
		if len(def.InputSchema) > 0 {
			// The arguments mirrored in Mcp-Param headers, which the
			// proxy checks as the backend would.
			if hs, err := schema.HeadersOf(def.InputSchema); err == nil {
				t.Headers = hs
			}
		}
		l.Tools = append(l.Tools, t)
	}
	p.link.InvalidateTools() // its Mcp-Param header definitions
}

// fetchPrompts fetches the backend's prompts into l.
func (p *proxyBackend) fetchPrompts(ctx context.Context, l *serverlink.Lists) {
	items, err := p.fetch(ctx, protocol.MethodPromptsList, "prompts")
	if err != nil {
		p.fetchFailed(protocol.MethodPromptsList, err)
		return
	}
	l.Prompts = make([]serverlink.Prompt, 0, len(items))
	for _, raw := range items {
		var def protocol.Prompt
		if err := protocol.Unmarshal(raw, &def); err != nil || def.Name == "" {
			p.logger.Warn("proxy: a prompt the backend listed is left out: it does not decode", "prompt", string(raw), "error", err)
			continue
		}
		l.Prompts = append(l.Prompts, serverlink.Prompt{Def: &def, Raw: raw})
	}
}

// fetchResources fetches the backend's resources and resource templates
// into l. Each list that cannot be fetched keeps its last state, without
// holding up the other; a backend without resources/templates/list
// (MethodNotFound) has no templates.
func (p *proxyBackend) fetchResources(ctx context.Context, l *serverlink.Lists) {
	if items, err := p.fetchOptional(ctx, protocol.MethodResourcesList, "resources"); err != nil {
		p.fetchFailed(protocol.MethodResourcesList, err)
	} else {
		l.Resources = make([]serverlink.Resource, 0, len(items))
		for _, raw := range items {
			var def protocol.Resource
			if err := protocol.Unmarshal(raw, &def); err != nil || def.URI == "" {
				p.logger.Warn("proxy: a resource the backend listed is left out: it does not decode", "resource", string(raw), "error", err)
				continue
			}
			// An MCP Apps view: not listed to callers that render none.
			l.Resources = append(l.Resources, serverlink.Resource{Def: &def, Raw: raw, View: appswire.IsViewMIMEType(def.MIMEType)})
		}
	}
	if items, err := p.fetchOptional(ctx, protocol.MethodResourcesTemplatesList, "resourceTemplates"); err != nil {
		p.fetchFailed(protocol.MethodResourcesTemplatesList, err)
	} else {
		l.Templates = make([]serverlink.Template, 0, len(items))
		for _, raw := range items {
			var def protocol.ResourceTemplate
			if err := protocol.Unmarshal(raw, &def); err != nil || def.URITemplate == "" {
				p.logger.Warn("proxy: a resource template the backend listed is left out: it does not decode", "template", string(raw), "error", err)
				continue
			}
			l.Templates = append(l.Templates, serverlink.Template{Def: &def, Raw: raw})
		}
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
// AppOnly, so that those callers get the extension's fallback. It reports
// whether t is an MCP Apps tool.
func appTool(t *serverlink.Tool) bool {
	m, ok, err := appswire.ToolMetaOf(t.Def)
	if !ok || err != nil {
		return false
	}
	def := *t.Def
	def.Meta = maps.Clone(def.Meta)
	delete(def.Meta, appswire.MetaKey)
	delete(def.Meta, appswire.LegacyResourceURIMetaKey)
	if len(def.Meta) == 0 {
		def.Meta = nil
	}
	plain, err := protocol.Marshal(&def)
	if err != nil {
		return false
	}
	t.Plain = plain
	t.AppOnly = m.VisibleTo(appswire.VisibilityApp) && !m.VisibleTo(appswire.VisibilityModel)
	return true
}

// fetchFailed logs a list that could not be fetched.
func (p *proxyBackend) fetchFailed(method string, err error) {
	if p.link.Context().Err() != nil {
		return // the client was closed
	}
	p.logger.Warn("proxy: the backend's list could not be fetched; the proxy keeps the last one", "method", method, "error", err)
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
