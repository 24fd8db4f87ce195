package fastmcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gabriel-vasile/mimetype"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/schema"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// resourceConfig holds the options of a resource registration.
type resourceConfig struct {
	itemConfig
	name        string
	mimeType    string
	size        *int64
	annotations *protocol.Annotations
	allowDotDot bool
	completers  map[string]Completer
	cache       *cacheHint
}

type resourceOption func(*resourceConfig)

func (f resourceOption) applyResource(c *resourceConfig) { f(c) }

// ResourceName sets the programmatic name of a resource or resource template, which
// clients list and may show. Default: the URI (or URI template).
func ResourceName(name string) ResourceOption {
	return resourceOption(func(c *resourceConfig) { c.name = name })
}

// MIMEType sets the MIME type of a resource's contents, published in the
// listing and sent with every read. Default: "text/plain" for a handler
// returning a string, detected from the data (github.com/gabriel-vasile/mimetype)
// for []byte, "application/json" for any other JSON value; contents a
// handler builds itself keep their own MIME type.
func MIMEType(mimeType string) ResourceOption {
	return resourceOption(func(c *resourceConfig) { c.mimeType = mimeType })
}

// ResourceSize publishes the size of a static resource's contents in bytes (before
// any base64 encoding), so clients can estimate its cost. It is an error on
// a resource template.
func ResourceSize(bytes int64) ResourceOption {
	return resourceOption(func(c *resourceConfig) { c.size = &bytes })
}

// Audience says who a resource is meant for: protocol.RoleUser,
// protocol.RoleAssistant or both (an annotation; clients may use it to
// filter).
func Audience(roles ...protocol.Role) ResourceOption {
	return annotate(func(a *protocol.Annotations) { a.Audience = append(a.Audience, roles...) })
}

// Priority says how important a resource is, from 0 (entirely optional) to 1
// (effectively required), as an annotation clients may use to choose what
// to include. Values outside [0, 1] are an error at registration.
func Priority(p float64) ResourceOption {
	return annotate(func(a *protocol.Annotations) { a.Priority = &p })
}

// LastModified says when a resource last changed (an annotation; protocol
// 2025-06-18 and later). It is published in UTC as RFC 3339.
func LastModified(t time.Time) ResourceOption {
	return annotate(func(a *protocol.Annotations) { a.LastModified = t.UTC().Format(time.RFC3339) })
}

func annotate(fn func(*protocol.Annotations)) ResourceOption {
	return resourceOption(func(c *resourceConfig) {
		if c.annotations == nil {
			c.annotations = &protocol.Annotations{}
		}
		fn(c.annotations)
	})
}

// AllowDotDot lets a resource template's variables hold ".." path
// segments. By default a URI whose extracted (percent-decoded) value has a
// ".." segment, such as file:///a/../../etc/passwd matched against
// file:///{+path}, is rejected before the handler runs, so a handler that
// joins the value to a directory cannot be led out of it.
func AllowDotDot() ResourceOption {
	return resourceOption(func(c *resourceConfig) { c.allowDotDot = true })
}

// resourceState is the server's resources, templates and subscriptions.
type resourceState struct {
	static    registry[*resource]
	templates registry[*resourceTemplate]
	// ordered holds the templates in registration order, in which
	// resources/read tries them; the registry keeps them sorted for lists.
	ordered   atomic.Pointer[[]*resourceTemplate]
	installed bool // the handlers are in the low-level table; s.mu guards it
	subs      subscriptions
}

// contentsKind says how a resource handler's result becomes resource
// contents; it is decided once at registration.
type contentsKind uint8

const (
	contentsText    contentsKind = iota // a string: text
	contentsBlob                        // []byte: a blob
	contentsOne                         // ResourceContents or *ResourceContents: as given
	contentsList                        // []ResourceContents or []*ResourceContents: as given
	contentsJSON                        // any other JSON value: its JSON as text
	contentsDynamic                     // an interface type: decided per call
)

