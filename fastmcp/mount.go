package fastmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/internal/serverlink"
	"github.com/fastmcp-go/fastmcp/internal/uritemplate"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// listKinds are lists of a server: those a mount fetches again.
type listKinds uint8

const (
	listTools listKinds = 1 << iota
	listPrompts
	listResources
	listAll = listTools | listPrompts | listResources
)

// mountLink is a server mounted on another: its items appear in the
// parent's lists under the prefix, and the parent hands their requests to
// it.
type mountLink struct {
	parent, child *Server
	prefix        string
	// resyncFn is (*mountLink).resync, set by Mount: every server's list
	// changes call childChanged, which reaches resync only through it, so
	// that a server that mounts nothing does not link it (issue 30).
	resyncFn func(l *mountLink, kinds listKinds, quiet bool)
}

// mountState is what a server knows of the servers mounted on it and of
// those it is mounted on.
type mountState struct {
	mu       sync.Mutex // guards parents; a leaf lock
	parents  []*mountLink
	children []*mountLink // the mounts on this server; s.mu
}

// Mount composes servers: other's tools and prompts appear on s as
// prefix_name, its resources and resource templates as prefix+uri
// (weather+file:///x for file:///x mounted as "weather"), and s hands
// their requests to other, which serves them as its own (its handlers'
// Context, scopes, completions, elicitation and sampling included).
// other may be a proxy (package proxy): Mount then composes remote servers. Later changes
// to other's lists reach s's clients as list_changed notifications, and
// resources/updated of other's resources reach s's subscribers.
//
// prefix starts with a letter and has letters, digits, '-' and '.' (it
// becomes part of URI schemes). Mount panics on a mistake (a bad prefix,
// a name that would clash with one of s's, mounting a server on itself),
// with a message saying how to fix it; the panic value is an error
// matching ErrRegistration, so code that mounts from data can recover it.
// An item other registers later whose name clashes is left out of s's
// lists, and the clash is logged.
func (s *Server) Mount(prefix string, other *Server) {
	mustRegister(s.addMount(prefix, other))
}

