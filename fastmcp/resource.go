package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// resourceState is the server's resources, templates and subscriptions.
type resourceState struct {
	static    registry[*resource]
	templates registry[*resourceTemplate]
	// ordered holds the templates in registration order, in which
	// resources/read tries them; the registry keeps them sorted for lists.
	ordered   atomic.Pointer[[]*resourceTemplate]
	installed bool // the handlers are in the low-level table; s.mu guards it
	subs      subscriptions

	// readers are the functions AddResourceReader added, in order.
	readers atomic.Pointer[[]func(uri string) (ResourceContents, bool)]
}

// resource is a registered static resource.
type resource struct {
	def      *protocol.Resource
	enc      jsontext.Value
	handler  *handlerFunc
	kind     contentsKind
	mimeType string     // from the MIMEType option
	cache    *cacheHint // from the CacheHint option
	scopes   []string   // RequireScopes
	tags     []string   // Tags
	mount    *mountLink // the mount it comes from (Mount); nil for the server's own
	orig     string     // its URI on the mounted server
	view     bool       // registered by App: an MCP Apps view
}

func (r *resource) key() string             { return r.def.URI }
func (r *resource) mountedFrom() *mountLink { return r.mount }
func (r *resource) encoded() jsontext.Value { return r.enc }

// Resource registers fn as the resource uri, or as a resource template when
// uri holds RFC 6570 template expressions ({var}). It panics on a
// programmer error (a bad URI or template, a bad handler signature, a
// template whose variables and argument fields disagree, a duplicate), with
// a message saying how to fix it. The panic value is an error matching
// ErrRegistration, so code that registers resources from data can recover
// it. To replace a resource or template, call RemoveResource first. One
// registered while serving is announced to connected clients with
// notifications/resources/list_changed.
//
// A static resource's fn has one of the tool handler shapes without an
// argument:
//
//	func(ctx *fastmcp.Context) (R, error)
//	func(ctx context.Context) (R, error)
//	func() (R, error)
//
// (or with a lone R). A template's fn also takes an argument struct whose
// fields are the template's variables, by their json names, bound from the
// requested URI and validated like tool arguments. Variables are text:
// string fields (and types with an UnmarshalText method) take it as is,
// bool fields take true/false, number fields a decimal number, and slice
// fields one element per value of a list ({/path*} on /a/b/c gives
// a, b, c):
//
//	type UserArgs struct {
//		ID int `json:"id" validate:"gte=1"`
//	}
//	s.Resource("users://{id}/profile", func(ctx *fastmcp.Context, in UserArgs) (Profile, error) {...})
//
// Every variable needs a field and every field a variable. Extracted values
// are percent-decoded; a value with a ".." path segment is refused unless
// AllowDotDot is given. resources/read tries the static resources first,
// then the templates in registration order, skipping a template whose
// variables match but do not bind; URIs longer than 4 KiB only match
// static resources.
//
// The result R becomes the resource's contents:
//
//   - a string: text, MIME type text/plain unless MIMEType says otherwise;
//   - []byte: a blob (base64 on the wire), MIME type from MIMEType or
//     detected from the data;
//   - ResourceContents, *ResourceContents or a slice of either: sent as
//     given, with an empty URI set to the requested one and an empty MIME
//     type set from MIMEType;
//   - any other JSON value: its JSON as text, MIME type application/json.
//
// A handler that cannot find what the URI names returns an error wrapping
// protocol.ErrResourceNotFound or fs.ErrNotExist: the client gets the
// protocol's "resource not found" error. An error wrapping a
// *protocol.Error keeps its code; any other error becomes an internal
// error carrying its text. A panic becomes an internal error and is logged
// with its stack.
func (s *Server) Resource(uri string, fn any, opts ...ResourceOption) {
	mustRegister(s.addResource(uri, fn, opts...))
}