var (
	resourceContentsType     = reflect.TypeFor[ResourceContents]()
	resourceContentsPtrType  = reflect.TypeFor[*ResourceContents]()
	resourceContentsListType = reflect.TypeFor[[]ResourceContents]()
	resourceContentsPtrsType = reflect.TypeFor[[]*ResourceContents]()
	jsontextValueType        = reflect.TypeFor[jsontext.Value]()
	rawMessageType           = reflect.TypeFor[json.RawMessage]()
)

// classifyContents decides how results of type t are sent.
func classifyContents(t reflect.Type) contentsKind {
	switch {
	case t == resourceContentsType || t == resourceContentsPtrType:
		return contentsOne
	case t == resourceContentsListType || t == resourceContentsPtrsType:
		return contentsList
	case t == jsontextValueType || t == rawMessageType:
		return contentsJSON
	case t.Kind() == reflect.String:
		return contentsText
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		return contentsBlob
	case t.Kind() == reflect.Interface:
		return contentsDynamic
	}
	return contentsJSON
}

// resource is a registered static resource.
type resource struct {
	def      *protocol.Resource
	enc      jsontext.Value
	handler  *handlerFunc
	kind     contentsKind
	mimeType string     // from the MIMEType option
	cache    *cacheHint // from the CacheHint option
}

func (r *resource) key() string             { return r.def.URI }
func (r *resource) encoded() jsontext.Value { return r.enc }

// resourceTemplate is a registered resource template.
type resourceTemplate struct {
	def         *protocol.ResourceTemplate
	enc         jsontext.Value
	tmpl        *uriTemplate
	handler     *handlerFunc
	args        *textBinder
	kind        contentsKind
	mimeType    string
	allowDotDot bool
	completers  map[string]Completer // by variable name
	cache       *cacheHint
}

func (t *resourceTemplate) key() string             { return t.def.URITemplate }
func (t *resourceTemplate) encoded() jsontext.Value { return t.enc }

const (
	resourceExample = "use func(ctx *fastmcp.Context) (R, error), with R a string, []byte, fastmcp.ResourceContents or any JSON value"
	templateExample = "use func(ctx *fastmcp.Context, in Args) (R, error), with Args a struct with one field per template variable"
)

// Resource registers fn as the resource uri, or as a resource template when
// uri holds RFC 6570 template expressions ({var}). It panics on a
// programmer error (a bad URI or template, a bad handler signature, a
// template whose variables and argument fields disagree, a duplicate), with
// a message saying how to fix it; AddResource returns the same error
// instead.
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
	if err := s.AddResource(uri, fn, opts...); err != nil {
		panic(err)
	}
}

// AddResource registers fn as a resource or resource template, like
// Resource, but returns an error instead of panicking. Registering a URI
// or template twice is an error; use RemoveResource first to replace one.
// Adding a resource while serving sends
// notifications/resources/list_changed to connected clients.
func (s *Server) AddResource(uri string, fn any, opts ...ResourceOption) error {
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
	} else if t, ok := s.resources.templates.get(uri); ok {
		s.resources.templates.update(func(m map[string]*resourceTemplate) { delete(m, uri) })
		ordered := slices.DeleteFunc(slices.Clone(s.resources.orderedTemplates()), func(x *resourceTemplate) bool { return x == t })
		s.resources.ordered.Store(&ordered)
	} else {
		return false
	}
	s.notifyListChanged(protocol.NotificationResourcesListChanged)
	return true
}