// addMount mounts other on s under prefix; Mount panics with its error.
func (s *Server) addMount(prefix string, other *Server) error {
	if err := validPrefix(prefix); err != nil {
		return err
	}
	if other == nil {
		return fmt.Errorf("fastmcp: Mount(%q): the server to mount is nil", prefix)
	}
	// The loop check and the link are one step for every Mount: two
	// servers mounting each other at once cannot both pass the check.
	mountGraphMu.Lock()
	defer mountGraphMu.Unlock()
	if other == s || other.mountsTransitively(s) {
		return fmt.Errorf("fastmcp: Mount(%q): mounting the server on itself (or on a server mounted on it) would make a loop: mount it elsewhere", prefix)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.mounting.children {
		if l.prefix == prefix {
			return fmt.Errorf("fastmcp: Mount(%q): a server is already mounted with this prefix: choose another prefix", prefix)
		}
	}
	l := &mountLink{parent: s, child: other, prefix: prefix, resyncFn: (*mountLink).resync}
	if err := l.checkClashes(); err != nil {
		return err
	}
	other.mounting.mu.Lock()
	other.mounting.parents = append(other.mounting.parents, l)
	other.mounting.mu.Unlock()
	children := append(slices.Clone(s.mounting.children), l)
	s.mounting.children = children
	s.mounts.Store(&children)

	ll := other.ll
	if ll.Handles(protocol.MethodToolsList) {
		s.installToolHandlers()
	}
	if ll.Handles(protocol.MethodPromptsList) {
		s.installPromptHandlers()
	}
	if ll.Handles(protocol.MethodResourcesList) {
		s.installResourceHandlers()
	}
	if ll.Handles(protocol.MethodCompletionComplete) {
		s.installCompletionHandler()
	}
	l.resync(listAll, false)
	return nil
}

func validPrefix(p string) error {
	bad := p == "" || len(p) > 32 || !(p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
	for _, r := range p {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.':
		default:
			bad = true
		}
	}
	if bad {
		return fmt.Errorf("fastmcp: Mount(%q): the prefix must be 1 to 32 characters, a letter first, then letters, digits, '-' or '.' (it becomes part of tool names and URI schemes)", p)
	}
	return nil
}

// mountGraphMu serialises the changes of the graph of mounts (Mount's
// loop check and linking).
var mountGraphMu sync.Mutex

// mountsTransitively reports whether target is mounted on s, directly or
// further down.
func (s *Server) mountsTransitively(target *Server) bool {
	for _, l := range s.mountedChildren() {
		if l.child == target || l.child.mountsTransitively(target) {
			return true
		}
	}
	return false
}

// mountedChildren returns the mounts on s, without locking.
func (s *Server) mountedChildren() []*mountLink {
	if p := s.mounts.Load(); p != nil {
		return *p
	}
	return nil
}

func (l *mountLink) toolName(name string) string { return l.prefix + "_" + name }
func (l *mountLink) uri(uri string) string       { return l.prefix + "+" + uri }

// checkClashes fails when one of the child's items would take a name the
// parent already has; parent's s.mu held.
func (l *mountLink) checkClashes() error {
	p, c := l.parent, l.child
	fail := func(kind, name, theirs string) error {
		return fmt.Errorf("fastmcp: Mount(%q): %s %q of the mounted server would be %q, which this server already has: choose another prefix, or rename or remove one of them", l.prefix, kind, theirs, name)
	}
	for _, t := range c.tools.load().sorted {
		name := l.toolName(t.def.Name)
		if p.tools.has(name) {
			return fail("tool", name, t.def.Name)
		}
		if err := validToolName(name); err != nil {
			return fmt.Errorf("fastmcp: Mount(%q): tool %q: %w: choose a shorter prefix", l.prefix, t.def.Name, err)
		}
	}
	for _, pr := range c.prompts.reg.load().sorted {
		if name := l.toolName(pr.def.Name); p.prompts.reg.has(name) {
			return fail("prompt", name, pr.def.Name)
		}
	}
	for _, r := range c.resources.static.load().sorted {
		if uri := l.uri(r.def.URI); p.resources.static.has(uri) {
			return fail("resource", uri, r.def.URI)
		}
	}
	for _, t := range c.resources.templates.load().sorted {
		if uri := l.uri(t.def.URITemplate); p.resources.templates.has(uri) {
			return fail("resource template", uri, t.def.URITemplate)
		}
	}
	return nil
}

// childChanged is called when a list of a server changed: the servers it
// is mounted on take the change in, and tell their clients unless quiet
// (a proxy's first fetch, which no client waited for); s.mu held.
func (s *Server) childChanged(method string, quiet bool) {
	s.mounting.mu.Lock()
	parents := slices.Clone(s.mounting.parents)
	s.mounting.mu.Unlock()
	var k listKinds
	switch method {
	case protocol.NotificationToolsListChanged:
		k = listTools
	case protocol.NotificationPromptsListChanged:
		k = listPrompts
	case protocol.NotificationResourcesListChanged:
		k = listResources
	}
	for _, l := range parents {
		l.parent.mu.Lock()
		l.resyncFn(l, k, quiet) // see resyncFn
		l.parent.mu.Unlock()
	}
}

// resync puts the child's current items of kinds in the parent's
// registries, in place of those it put there before, and tells the
// parent's clients when that changed something (quiet: only the servers
// the parent is mounted on); parent's s.mu held.
func (l *mountLink) resync(kinds listKinds, quiet bool) {
	p := l.parent
	notify := p.notifyListChanged
	if quiet {
		notify = func(method string) { p.childChanged(method, true) }
	}
	if kinds&listTools != 0 {
		replaced := replaceMounted(p, &p.tools, l, l.mountedTools(), "tool")
		if derived := p.applyTransforms(); replaced || derived {
			notify(protocol.NotificationToolsListChanged)
		}
	}
	if kinds&listPrompts != 0 && replaceMounted(p, &p.prompts.reg, l, l.mountedPrompts(), "prompt") {
		notify(protocol.NotificationPromptsListChanged)
	}
	if kinds&listResources != 0 && l.resyncResources() {
		notify(protocol.NotificationResourcesListChanged)
	}
}

// mountedTools returns the child's tools as the parent lists them: named
// with the prefix, forwarded to the child.
func (l *mountLink) mountedTools() map[string]*tool {
	p, c := l.parent, l.child
	next := map[string]*tool{}
	for _, t := range c.tools.load().sorted {
		name := l.toolName(t.def.Name)
		def := *t.def
		def.Name = name
		enc, err := withMember(t.enc, "name", name)
		if err == nil {
			err = validToolName(name)
		}
		if err != nil {
			p.logger.Error("Mount: a tool of the mounted server is left out", "prefix", l.prefix, "tool", t.def.Name, "error", err)
			continue
		}
		nt := &tool{def: &def, enc: enc, scopes: t.scopes, tags: t.tags, headers: t.headers, mount: l, orig: t.def.Name, appOnly: t.appOnly}
		if t.plain != nil {
			// An MCP Apps tool: clients without views get it without
			// _meta.ui, as from the mounted server.
			if nt.plain, err = withMember(t.plain, "name", name); err == nil {
				p.apps.use(c.apps.clientSupports) // set in c when its tool got plain
			}
		}
		nt.pipe = toolPipeline(nt)
		next[name] = nt
	}
	return next
}

// mountedPrompts returns the child's prompts as the parent lists them.
func (l *mountLink) mountedPrompts() map[string]*prompt {
	next := map[string]*prompt{}
	for _, pr := range l.child.prompts.reg.load().sorted {
		name := l.toolName(pr.def.Name)
		def := *pr.def
		def.Name = name
		enc, err := withMember(pr.enc, "name", name)
		if err != nil {
			l.parent.logger.Error("Mount: a prompt of the mounted server is left out", "prefix", l.prefix, "prompt", pr.def.Name, "error", err)
			continue
		}
		np := &prompt{def: &def, enc: enc, scopes: pr.scopes, tags: pr.tags, mount: l, orig: pr.def.Name}
		np.pipe = promptPipeline(np)
		next[name] = np
	}
	return next
}

// resyncResources puts the child's resources and templates in the
// parent's registries and reports whether that changed them.
func (l *mountLink) resyncResources() bool {
	p, c := l.parent, l.child
	statics := map[string]*resource{}
	for _, r := range c.resources.static.load().sorted {
		uri := l.uri(r.def.URI)
		def := *r.def
		def.URI = uri
		enc, err := withMember(r.enc, "uri", uri)
		if err != nil {
			p.logger.Error("Mount: a resource of the mounted server is left out", "prefix", l.prefix, "uri", r.def.URI, "error", err)
			continue
		}
		statics[uri] = &resource{def: &def, enc: enc, scopes: r.scopes, tags: r.tags, cache: r.cache, mount: l, orig: r.def.URI}
	}
	templates := map[string]*resourceTemplate{}
	for _, t := range c.resources.templates.load().sorted {
		uri := l.uri(t.def.URITemplate)
		def := *t.def
		def.URITemplate = uri
		enc, err := withMember(t.enc, "uriTemplate", uri)
		if err != nil {
			p.logger.Error("Mount: a resource template of the mounted server is left out", "prefix", l.prefix, "template", t.def.URITemplate, "error", err)
			continue
		}
		nt := &resourceTemplate{def: &def, enc: enc, scopes: t.scopes, tags: t.tags, cache: t.cache, mount: l, orig: t.def.URITemplate}
		nt.tmpl, _ = uritemplate.Parse(uri)
		templates[uri] = nt
	}
	changed := replaceMounted(p, &p.resources.static, l, statics, "resource")
	if replaceMounted(p, &p.resources.templates, l, templates, "resource template") {
		// Mounted templates are tried after the parent's own, in
		// mount order; the parent hands their reads to the child.
		ordered := slices.DeleteFunc(slices.Clone(p.resources.orderedTemplates()), func(t *resourceTemplate) bool { return t.mount == l })
		ordered = append(ordered, slices.SortedFunc(maps.Values(templates), compareKeys[*resourceTemplate])...)
		p.resources.ordered.Store(&ordered)
		changed = true
	}
	return changed
}

// mounted is implemented by the registry entries: the mount an entry
// came from (nil for the server's own).
type mountable interface {
	entry
	mountedFrom() *mountLink
}

// replaceMounted replaces the entries l put in r with next, leaving out
// (and logging) those whose key the parent already has for another
// reason. It reports whether anything changed.
func replaceMounted[T mountable](p *Server, r *registry[T], l *mountLink, next map[string]T, kind string) (changed bool) {
	r.update(func(m map[string]T) {
		old := map[string]T{}
		for k, v := range m {
			if v.mountedFrom() != l {
				if _, clash := next[k]; clash {
					p.logger.Error("Mount: an item of the mounted server is left out: the server has one with that name", "prefix", l.prefix, "kind", kind, "name", k)
					delete(next, k)
				}
				continue
			}
			old[k] = v
			delete(m, k)
		}
		changed = len(old) != len(next)
		for k, v := range next {
			if o, ok := old[k]; !ok || string(o.encoded()) != string(v.encoded()) {
				changed = true
			}
			m[k] = v
		}
	})
	return changed
}

// withMember returns the JSON object obj with the string member key set
// to value, the other members kept byte for byte.
func withMember(obj jsontext.Value, key, value string) (jsontext.Value, error) {
	ms, err := jsonobj.Parse(obj)
	if err != nil {
		return nil, err
	}
	v, err := jsontext.AppendQuote(nil, value)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(obj)+len(value))
	b = append(b, '{')
	for _, m := range ms {
		if m.Name == key {
			b = jsonobj.AppendMember(b, key, v)
			continue
		}
		b = jsonobj.AppendMember(b, m.Name, m.Value)
	}
	return append(b, '}'), nil
}