// addResource registers fn as the resource or resource template uri;
// Resource panics with its error.
func (s *Server) addResource(uri string, fn any, opts ...ResourceOption) error {
	var cfg resourceConfig
	for _, o := range opts {
		o.applyResource(&cfg)
	}
	if err := checkResourceConfig(uri, &cfg); err != nil {
		return err
	}
	if strings.ContainsRune(uri, '{') {
		t, err := s.newResourceTemplate(uri, fn, &cfg)
		if err != nil {
			return err
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.resources.templates.has(uri) {
			return fmt.Errorf("fastmcp: resource template %q is already registered: call RemoveResource first", uri)
		}
		s.installResourceHandlers()
		s.resources.templates.update(func(m map[string]*resourceTemplate) { m[uri] = t })
		ordered := s.resources.orderedTemplates()
		ordered = append(slices.Clip(ordered), t)
		s.resources.ordered.Store(&ordered)
		s.installCompletionHandler()
		s.notifyListChanged(protocol.NotificationResourcesListChanged)
		return nil
	}
	r, err := newResource(uri, fn, &cfg)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.resources.static.has(uri) {
		return fmt.Errorf("fastmcp: resource %q is already registered: call RemoveResource first", uri)
	}
	s.installResourceHandlers()
	s.resources.static.update(func(m map[string]*resource) { m[uri] = r })
	s.notifyListChanged(protocol.NotificationResourcesListChanged)
	return nil
}

// RemoveResource unregisters the resource or resource template registered
// as uri and reports whether there was one. Connected clients get
// notifications/resources/list_changed.
func (s *Server) RemoveResource(uri string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.resources.static.has(uri) {
		s.resources.static.update(func(m map[string]*resource) { delete(m, uri) })
		delete(s.apps.views, uri)
	} else if t, ok := s.resources.templates.registered(uri); ok {
		s.resources.templates.update(func(m map[string]*resourceTemplate) { delete(m, uri) })
		ordered := slices.DeleteFunc(slices.Clone(s.resources.orderedTemplates()), func(x *resourceTemplate) bool { return x == t })
		s.resources.ordered.Store(&ordered)
	} else {
		return false
	}
	s.notifyListChanged(protocol.NotificationResourcesListChanged)
	return true
}

// AddResourceReader makes s serve resources it does not list: read
// returns the contents of uri, or false when it holds no resource there.
// resources/read (and Context.ReadResource) asks the readers, in the order
// added, before the resources registered with Resource, so a reader
// answers for the URIs it holds. It suits a feature that keeps its files in
// memory and announces them its own way, as the skills package serves a
// skill's files. read is called concurrently and must not block. It
// declares the resources capability, as Resource does.
func (s *Server) AddResourceReader(read func(uri string) (ResourceContents, bool)) {
	if read == nil {
		panic("fastmcp: AddResourceReader(nil)")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.installResourceHandlers()
	var readers []func(string) (ResourceContents, bool)
	if p := s.resources.readers.Load(); p != nil {
		readers = slices.Clone(*p)
	}
	readers = append(readers, read)
	s.resources.readers.Store(&readers)
}

// installResourceHandlers adds the resources methods to the low-level
// table and declares the capability, once; s.mu held.
func (s *Server) installResourceHandlers() {
	if s.resources.installed {
		return
	}
	s.resources.installed = true
	s.ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) {
		c.Resources = &protocol.ResourcesCapability{Subscribe: true, ListChanged: true}
	})
	s.ll.Handle(protocol.MethodResourcesList, lowlevel.HandlerFunc(s.listResources))
	s.ll.Handle(protocol.MethodResourcesTemplatesList, lowlevel.HandlerFunc(s.listResourceTemplates))
	s.ll.Handle(protocol.MethodResourcesRead, lowlevel.HandlerFunc(s.readResourceRequest))
	s.ll.Handle(protocol.MethodResourcesSubscribe, lowlevel.HandlerFunc(s.subscribe))
	s.ll.Handle(protocol.MethodResourcesUnsubscribe, lowlevel.HandlerFunc(s.unsubscribe))
}