func (r *resourceState) orderedTemplates() []*resourceTemplate {
	if p := r.ordered.Load(); p != nil {
		return *p
	}
	return nil
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
	return nil
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
	r := &resource{handler: h, kind: classifyContents(h.out), mimeType: cfg.mimeType, cache: cfg.cache}
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

// newResourceTemplate checks a resource template registration.
func (s *Server) newResourceTemplate(raw string, fn any, cfg *resourceConfig) (*resourceTemplate, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("fastmcp: resource template %q: "+format, append([]any{raw}, args...)...)
	}
	tmpl, err := parseTemplate(raw)
	if err != nil {
		return nil, fail("%v", err)
	}
	if cfg.size != nil {
		return nil, fail("ResourceSize describes one resource: give it to static resources only")
	}
	h, err := analyzeHandler(fn, "resource template", raw, templateExample, true)
	if err != nil {
		return nil, err
	}
	if h.in == nil || !isStructish(h.in) {
		return nil, fail("handler %s takes no argument struct to receive the template variables: %s", h.display, templateExample)
	}
	if h.out == nil {
		return nil, fail("handler %s returns only an error: return the contents too: %s", h.display, templateExample)
	}
	st, err := schema.For(h.in, schema.Options{})
	if err != nil {
		return nil, fail("%w", err)
	}
	if err := checkTemplateFields(tmpl, st, h.in); err != nil {
		return nil, fail("%v", err)
	}
	for name, c := range cfg.completers {
		if !slices.ContainsFunc(tmpl.vars, func(v templateVar) bool { return v.name == name }) {
			return nil, fail("CompleteArg(%q): the template has no variable %q", name, name)
		}
		if c == nil {
			return nil, fail("CompleteArg(%q): the completer is nil", name)
		}
	}
	name := cfg.name
	if name == "" {
		name = raw
	}
	t := &resourceTemplate{
		tmpl: tmpl, handler: h, args: newTextBinder(st, true), kind: classifyContents(h.out),
		mimeType: cfg.mimeType, allowDotDot: cfg.allowDotDot, completers: cfg.completers, cache: cfg.cache,
	}
	t.def = &protocol.ResourceTemplate{
		URITemplate: raw, Name: name, Title: cfg.title, Description: cfg.description,
		MIMEType: listedMIMEType(cfg.mimeType, t.kind), Annotations: cfg.annotations, Icons: cfg.icons, Meta: cfg.meta,
	}
	if t.enc, err = protocol.Marshal(t.def); err != nil {
		return nil, fail("encoding its definition: %w", err)
	}
	return t, nil
}

// listedMIMEType is the MIME type a listing shows: the configured one, or
// the one every read of a handler of that result kind has.
func listedMIMEType(configured string, kind contentsKind) string {
	switch {
	case configured != "":
		return configured
	case kind == contentsText:
		return "text/plain"
	case kind == contentsJSON:
		return "application/json"
	}
	return ""
}

// checkTemplateFields checks that the template's variables and the
// argument struct's fields are the same names, and that every field can be
// filled from URI text.
func checkTemplateFields(tmpl *uriTemplate, st *schema.Type, in reflect.Type) error {
	fields := st.Fields()
	for _, v := range tmpl.vars {
		if !slices.ContainsFunc(fields, func(f schema.Field) bool { return f.Name == v.name }) {
			return fmt.Errorf("variable %q has no field in %s: add a field tagged json:%q", v.name, in, v.name)
		}
	}
	for _, f := range fields {
		if !slices.ContainsFunc(tmpl.vars, func(v templateVar) bool { return v.name == f.Name }) {
			return fmt.Errorf("field %q of %s is not a template variable: add {%s} to the template or remove the field", f.Name, in, f.Name)
		}
		if tf := fieldOfText(f.Type); tf.kind == textJSON && !tf.list {
			return fmt.Errorf("field %q of %s has type %s, which a URI variable cannot fill: use a string, a number, a bool, a type with an UnmarshalText method, or a slice of them", f.Name, in, f.Type)
		}
	}
	return nil
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
	cursor, err := listCursor(req)
	if err != nil {
		return nil, err
	}
	page, err := s.resources.static.page("resources", cursor, s.cfg.pageSize)
	if err != nil {
		return nil, err
	}
	return page, nil
}

// listResourceTemplates serves resources/templates/list, by URI template.
func (s *Server) listResourceTemplates(ctx context.Context, req *lowlevel.Request) (any, error) {
	cursor, err := listCursor(req)
	if err != nil {
		return nil, err
	}
	page, err := s.resources.templates.page("resourceTemplates", cursor, s.cfg.pageSize)
	if err != nil {
		return nil, err
	}
	return page, nil
}

