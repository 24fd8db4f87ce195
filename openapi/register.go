package openapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	_ "github.com/fastmcp-go/fastmcp/schema/jsonvalidate" // InputSchema's validator
	"github.com/getkin/kin-openapi/openapi3"
)

// Kind is what an operation becomes.
type Kind int

const (
	// Tool makes the operation a tool (the default for every operation).
	Tool Kind = iota
	// Resource makes it a resource: only a GET without parameters or body.
	Resource
	// ResourceTemplate makes it a resource template: only a GET whose
	// parameters are all path or query parameters, without body.
	ResourceTemplate
	// Exclude registers nothing for it.
	Exclude
)

// String names the kind: "tool", "resource", "resource template" or
// "excluded".
func (k Kind) String() string {
	switch k {
	case Tool:
		return "tool"
	case Resource:
		return "resource"
	case ResourceTemplate:
		return "resource template"
	case Exclude:
		return "excluded"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// A Route chooses what the operations it matches become. Config.Routes are
// tried in order and the first match wins; an operation no route matches
// is a Tool. A Resource or ResourceTemplate route matches only the
// operations that can be one (a Resource: a GET without parameters; a
// ResourceTemplate: a GET with only path and query parameters; neither
// with a request body): the others go on to the next route, so that
// "GET → Resource, GET → ResourceTemplate" makes every GET that can be
// read as a resource one and leaves the rest tools.
type Route struct {
	// Methods the operation has one of (empty: any); case does not matter.
	Methods []string
	// Pattern is a regular expression the path must match (empty: any),
	// e.g. `^/admin/`.
	Pattern string
	// Tags the operation has at least one of (empty: any).
	Tags []string
	// Kind is what the matched operations become.
	Kind Kind
}

// Config says how Register maps a document. Its zero value maps every
// operation to a tool that calls the document's first server.
type Config struct {
	// BaseURL is where every request goes. Default: the first servers URL
	// of the operation, else of its path, else of the document (variables
	// at their defaults, resolved against Fetch's URL when relative);
	// Register fails when an operation has none.
	BaseURL string
	// Client sends every request: its timeouts, retries, transport and
	// authentication apply. Default: http.DefaultClient.
	Client *http.Client
	// Routes choose what each operation becomes (see Route).
	Routes []Route
	// Names maps an operationId (or "METHOD /path" when it has none) to the
	// name of its tool, or of its resource or template, instead of the
	// derived one. An override that is not a valid tool name or that
	// clashes with another name is an error from Register.
	Names map[string]string
	// Prefix is prepended to every derived name (e.g. "petstore_").
	Prefix string
	// Headers are sent with every request (an API key, a User-Agent).
	Headers http.Header
	// OperationHeaders are sent with the requests of one operation, by
	// operationId, after Headers (so they win).
	OperationHeaders map[string]http.Header
	// ForwardAuthorization sends the MCP caller's own Authorization header
	// (over HTTP transports) to the API. It is off by default because
	// passing a token through is unsafe unless the API is the token's
	// audience: a token issued for this MCP server would be replayed to
	// another service (the MCP authorization spec forbids such token
	// passthrough), and a token meant for the API would grant the MCP
	// server no less than the user. Turn it on only when the MCP server
	// and the API share one authorization server and audience.
	ForwardAuthorization bool
	// MaxResponseBytes bounds how much of a response body is read.
	// Default: 1 MiB. Beyond it the result says the body was cut.
	MaxResponseBytes int64
	// ResourceScheme is the URI scheme of generated resources and resource
	// templates: "<scheme>://<path>". Default: "openapi".
	ResourceScheme string
}

// DefaultMaxResponseBytes is Config.MaxResponseBytes's default.
const DefaultMaxResponseBytes = 1 << 20

// A Component is what one operation became.
type Component struct {
	// Operation is the operation mapped.
	Operation Operation
	// Kind is what it became (never Exclude: excluded operations are not
	// listed).
	Kind Kind
	// Name is the tool name, or the resource URI or URI template.
	Name string
}

// ErrMapping is matched (errors.Is) by Register's errors about the
// document or the Config (as opposed to the server refusing a
// registration).
var ErrMapping = errors.New("openapi: cannot map the document")

// Register adds a tool, resource or resource template to s for each
// operation of d, as cfg says, and returns what it registered in document
// order. Every operation is mapped and checked first (names, routes,
// schemas), and when the server then refuses a registration (a tool of
// that name exists) those Register made are removed again: on an error,
// which names the operation, nothing Register added stays.
func Register(s *fastmcp.Server, d *Document, cfg Config) ([]Component, error) {
	b, err := newBinding(d, cfg)
	if err != nil {
		return nil, err
	}
	routes, err := compileRoutes(cfg.Routes)
	if err != nil {
		return nil, err
	}
	nm := &namer{prefix: cfg.Prefix, used: map[string]bool{}}
	if err := reserveNames(cfg.Names, nm); err != nil {
		return nil, err
	}
	found := map[string]bool{}
	var todo []pending
	for _, o := range d.operations() {
		p, err := plan(s, o, b, cfg, d.source, routes, nm, found)
		if err != nil {
			return nil, fmt.Errorf("%w: operation %s: %w", ErrMapping, o.key(), err)
		}
		if p != nil {
			todo = append(todo, *p)
		}
	}
	for k := range cfg.Names {
		if !found[k] {
			return nil, fmt.Errorf("%w: Names[%q]: the document has no such operation (or Routes exclude it)", ErrMapping, k)
		}
	}
	return apply(s, todo)
}

// A pending registration: the component and what registers it.
type pending struct {
	comp Component
	reg  func() error
}

// compileRoutes checks the routes and compiles their patterns.
func compileRoutes(rs []Route) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, len(rs))
	for i, r := range rs {
		if r.Kind < Tool || r.Kind > Exclude {
			return nil, fmt.Errorf("%w: Routes[%d]: unknown Kind %d", ErrMapping, i, int(r.Kind))
		}
		if r.Pattern == "" {
			continue
		}
		re, err := regexp.Compile(r.Pattern)
		if err != nil {
			return nil, fmt.Errorf("%w: Routes[%d].Pattern: %w", ErrMapping, i, err)
		}
		out[i] = re
	}
	return out, nil
}