// renamed returns a copy of req whose params have the member key set to
// the string value: the request as the mounted server must see it.
func renamed(req *lowlevel.Request, key, value string) (*lowlevel.Request, error) {
	params, err := withMember(jsontext.Value(jsonobj.OrEmpty(req.Params)), key, value)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: params must be a JSON object", protocol.ErrInvalidParams, req.Method)
	}
	r := *req
	r.Params = json.RawMessage(params)
	return &r, nil
}

// withoutTasksExtension returns req with the tasks extension left out of
// the capabilities it declares (2026-07-28).
func withoutTasksExtension(req *lowlevel.Request) *lowlevel.Request {
	caps := req.Meta.ClientCapabilities
	if !req.Era.TasksExtension() || caps == nil || !declaresTasks(caps) {
		return req
	}
	c := *caps
	c.Extensions = maps.Clone(c.Extensions)
	delete(c.Extensions, protocol.ExtensionTasks)
	r := *req
	r.Meta.ClientCapabilities = &c
	return &r
}

// mountFor returns the mount whose prefix uri has, and uri without it.
func (s *Server) mountFor(uri string) (*mountLink, string) {
	for _, l := range s.mountedChildren() {
		if rest, ok := strings.CutPrefix(uri, l.prefix+"+"); ok {
			return l, rest
		}
	}
	return nil, ""
}