// readParams is the part of resources/read params the server reads.
type readParams struct {
	URI            string                  `json:"uri"`
	InputResponses protocol.InputResponses `json:"inputResponses"`
	RequestState   string                  `json:"requestState"`
}

// readResourceRequest serves resources/read.
func (s *Server) readResourceRequest(ctx context.Context, req *lowlevel.Request) (any, error) {
	var p readParams
	if err := protocol.Unmarshal(orEmptyObject(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: resources/read: %v", protocol.ErrInvalidParams, err)
	}
	if p.URI == "" {
		return nil, fmt.Errorf("%w: resources/read: missing uri", protocol.ErrInvalidParams)
	}
	c := newContext(ctx, s, req, "resource", p.URI)
	if err := c.startInputs(protocol.MethodResourcesRead, p.URI, nil, p.InputResponses, p.RequestState); err != nil {
		return nil, err
	}
	contents, err := s.readResource(c, p.URI)
	if ir, ierr := c.inputRequired(); ir != nil || ierr != nil {
		if ierr != nil {
			return nil, ierr
		}
		return ir, nil
	}
	if err != nil {
		return nil, readError(c, p.URI, err)
	}
	res := &protocol.ReadResourceResult{Contents: contents}
	if req.Modern {
		applyCacheHint(res, s.cacheHintFor(p.URI))
	}
	return res, nil
}

// readError turns the error of a read into the JSON-RPC error sent back.
func readError(c *Context, uri string, err error) error {
	if errors.Is(err, protocol.ErrResourceNotFound) || errors.Is(err, fs.ErrNotExist) {
		return resourceNotFound(c.req.Modern, uri)
	}
	if cerr, ok := errors.AsType[*CapabilityError](err); ok && c.req.Modern {
		return cerr.protocolError()
	}
	return err
}

// resourceNotFound is the error for an unknown URI: -32002 on legacy
// revisions, -32602 from 2026-07-28 on (SEP-2164), with the URI as data.
func resourceNotFound(modern bool, uri string) *protocol.Error {
	code := int64(protocol.CodeResourceNotFound)
	if modern {
		code = protocol.CodeInvalidParams
	}
	return protocol.NewError(code, "Resource not found").WithData(struct {
		URI string `json:"uri"`
	}{uri})
}

// errNotFound is what reading an unknown URI returns inside the server.
func errNotFound(uri string) error {
	return fmt.Errorf("%w: %s", protocol.ErrResourceNotFound, uri)
}

// readResource reads uri: a static resource first, then each template in
// registration order. A template whose variables do not bind (a value of
// the wrong type, a ".." segment) is skipped; when no template binds, the
// first such problem is reported as invalid params.
func (s *Server) readResource(c *Context, uri string) ([]ResourceContents, error) {
	if r, ok := s.resources.static.get(uri); ok {
		return s.callResource(c, r.handler, reflect.Value{}, r.kind, r.mimeType, uri)
	}
	var firstErr error
	for _, t := range s.resources.orderedTemplates() {
		vals, ok := t.tmpl.match(uri)
		if !ok {
			continue
		}
		if !t.allowDotDot {
			if name, bad := dotDotVar(vals, t.tmpl.vars); bad {
				if firstErr == nil {
					firstErr = invalidArguments("resource", uri, &schema.ValidationError{Issues: []schema.Issue{
						{Path: name, Rule: "path", Message: `must not have a ".." path segment`},
					}})
				}
				continue
			}
		}
		arg, err := t.args.bind(vals, t.tmpl.joinSep)
		if err != nil {
			if firstErr == nil {
				firstErr = invalidArguments("resource", uri, err)
			}
			continue
		}
		return s.callResource(c, t.handler, arg, t.kind, t.mimeType, uri)
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return nil, errNotFound(uri)
}

// callResource runs a resource handler and converts its result.
func (s *Server) callResource(c *Context, h *handlerFunc, arg reflect.Value, kind contentsKind, mimeType, uri string) (contents []ResourceContents, err error) {
	defer func() {
		if r := recover(); r != nil {
			c.Logger().Error("resource handler panicked", "uri", uri, "panic", r, "stack", string(debug.Stack()))
			contents, err = nil, fmt.Errorf("%w: the resource handler for %s failed", protocol.ErrInternal, uri)
		}
	}()
	out, err := h.call(c, arg)
	if err != nil {
		return nil, err
	}
	return toContents(kind, out, uri, mimeType)
}

// toContents turns a resource handler's result into resource contents.
func toContents(kind contentsKind, v reflect.Value, uri, mimeType string) ([]ResourceContents, error) {
	switch kind {
	case contentsText:
		return []ResourceContents{{URI: uri, MIMEType: cmp.Or(mimeType, "text/plain"), Text: v.String()}}, nil
	case contentsBlob:
		data := v.Bytes()
		if data == nil {
			data = []byte{}
		}
		switch {
		case mimeType != "":
		case len(data) == 0:
			mimeType = "application/octet-stream"
		default:
			mimeType = mimetype.Detect(data).String()
		}
		return []ResourceContents{{URI: uri, MIMEType: mimeType, Blob: data}}, nil
	case contentsOne:
		if isNilValue(v) {
			return nil, fmt.Errorf("%w: the resource handler for %s returned nil contents", protocol.ErrInternal, uri)
		}
		rc := reflect.Indirect(v).Interface().(ResourceContents)
		return []ResourceContents{fillContents(rc, uri, mimeType)}, nil
	case contentsList:
		var list []ResourceContents
		switch l := v.Interface().(type) {
		case []ResourceContents:
			list = make([]ResourceContents, 0, len(l))
			for _, rc := range l {
				list = append(list, fillContents(rc, uri, mimeType))
			}
		case []*ResourceContents:
			list = make([]ResourceContents, 0, len(l))
			for _, rc := range l {
				if rc != nil {
					list = append(list, fillContents(*rc, uri, mimeType))
				}
			}
		}
		return list, nil
	case contentsDynamic:
		if isNilValue(v) {
			return nil, fmt.Errorf("%w: the resource handler for %s returned nil", protocol.ErrInternal, uri)
		}
		v = v.Elem()
		k := classifyContents(v.Type())
		if k == contentsDynamic {
			k = contentsJSON
		}
		return toContents(k, v, uri, mimeType)
	default:
		b, err := protocol.Marshal(v.Interface())
		if err != nil {
			return nil, fmt.Errorf("fastmcp: encoding the contents of %s: %w", uri, err)
		}
		return []ResourceContents{{URI: uri, MIMEType: cmp.Or(mimeType, "application/json"), Text: string(b)}}, nil
	}
}

// fillContents sets a handler-built value's missing URI and MIME type.
func fillContents(rc ResourceContents, uri, mimeType string) ResourceContents {
	if rc.URI == "" {
		rc.URI = uri
	}
	if rc.MIMEType == "" {
		rc.MIMEType = mimeType
	}
	return rc
}

// readDepthKey marks, in a nested read's context, how deep reads nest.
type readDepthKey struct{}

// maxReadDepth bounds nested ReadResource calls, so resources that read
// each other fail instead of exhausting the stack.
const maxReadDepth = 16

// ReadResource reads another resource registered on this server, static or
// from a template, exactly as a client's resources/read would (the same
// matching, binding and result conversion), and returns its contents. The
// resource's handler gets a Context for the same request.
//
// An unknown URI gives an error wrapping protocol.ErrResourceNotFound; a
// handler that returns it unchanged makes its own read fail with "resource
// not found". Reads may nest up to 16 deep.
func (c *Context) ReadResource(uri string) ([]ResourceContents, error) {
	depth, _ := c.Value(readDepthKey{}).(int)
	if depth >= maxReadDepth {
		return nil, fmt.Errorf("fastmcp: reading %s: resources read each other more than %d deep", uri, maxReadDepth)
	}
	inner := newContext(context.WithValue(c.Context, readDepthKey{}, depth+1), c.srv, c.req, "resource", uri)
	inner.in = c.in
	return c.srv.readResource(inner, uri)
}

// subscriptions records which legacy sessions subscribed to which resource
// URIs with resources/subscribe. A session's entry is dropped when the
// session ends.
type subscriptions struct {
	mu sync.Mutex
	by map[*session.Session]map[string]struct{}
}

func (s *subscriptions) add(sess *session.Session, uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == nil {
		s.by = map[*session.Session]map[string]struct{}{}
	}
	uris, ok := s.by[sess]
	if !ok {
		uris = map[string]struct{}{}
		s.by[sess] = uris
		// No goroutine waits: the cleanup runs once, when the session ends
		// (at once if it already has).
		context.AfterFunc(sess.Context(), func() {
			s.mu.Lock()
			delete(s.by, sess)
			s.mu.Unlock()
		})
	}
	uris[uri] = struct{}{}
}

func (s *subscriptions) remove(sess *session.Session, uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.by[sess], uri)
}

// subscribers returns the sessions subscribed to uri.
func (s *subscriptions) subscribers(uri string) []*session.Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*session.Session
	for sess, uris := range s.by {
		if _, ok := uris[uri]; ok {
			out = append(out, sess)
		}
	}
	return out
}