// reserveNames checks the overrides and reserves them, so that derived
// names avoid them.
func reserveNames(names map[string]string, nm *namer) error {
	overridden := map[string]string{}
	for _, k := range sortedKeys(names) {
		name := names[k]
		if !validName(name) {
			return fmt.Errorf("%w: Names[%q] = %q: a name is 1 to 64 of A-Z a-z 0-9 _ - . /", ErrMapping, k, name)
		}
		if other, ok := overridden[name]; ok {
			return fmt.Errorf("%w: Names[%q] = %q: another override (Names[%q]) has that name", ErrMapping, k, name, other)
		}
		overridden[name] = k
		nm.used[name] = true
	}
	return nil
}

// plan maps one operation and prepares its registration; nil when Routes
// exclude it.
func plan(s *fastmcp.Server, o operation, b *binding, cfg Config, source *url.URL, routes []*regexp.Regexp, nm *namer, found map[string]bool) (*pending, error) {
	m, err := mapOperation(o)
	if err != nil {
		return nil, err
	}
	kind := Tool
	for i, r := range cfg.Routes {
		if routeMatches(r, routes[i], m) {
			kind = r.Kind
			break
		}
	}
	if kind == Exclude {
		return nil, nil
	}
	name, ok := cfg.Names[o.key()]
	if ok {
		found[o.key()] = true
	} else {
		name = nm.next(o.Operation)
	}
	base, err := b.baseFor(o, cfg.BaseURL, source)
	if err != nil {
		return nil, err
	}
	op := &call{m: m, b: b, base: base}
	p := &pending{comp: Component{Operation: o.Operation, Kind: kind, Name: name}}
	switch kind {
	case Tool:
		p.reg, err = op.toolRegistration(s, name)
	case Resource:
		p.comp.Name = b.scheme + "://" + o.Path
		p.reg = op.resourceRegistration(s, p.comp.Name, name)
	case ResourceTemplate:
		p.comp.Name, p.reg = op.templateRegistration(s, name)
	}
	return p, err
}