// The handlers of a server, as a server it is mounted on calls them: a
// proxy's forward, other servers serve.

func (s *Server) serveCallTool(ctx context.Context, req *lowlevel.Request) (any, error) {
	if s.proxy != nil {
		return s.proxy.CallTool(ctx, req)
	}
	return s.callTool(ctx, req)
}

func (s *Server) serveGetPrompt(ctx context.Context, req *lowlevel.Request) (any, error) {
	if s.proxy != nil {
		return s.proxy.GetPrompt(ctx, req)
	}
	return s.getPrompt(ctx, req)
}

func (s *Server) serveReadResource(ctx context.Context, req *lowlevel.Request) (any, error) {
	if s.proxy != nil {
		return s.proxy.ReadResource(ctx, req)
	}
	return s.readResourceRequest(ctx, req)
}

func (s *Server) serveComplete(ctx context.Context, req *lowlevel.Request) (any, error) {
	if s.proxy != nil {
		return s.proxy.Complete(ctx, req)
	}
	if !s.ll.Handles(protocol.MethodCompletionComplete) {
		return nil, fmt.Errorf("%w: completion/complete: the mounted server has no completions", protocol.ErrInvalidParams)
	}
	return s.complete(ctx, req)
}

// A subscriber is who holds a subscription a proxy passes on to its
// backend: a legacy session (keyed by its shared session id when it is
// shared between replicas) or a 2026-07-28 listen stream, and the context
// that ends with it.
type subscriber struct {
	key  any             // comparable: *session.Session, sharedSessionKey, *listener
	life context.Context // ends when the subscriber does
}