// checkResourceConfig checks what every registration needs.
func checkResourceConfig(uri string, cfg *resourceConfig) error {
	if uri == "" {
		return errors.New("fastmcp: resource URI is empty: use an absolute URI such as file:///notes.txt or myapp://config")
	}
	if !hasScheme(uri) {
		return fmt.Errorf("fastmcp: resource %q: the URI has no scheme: use an absolute URI such as file:///notes.txt or myapp://config", uri)
	}
	if a := cfg.annotations; a != nil && a.Priority != nil && (*a.Priority < 0 || *a.Priority > 1) {
		return fmt.Errorf("fastmcp: resource %q: Priority(%v) is out of range: use a value from 0 to 1", uri, *a.Priority)
	}
	kind := "resource"
	if strings.ContainsRune(uri, '{') {
		kind = "resource template"
	}
	scopes, err := checkScopes(kind, uri, &cfg.itemConfig)
	cfg.scopes = scopes
	return err
}

// hasScheme reports whether s starts with an RFC 3986 scheme and ':'.
func hasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// newResource checks a static resource registration.
func newResource(uri string, fn any, cfg *resourceConfig) (*resource, error) {
	if _, err := url.Parse(uri); err != nil {
		return nil, fmt.Errorf("fastmcp: resource %q: not a valid URI: %v", uri, err)
	}
	if len(cfg.completers) > 0 {
		return nil, fmt.Errorf("fastmcp: resource %q: CompleteArg needs a resource template: a static resource has no variables to complete", uri)
	}
	h, err := analyzeHandler(fn, "resource", uri, resourceExample, false)
	if err != nil {
		return nil, err
	}
	if h.out == nil {
		return nil, fmt.Errorf("fastmcp: resource %q: handler %s returns only an error: return the contents too: %s", uri, h.display, resourceExample)
	}
	r := &resource{handler: h, kind: classifyContents(h.out), mimeType: cfg.mimeType, cache: cfg.cache, scopes: cfg.scopes, tags: cfg.tags}
	name := cfg.name
	if name == "" {
		name = uri
	}
	r.def = &protocol.Resource{
		URI: uri, Name: name, Title: cfg.title, Description: cfg.description,
		MIMEType: cfg.mimeType, Annotations: cfg.annotations, Size: cfg.size,
		Icons: cfg.icons, Meta: cfg.meta,
	}
	r.def.MIMEType = listedMIMEType(cfg.mimeType, r.kind)
	if r.enc, err = protocol.Marshal(r.def); err != nil {
		return nil, fmt.Errorf("fastmcp: resource %q: encoding its definition: %w", uri, err)
	}
	return r, nil
}

// listCursor decodes the params of a list request.
func listCursor(req *lowlevel.Request) (string, error) {
	var p protocol.ListParams
	if len(req.Params) > 0 {
		if err := protocol.Unmarshal(req.Params, &p); err != nil {
			return "", fmt.Errorf("%w: %s: %v", protocol.ErrInvalidParams, req.Method, err)
		}
	}
	return p.Cursor, nil
}

// listResources serves resources/list: the static resources, by URI.
func (s *Server) listResources(ctx context.Context, req *lowlevel.Request) (any, error) {
	if err := s.waitReady(ctx); err != nil {
		return nil, err
	}
	page, err := listPageFor(s, &s.resources.static, "resources", req, appsFilter(s, req, fallbackResources))
	if err != nil {
		return nil, err
	}
	return page, nil
}

// listResourceTemplates serves resources/templates/list, by URI template.
func (s *Server) listResourceTemplates(ctx context.Context, req *lowlevel.Request) (any, error) {
	if err := s.waitReady(ctx); err != nil {
		return nil, err
	}
	page, err := listPage(s, &s.resources.templates, "resourceTemplates", req)
	if err != nil {
		return nil, err
	}
	return page, nil
}