// apply registers todo in order; when the server refuses one, it removes
// those it registered and returns the error.
func apply(s *fastmcp.Server, todo []pending) ([]Component, error) {
	done := make([]Component, 0, len(todo))
	for _, p := range todo {
		if err := p.reg(); err != nil {
			for _, c := range slices.Backward(done) {
				if c.Kind == Tool {
					s.RemoveTool(c.Name)
				} else {
					s.RemoveResource(c.Name)
				}
			}
			return nil, fmt.Errorf("openapi: operation %s: %w", p.comp.Operation.key(), err)
		}
		done = append(done, p.comp)
	}
	return done, nil
}

// routeMatches reports whether r applies to m.
func routeMatches(r Route, re *regexp.Regexp, m *mapping) bool {
	if len(r.Methods) > 0 && !slices.ContainsFunc(r.Methods, func(x string) bool { return strings.EqualFold(x, m.Method) }) {
		return false
	}
	if re != nil && !re.MatchString(m.Path) {
		return false
	}
	if len(r.Tags) > 0 && !slices.ContainsFunc(r.Tags, func(t string) bool { return slices.Contains(m.Tags, t) }) {
		return false
	}
	switch r.Kind {
	case Resource:
		return m.Method == http.MethodGet && len(m.args) == 0 && m.body == nil
	case ResourceTemplate:
		return m.Method == http.MethodGet && len(m.args) > 0 && m.body == nil &&
			!slices.ContainsFunc(m.args, func(a argument) bool { return a.in != inPath && a.in != inQuery })
	}
	return true
}

// A binding is what every call of one Register shares.
type binding struct {
	base    string
	client  *http.Client
	headers http.Header
	byOp    map[string]http.Header
	forward bool
	max     int64
	scheme  string
	baseErr error // why the document gives no base URL (when none was set)
}

func newBinding(d *Document, cfg Config) (*binding, error) {
	b := &binding{
		base: cfg.BaseURL, client: cfg.Client, headers: cfg.Headers, byOp: cfg.OperationHeaders,
		forward: cfg.ForwardAuthorization, max: cfg.MaxResponseBytes, scheme: cfg.ResourceScheme,
	}
	if b.client == nil {
		b.client = http.DefaultClient
	}
	if b.max <= 0 {
		b.max = DefaultMaxResponseBytes
	}
	if b.scheme == "" {
		b.scheme = "openapi"
	}
	if b.base == "" {
		b.base, b.baseErr = serverURL(d.t.Servers, d.source)
	}
	return b, nil
}