// sharedSessionKey keys the subscriptions of a session shared between
// replicas: its id, the same on every replica.
type sharedSessionKey string

// subscribeMounted does, for a subscription of sub to uri made on a
// server s is or mounts a proxy of, what the proxy needs: subscribe its
// backend (serverlink.Backend.Subscribe); for other servers it checks that
// uri is known. added reports whether a proxy recorded a new
// subscription of sub, which unsubscribeMounted undoes.
func (s *Server) subscribeMounted(ctx context.Context, sub subscriber, uri string, era protocol.Era) (added bool, err error) {
	if s.proxy != nil {
		return s.proxy.Subscribe(ctx, serverlink.Subscriber{Key: sub.key, Life: sub.life}, uri)
	}
	if l, rest := s.mountFor(uri); l != nil {
		return l.child.subscribeMounted(ctx, sub, rest, era)
	}
	if !s.knownResource(uri) {
		return false, era.ResourceNotFound(uri)
	}
	return false, nil
}

// proxiedError is the error a caller gets for a request the backend of a
// proxy failed: its JSON-RPC error as it is, anything else as an internal
// error. It is in package fastmcp, not package proxy, because every server's
// resources/subscribe calls it (with subscribeMounted's error).
func proxiedError(err error) error {
	if perr, ok := errors.AsType[*protocol.Error](err); ok {
		return perr
	}
	return protocol.NewError(protocol.CodeInternalError, "proxy: the backend server did not answer: "+err.Error())
}

// unsubscribeMounted undoes subscribeMounted for the subscriber key.
func (s *Server) unsubscribeMounted(ctx context.Context, key any, uri string) error {
	if s.proxy != nil {
		return s.proxy.Unsubscribe(ctx, key, uri)
	}
	if l, rest := s.mountFor(uri); l != nil {
		return l.child.unsubscribeMounted(ctx, key, rest)
	}
	return nil
}

// resourceUpdatedUp tells the servers s is mounted on that uri changed.
func (s *Server) resourceUpdatedUp(ctx context.Context, uri string) error {
	s.mounting.mu.Lock()
	parents := slices.Clone(s.mounting.parents)
	s.mounting.mu.Unlock()
	var errs []error
	for _, l := range parents {
		errs = append(errs, l.parent.NotifyResourceUpdated(ctx, l.uri(uri)))
	}
	return errors.Join(errs...)
}

// waitReady waits until the lists of the proxies s is or mounts were
// fetched once, so that a first list is complete.
func (s *Server) waitReady(ctx context.Context) error {
	if s.proxy != nil {
		if err := s.proxy.WaitReady(ctx); err != nil {
			return err
		}
	}
	for _, l := range s.mountedChildren() {
		if err := l.child.waitReady(ctx); err != nil {
			return err
		}
	}
	return nil
}
