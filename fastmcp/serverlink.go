//lint:file-ignore U1000 reached only through serverLink, which package serverlink names by go:linkname

package fastmcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	_ "unsafe" // go:linkname

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/internal/serverlink"
	"github.com/fastmcp-go/fastmcp/internal/uritemplate"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
)

// The server's side of internal/serverlink, the bridge package proxy
// drives a Server through.

// serverLink returns the bridge to s, a *Server. It is serverlink.Open:
// package serverlink names it with a go:linkname directive, so that only a
// program that calls serverlink.Open (one that builds a proxy) links it and
// the list, prompt, resource and completion code it reaches, which a
// tool-only server does not link (TestMinimalServerLinks). Registering it
// from an init function instead would link all of it into every server
// (209 kB with -tags validator_novalidatefn, measured).
//
//go:linkname serverLink
func serverLink(x any) *serverlink.Server {
	s := x.(*Server)
	return &serverlink.Server{
		SetBackend: func(b serverlink.Backend) {
			s.mu.Lock()
			s.proxy = b
			s.mu.Unlock()
		},
		InstallLists: s.installLists,
		SetLists:     s.setLists,
		Start:        s.startForward,
		InputRequired: func(c context.Context) (any, error) {
			ir, err := c.(*Context).inputRequired()
			if ir == nil {
				return nil, err // not a typed nil
			}
			return ir, err
		},
		Ask: func(c context.Context, kind, key, method string, params, result any) error {
			return c.(*Context).ask(kind, key, method, params, result)
		},
		Refusal: func(err error) (*protocol.Error, bool) {
			if cerr, ok := errors.AsType[*CapabilityError](err); ok {
				return cerr.protocolError(), true
			}
			return nil, false
		},
		CacheAttrs: s.cacheAttrs,
		Principal:  s.principal,
	}
}

// installLists installs the list handlers for what caps declares.
func (s *Server) installLists(caps *protocol.ServerCapabilities) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if caps.Tools != nil {
		s.installToolHandlers()
	}
	if caps.Prompts != nil {
		s.installPromptHandlers()
	}
	if caps.Resources != nil {
		s.installResourceHandlers()
	}
	if caps.Completions != nil {
		s.installCompletionHandler()
	}
}

// startForward begins serving req, a request a proxy forwards (see
// serverlink.Server.Start).
func (s *Server) startForward(ctx context.Context, req *session.Request) (*serverlink.Call, error) {
	var cp callParams
	kind := "extension"
	switch req.Method {
	case protocol.MethodToolsCall, protocol.MethodPromptsGet, protocol.MethodResourcesRead:
		if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &cp); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", protocol.ErrInvalidParams, req.Method, err)
		}
	case protocol.MethodCompletionComplete:
		kind = "completion"
	case protocol.MethodTasksGet, protocol.MethodTasksUpdate, protocol.MethodTasksCancel:
		kind = "task"
	}
	call := &serverlink.Call{Name: cp.Name, URI: cp.URI, Arguments: cp.Arguments}
	target := cp.Name
	switch req.Method {
	case protocol.MethodToolsCall:
		kind = "tool"
		t, ok := s.tools.get(cp.Name)
		switch {
		case ok && t.mount != nil:
			return served(s.callTool(ctx, req)) // a server mounted on the proxy
		case ok && t.appOnly && !s.rendersViews(req):
			// An MCP Apps tool only views may call, hidden from a caller
			// that renders none: as if unknown, as the backend would say.
			return nil, fmt.Errorf("%w: unknown tool %q", protocol.ErrInvalidParams, cp.Name)
		case ok && len(t.headers) > 0:
			if err := checkParamHeaders(req, t.headers, cp.Arguments); err != nil {
				return nil, err
			}
		}
	case protocol.MethodPromptsGet:
		kind = "prompt"
		if pr, ok := s.prompts.reg.get(cp.Name); ok && pr.mount != nil {
			return served(s.getPrompt(ctx, req))
		}
	case protocol.MethodResourcesRead:
		kind, target = "resource", cp.URI
		cp.Arguments = nil
		if l, _ := s.mountFor(cp.URI); l != nil {
			return served(s.readResourceRequest(ctx, req))
		}
	}
	c := newContext(ctx, s, req, kind, target)
	call.Context = c
	if kind == "tool" || kind == "prompt" || kind == "resource" {
		if err := c.startInputs(req.Method, target, cp.Arguments, cp.InputResponses, cp.RequestState); err != nil {
			return nil, err
		}
	}
	return call, nil
}

// served is the Call of a request the server answered itself.
func served(res any, err error) (*serverlink.Call, error) {
	if err != nil {
		return nil, err
	}
	return &serverlink.Call{Served: true, Result: res}, nil
}

// setLists puts a proxy's backend lists in the registries (see
// serverlink.Server.SetLists).
func (s *Server) setLists(l *serverlink.Lists) {
	if l.RendersViews != nil {
		s.apps.use(l.RendersViews)
	}
	var tools map[string]*tool
	if l.Tools != nil {
		tools = make(map[string]*tool, len(l.Tools))
		for _, t := range l.Tools {
			tools[t.Def.Name] = &tool{def: t.Def, enc: t.Raw, plain: t.Plain, appOnly: t.AppOnly, headers: t.Headers}
		}
	}
	var prompts map[string]*prompt
	if l.Prompts != nil {
		prompts = make(map[string]*prompt, len(l.Prompts))
		for _, p := range l.Prompts {
			prompts[p.Def.Name] = &prompt{def: p.Def, enc: p.Raw}
		}
	}
	var statics map[string]*resource
	if l.Resources != nil {
		statics = make(map[string]*resource, len(l.Resources))
		for _, r := range l.Resources {
			statics[r.Def.URI] = &resource{def: r.Def, enc: r.Raw, view: r.View}
		}
	}
	var templates map[string]*resourceTemplate
	if l.Templates != nil {
		templates = make(map[string]*resourceTemplate, len(l.Templates))
		for _, r := range l.Templates {
			t := &resourceTemplate{def: r.Def, enc: r.Raw}
			t.tmpl, _ = uritemplate.Parse(r.Def.URITemplate) // nil when it is not one fastmcp reads: subscribing then needs the backend's word
			templates[r.Def.URITemplate] = t
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := func(method string) {
		if l.First {
			s.childChanged(method, true) // no client has seen a list: they wait for it
		} else {
			s.notifyListChanged(method)
		}
	}
	if tools != nil && (replaceEntries(&s.tools, tools) || l.Told) {
		changed(protocol.NotificationToolsListChanged)
	}
	if prompts != nil && (replaceEntries(&s.prompts.reg, prompts) || l.Told) {
		changed(protocol.NotificationPromptsListChanged)
	}
	resChanged := statics != nil && replaceEntries(&s.resources.static, statics)
	if templates != nil && replaceEntries(&s.resources.templates, templates) {
		ordered := slices.SortedFunc(maps.Values(templates), compareKeys[*resourceTemplate])
		for _, t := range s.resources.orderedTemplates() {
			if t.mount != nil {
				ordered = append(ordered, t)
			}
		}
		s.resources.ordered.Store(&ordered)
		resChanged = true
	}
	if (statics != nil || templates != nil) && (resChanged || l.Told) {
		changed(protocol.NotificationResourcesListChanged)
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