// serverURL is the first of servers as an absolute URL, its variables at
// their defaults, resolved against source (Fetch's URL) when relative.
func serverURL(servers openapi3.Servers, source *url.URL) (string, error) {
	if len(servers) == 0 || servers[0] == nil {
		return "", fmt.Errorf("%w: the document names no server: set Config.BaseURL", ErrMapping)
	}
	srv := servers[0]
	raw := srv.URL
	for name, v := range srv.Variables {
		if v != nil {
			raw = strings.ReplaceAll(raw, "{"+name+"}", v.Default)
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%w: servers url %q: %w", ErrMapping, srv.URL, err)
	}
	if !u.IsAbs() {
		if source == nil {
			return "", fmt.Errorf("%w: servers url %q is relative: set Config.BaseURL (or load the document with Fetch)", ErrMapping, srv.URL)
		}
		u = source.ResolveReference(u)
	}
	return u.String(), nil
}

// baseFor is where the requests of o go: Config.BaseURL, else the
// operation's own servers, its path's, then the document's.
func (b *binding) baseFor(o operation, cfgBase string, source *url.URL) (string, error) {
	if cfgBase == "" {
		if o.op.Servers != nil && len(*o.op.Servers) > 0 {
			return serverURL(*o.op.Servers, source)
		}
		if len(o.item.Servers) > 0 {
			return serverURL(o.item.Servers, source)
		}
	}
	return b.base, b.baseErr
}

// A call is one operation's handler.
type call struct {
	m    *mapping
	b    *binding
	base string // where its requests go
}

func (c *call) description() string {
	o := c.m.Operation
	parts := []string{}
	if o.Deprecated {
		parts = append(parts, "Deprecated.")
	}
	if o.Summary != "" {
		parts = append(parts, o.Summary)
	}
	if o.Description != "" && o.Description != o.Summary {
		parts = append(parts, o.Description)
	}
	return strings.Join(parts, "\n\n")
}

func (c *call) toolRegistration(s *fastmcp.Server, name string) (func() error, error) {
	in, err := json.Marshal(c.m.input)
	if err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	opts := []fastmcp.ToolOption{fastmcp.InputSchema(in), fastmcp.Tags(c.m.Tags...)}
	if c.m.output != nil {
		out, err := json.Marshal(c.m.output)
		if err != nil {
			return nil, fmt.Errorf("output schema: %w", err)
		}
		opts = append(opts, fastmcp.OutputSchema(out))
	}
	if c.m.Summary != "" {
		opts = append(opts, fastmcp.Title(c.m.Summary))
	}
	if d := c.description(); d != "" {
		opts = append(opts, fastmcp.Description(d))
	}
	var ann protocol.ToolAnnotations
	t := true
	switch c.m.Method {
	case http.MethodGet, http.MethodHead:
		ann.ReadOnlyHint = &t
	case http.MethodPut, http.MethodDelete:
		ann.IdempotentHint = &t
	}
	switch c.m.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		ann.OpenWorldHint = &t
	}
	opts = append(opts, fastmcp.Annotations(ann))
	// The schema is compiled once, by the registration: compiling it here
	// too would double Register's time (about half of it is compiling),
	// and a refused registration is undone by Register anyway.
	return func() error { return register(func() { s.Tool(name, c.tool, opts...) }) }, nil
}

// register runs a fastmcp registration, turning its panic into an error.
func register(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok && errors.Is(e, fastmcp.ErrRegistration) {
				err = e
				return
			}
			panic(r)
		}
	}()
	fn()
	return nil
}

// tool is the handler of an operation's tool.
func (c *call) tool(ctx *fastmcp.Context, args map[string]any) (*fastmcp.ToolResult, error) {
	resp, body, cut, err := c.do(ctx, args)
	if err != nil {
		return errorResult(err.Error()), nil
	}
	return c.toolResult(resp, body, cut), nil
}

// do sends the request of one call and reads its response, at most
// MaxResponseBytes of it (cut says there was more).
func (c *call) do(ctx *fastmcp.Context, args map[string]any) (*http.Response, []byte, bool, error) {
	req, err := c.m.newRequest(c.base, args)
	if err != nil {
		return nil, nil, false, fmt.Errorf("%s %s: %w", c.m.Method, c.m.Path, err)
	}
	req = req.WithContext(ctx)
	for k, vs := range c.b.headers {
		req.Header[http.CanonicalHeaderKey(k)] = slices.Clone(vs)
	}
	for k, vs := range c.b.byOp[c.m.ID] {
		req.Header[http.CanonicalHeaderKey(k)] = slices.Clone(vs)
	}
	if c.b.forward {
		if h := ctx.HTTPRequest(); h != nil {
			if a := h.Header.Get("Authorization"); a != "" {
				req.Header.Set("Authorization", a)
			}
		}
	}
	resp, err := c.b.client.Do(req)
	if err != nil {
		return nil, nil, false, fmt.Errorf("the request %s %s failed: %w", c.m.Method, c.m.Path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.b.max+1))
	if err != nil {
		return nil, nil, false, fmt.Errorf("the request %s %s failed reading the response: %w", c.m.Method, c.m.Path, err)
	}
	cut := int64(len(body)) > c.b.max
	if cut {
		body = body[:c.b.max]
	}
	return resp, body, cut, nil
}