// notify sends notifications/resources/updated for uri to each subscribed
// session.
func (s *subscriptions) notify(ctx context.Context, uri string) error {
	var errs []error
	for _, sess := range s.subscribers(uri) {
		err := sess.Notify(ctx, protocol.NotificationResourcesUpdated, &protocol.ResourceUpdatedParams{URI: uri})
		if err != nil && !errors.Is(err, session.ErrClosed) && !errors.Is(err, transport.ErrClosed) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// NotifyResourceUpdated tells the clients subscribed to uri that the
// resource changed (notifications/resources/updated), so they can read it
// again: legacy sessions that subscribed with resources/subscribe, and
// 2026-07-28 subscriptions/listen streams whose resourceSubscriptions name
// it. Only subscriptions to exactly uri count; other clients get nothing.
// It returns the errors of the legacy sessions it could not reach, joined;
// sessions and streams that ended meanwhile are skipped silently. ctx
// bounds the sending to legacy sessions.
func (s *Server) NotifyResourceUpdated(ctx context.Context, uri string) error {
	err := s.resources.subs.notify(ctx, uri)
	s.notifyListenersResourceUpdated(uri)
	return err
}

// subscribe serves resources/subscribe (legacy revisions): uri must name a
// static resource or match a template.
func (s *Server) subscribe(ctx context.Context, req *lowlevel.Request) (any, error) {
	var p protocol.SubscribeParams
	if err := protocol.Unmarshal(orEmptyObject(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: resources/subscribe: %v", protocol.ErrInvalidParams, err)
	}
	if p.URI == "" {
		return nil, fmt.Errorf("%w: resources/subscribe: missing uri", protocol.ErrInvalidParams)
	}
	if !s.knownResource(p.URI) {
		return nil, resourceNotFound(req.Modern, p.URI)
	}
	s.resources.subs.add(req.Session, p.URI)
	return nil, nil
}

// unsubscribe serves resources/unsubscribe (legacy revisions). Forgetting
// a URI that was not subscribed to is not an error.
func (s *Server) unsubscribe(ctx context.Context, req *lowlevel.Request) (any, error) {
	var p protocol.UnsubscribeParams
	if err := protocol.Unmarshal(orEmptyObject(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: resources/unsubscribe: %v", protocol.ErrInvalidParams, err)
	}
	if p.URI == "" {
		return nil, fmt.Errorf("%w: resources/unsubscribe: missing uri", protocol.ErrInvalidParams)
	}
	s.resources.subs.remove(req.Session, p.URI)
	return nil, nil
}

// knownResource reports whether uri is a static resource or matches a
// template (whether or not its variables would bind).
func (s *Server) knownResource(uri string) bool {
	if _, ok := s.resources.static.get(uri); ok {
		return true
	}
	for _, t := range s.resources.orderedTemplates() {
		if _, ok := t.tmpl.match(uri); ok {
			return true
		}
	}
	return false
}