func errorResult(msg string) *fastmcp.ToolResult {
	return &fastmcp.ToolResult{Content: protocol.ContentList{fastmcp.Text(msg)}, IsError: true}
}

// cutNote is appended to a body cut at MaxResponseBytes.
func (c *call) cutNote() string {
	return fmt.Sprintf("\n[response cut at %d bytes: the API sent more]", c.b.max)
}

// toolResult maps an API response onto a tool result.
func (c *call) toolResult(resp *http.Response, body []byte, cut bool) *fastmcp.ToolResult {
	if resp.StatusCode >= 400 {
		msg := fmt.Sprintf("HTTP %d: %s", resp.StatusCode, body)
		if cut {
			msg += c.cutNote()
		}
		return errorResult(msg)
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case len(body) == 0:
		if c.m.output != nil {
			return errorResult(fmt.Sprintf("HTTP %d with an empty body, where the API describes a JSON result", resp.StatusCode))
		}
		return &fastmcp.ToolResult{Content: protocol.ContentList{fastmcp.Text(fmt.Sprintf("HTTP %d", resp.StatusCode))}}
	case cut && c.m.output != nil:
		return errorResult(string(body) + c.cutNote())
	case cut:
		return &fastmcp.ToolResult{Content: protocol.ContentList{fastmcp.Text(string(body) + c.cutNote())}}
	case isJSONType(mt) || mt == "" && json.Valid(body):
		res := &fastmcp.ToolResult{Content: protocol.ContentList{fastmcp.Text(string(body))}}
		if c.m.output != nil {
			if !json.Valid(body) {
				return errorResult(fmt.Sprintf("HTTP %d: the API's JSON is not valid: %s", resp.StatusCode, body))
			}
			sc := json.RawMessage(body)
			if c.m.wrap {
				sc, _ = json.Marshal(map[string]json.RawMessage{"result": body})
			}
			res.StructuredContent = sc
		}
		return res
	case strings.HasPrefix(mt, "text/") || strings.Contains(mt, "xml") || strings.HasSuffix(mt, "yaml"):
		return &fastmcp.ToolResult{Content: protocol.ContentList{fastmcp.Text(string(body))}}
	case strings.HasPrefix(mt, "image/"):
		return &fastmcp.ToolResult{Content: protocol.ContentList{fastmcp.Image(body, mt)}}
	default:
		if mt == "" {
			mt = "application/octet-stream"
		}
		return &fastmcp.ToolResult{Content: protocol.ContentList{fastmcp.EmbeddedBlob(resp.Request.URL.String(), mt, body)}}
	}
}

// read is a resource read of the operation: the response's body as the
// contents; a 404 is "resource not found", other failures errors.
func (c *call) read(ctx *fastmcp.Context, args map[string]any) (fastmcp.ResourceContents, error) {
	resp, body, cut, err := c.do(ctx, args)
	if err != nil {
		return fastmcp.ResourceContents{}, err
	}
	if resp.StatusCode == http.StatusNotFound {
		return fastmcp.ResourceContents{}, fmt.Errorf("%s %s: HTTP 404: %w", c.m.Method, c.m.Path, protocol.ErrResourceNotFound)
	}
	if resp.StatusCode >= 400 {
		return fastmcp.ResourceContents{}, fmt.Errorf("%s %s: HTTP %d: %s", c.m.Method, c.m.Path, resp.StatusCode, body)
	}
	if cut {
		return fastmcp.ResourceContents{}, fmt.Errorf("%s %s: the response is larger than %d bytes (Config.MaxResponseBytes)", c.m.Method, c.m.Path, c.b.max)
	}
	ct := resp.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	if mt == "" {
		mt = "application/octet-stream"
	}
	if isJSONType(mt) || strings.HasPrefix(mt, "text/") || strings.Contains(mt, "xml") {
		return fastmcp.ResourceContents{MIMEType: mt, Text: string(body)}, nil
	}
	if body == nil {
		body = []byte{}
	}
	return fastmcp.ResourceContents{MIMEType: mt, Blob: body}, nil
}

func (c *call) resourceOptions(name string) []fastmcp.ResourceOption {
	opts := []fastmcp.ResourceOption{fastmcp.ResourceName(name), fastmcp.Tags(c.m.Tags...)}
	if c.m.Summary != "" {
		opts = append(opts, fastmcp.Title(c.m.Summary))
	}
	if d := c.description(); d != "" {
		opts = append(opts, fastmcp.Description(d))
	}
	return opts
}

func (c *call) resourceRegistration(s *fastmcp.Server, uri, name string) func() error {
	fn := func(ctx *fastmcp.Context) (fastmcp.ResourceContents, error) { return c.read(ctx, nil) }
	opts := c.resourceOptions(name)
	return func() error { return register(func() { s.Resource(uri, fn, opts...) }) }
}

var (
	contextType  = reflect.TypeFor[*fastmcp.Context]()
	contentsType = reflect.TypeFor[fastmcp.ResourceContents]()
	errorType    = reflect.TypeFor[error]()
	stringType   = reflect.TypeFor[string]()
)

// templateRegistration returns the URI template of a GET with path and
// query parameters and its registration. The template's handler takes a
// struct made at run time with one string field per variable, which is
// what fastmcp binds template variables into.
func (c *call) templateRegistration(s *fastmcp.Server, name string) (string, func() error) {
	used := map[string]bool{}
	vars := make([]string, len(c.m.args)) // template variable of each argument
	var fields []reflect.StructField
	for i, a := range c.m.args {
		v := templateVar(a.name)
		for base, n := v, 2; used[v]; n++ {
			v = fmt.Sprintf("%s_%d", base, n)
		}
		used[v] = true
		vars[i] = v
		tag := fmt.Sprintf(`json:%q`, v)
		if a.in != inPath {
			tag = fmt.Sprintf(`json:"%s,omitempty"`, v) // an optional query variable
		}
		fields = append(fields, reflect.StructField{Name: fmt.Sprintf("V%d", i), Type: stringType, Tag: reflect.StructTag(tag)})
	}
	path := c.m.Path
	var query []string
	for i, a := range c.m.args {
		if a.in == inPath {
			path = strings.ReplaceAll(path, "{"+a.orig+"}", "{"+vars[i]+"}")
		} else {
			query = append(query, vars[i])
		}
	}
	uri := c.b.scheme + "://" + path
	if len(query) > 0 {
		uri += "{?" + strings.Join(query, ",") + "}"
	}
	argType := reflect.StructOf(fields)
	fnType := reflect.FuncOf([]reflect.Type{contextType, argType}, []reflect.Type{contentsType, errorType}, false)
	fn := reflect.MakeFunc(fnType, func(in []reflect.Value) []reflect.Value {
		ctx := in[0].Interface().(*fastmcp.Context)
		args := map[string]any{}
		for i, a := range c.m.args {
			v := in[1].Field(i).String()
			if v == "" && a.in != inPath {
				continue // an optional query variable left out
			}
			args[a.name] = templateValue(a, v)
		}
		rc, err := c.read(ctx, args)
		errv := reflect.Zero(errorType)
		if err != nil {
			errv = reflect.ValueOf(&err).Elem()
		}
		return []reflect.Value{reflect.ValueOf(rc), errv}
	}).Interface()
	opts := c.resourceOptions(name)
	return uri, func() error { return register(func() { s.Resource(uri, fn, opts...) }) }
}

// templateVar maps an argument name onto the RFC 6570 variable name
// alphabet (ALPHA DIGIT _ and inner dots).
func templateVar(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// templateValue is the argument value of a template variable's text: an
// array parameter takes its comma-separated items.
func templateValue(a argument, v string) any {
	if s := paramSchema(a.param); s != nil && s.Value != nil && s.Value.Type != nil && s.Value.Type.Is("array") {
		items := []any{}
		for _, x := range strings.Split(v, ",") {
			items = append(items, x)
		}
		return items
	}
	return v
}
