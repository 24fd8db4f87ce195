package fastmcp

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/schema"
)

// This file holds tool transformation: TransformTool derives a tool from
// another, and the server keeps the derived tool in step with its source
// (applyTransforms). How the derived input schema is made is in
// transform_schema.go.

// A TransformOption configures TransformTool: TransformArg, WrapCall, and
// the tool options that make sense for a derived tool (Description, Title,
// Icons, Meta, Tags, RequireScopes, Annotations and its hints,
// OutputSchema); the others are an error there.
type TransformOption interface{ applyTransform(*transformConfig) }

func (f commonOption) applyTransform(c *transformConfig) { f(&c.tool.itemConfig) }
func (f toolOption) applyTransform(c *transformConfig)   { f(&c.tool) }

type transformOption func(*transformConfig)

func (f transformOption) applyTransform(c *transformConfig) { f(c) }

type transformConfig struct {
	tool toolConfig
	args []argRule // in the order given
	wrap WrapFunc
}

type argRule struct {
	name string // the source tool's argument
	ArgTransform
}

// ArgTransform says how a derived tool (TransformTool) publishes one
// argument of its source tool. The zero value keeps the argument as it is.
type ArgTransform struct {
	// Rename publishes the argument under this name; the source still
	// gets it under its own.
	Rename string
	// Description replaces the argument's description.
	Description string
	// Default is published as the argument's default and used when the
	// client leaves the argument out (the argument becomes optional). It
	// must satisfy the argument's schema.
	Default any
	// Hide leaves the argument out of the published schema: clients cannot
	// send it (a value sent under its name is dropped). The source gets
	// Value's result for every call, else Default, else nothing. A hidden
	// argument the source requires needs a Value or a Default.
	Hide bool
	// Value computes a hidden argument's value for each call, from the
	// call's Context (the caller's principal, a setting, a secret). An
	// error fails the call with the error's text as the tool's error.
	Value func(ctx *Context) (any, error)
}

// TransformArg changes how the derived tool publishes the source tool's
// argument name (see ArgTransform). Naming an argument the source does not
// have is an error at registration.
func TransformArg(name string, t ArgTransform) TransformOption {
	return transformOption(func(c *transformConfig) { c.args = append(c.args, argRule{name, t}) })
}

// WrapFunc runs a derived tool's calls (WrapCall): args are the arguments
// as the client sent them (validated against the derived tool's schema,
// defaults filled in), under the derived tool's argument names; next calls
// the source tool with arguments under those same names (it maps them
// back, adds the hidden ones and validates them against the source's
// schema) and returns its result. The function may change the arguments,
// call next more than once or not at all, and change or replace the
// result.
type WrapFunc func(ctx *Context, args map[string]any, next func(args map[string]any) (*ToolResult, error)) (*ToolResult, error)

// WrapCall makes fn run each call of the derived tool (see WrapFunc).
// Without it a call goes straight to the source tool.
func WrapCall(fn WrapFunc) TransformOption {
	return transformOption(func(c *transformConfig) { c.wrap = fn })
}

// transformRule is one TransformTool: the derived tool name is made from
// the tool source whenever the server has one.
type transformRule struct {
	source, name string
	cfg          *transformConfig
	from         *tool // the source built is derived from; nil while there is none
	built        *tool // the derived tool, as registered
}

// TransformTool registers name, a tool derived from the tool source: the
// same tool under another name, with arguments renamed, described anew,
// given defaults or hidden (TransformArg), other tool options (Description,
// Tags, ReadOnly, RequireScopes...) and, with WrapCall, Go code around its
// calls. The published input schema follows every change; a call must
// send the published names (hidden and renamed-away ones are refused),
// and the source validates what it gets, its problems reported under the
// published names.
//
//	s.TransformTool("search_issues", "find_bugs",
//		fastmcp.Description("Find open bugs in our repository"),
//		fastmcp.TransformArg("q", fastmcp.ArgTransform{Rename: "query"}),
//		fastmcp.TransformArg("repo", fastmcp.ArgTransform{Hide: true, Default: "fastmcp-go/fastmcp"}),
//	)
//	s.Disable(fastmcp.Selector{Names: []string{"search_issues"}}) // serve only the derived one
//
// The source may be any tool of s: registered with Tool, generated (as
// package openapi does), or from a mounted server or proxy (named with
// the mount's prefix). The derived tool is rebuilt whenever the source is
// replaced (a mounted proxy's backend changed its list), and is away while
// the source is. Its title, description, annotations and output schema are
// the source's unless options give them; its tags are the source's unless
// Tags is given; its scopes are the source's plus RequireScopes. It runs
// as a plain call even when the source supports tasks.
//
// Mistakes panic at registration, as Tool does (an error matching
// ErrRegistration): an invalid or taken name, no tool source on a server
// that mounts nothing, an argument the source lacks, two arguments
// published under one name, a hidden required argument without a value, a
// Default its schema refuses, or an option that does not apply (InputSchema,
// TaskSupport, WithToolUI, Strict, KeepRefs).
func (s *Server) TransformTool(source, name string, opts ...TransformOption) {
	mustRegister(s.addTransform(source, name, opts))
}

func (s *Server) addTransform(source, name string, opts []TransformOption) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("fastmcp: TransformTool(%q, %q): "+format, append([]any{source, name}, args...)...)
	}
	if err := validToolName(name); err != nil {
		return err
	}
	cfg := new(transformConfig)
	for _, o := range opts {
		o.applyTransform(cfg)
	}
	switch tc := &cfg.tool; {
	case tc.inputSchema != nil:
		return fail("InputSchema does not apply: the derived schema is made from the source's; change arguments with TransformArg")
	case tc.task != nil:
		return fail("TaskSupport does not apply: a derived tool runs as a plain call")
	case tc.app.code != nil:
		return fail("WithToolUI does not apply: register the view with the source tool")
	case tc.strict != nil || tc.keepRefs != nil:
		return fail("Strict and KeepRefs do not apply: the derived schema is made from the source's")
	}
	if err := checkArgRules(cfg.args); err != nil {
		return fail("%w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proxy != nil {
		return fail("a proxy's tools are transformed on a server that mounts it (Mount), not on the proxy itself")
	}
	rules, _ := s.xf.(*transformRules)
	if rules == nil {
		rules = new(transformRules)
	}
	if s.tools.has(name) || slices.ContainsFunc(*rules, func(r *transformRule) bool { return r.name == name }) {
		return fail("a tool %q is already registered: choose another name, or Disable the source to serve the derived tool in its place", name)
	}
	src, ok := s.tools.registered(source)
	if mounts := s.mounts.Load(); !ok && (mounts == nil || len(*mounts) == 0) {
		return fail("no tool %q is registered: register it before transforming it", source)
	}
	r := &transformRule{source: source, name: name, cfg: cfg}
	if ok {
		// Built now, so that a mistake fails here and not when the
		// source next changes.
		t, err := s.deriveTool(r, src)
		if err != nil {
			return fail("%w", err)
		}
		r.from, r.built = src, t
		s.tools.update(func(m map[string]*tool) { m[name] = t })
		s.notifyListChanged(protocol.NotificationToolsListChanged)
	}
	*rules = append(*rules, r)
	s.xf = rules
	return nil
}

// checkArgRules checks what TransformArg options say on their own: each
// argument once, hidden ones not renamed.
func checkArgRules(args []argRule) error {
	seen := map[string]bool{}
	for _, a := range args {
		if seen[a.name] {
			return fmt.Errorf("argument %q is transformed twice: give one TransformArg per argument", a.name)
		}
		seen[a.name] = true
		if a.Hide && (a.Rename != "" || a.Description != "") {
			return fmt.Errorf("argument %q is hidden: a hidden argument is not published, so Rename and Description do not apply", a.name)
		}
		if !a.Hide && a.Value != nil {
			return fmt.Errorf("argument %q has a Value but is not hidden: set Hide, or use Default for a value the client may override", a.name)
		}
	}
	return nil
}

// transformRules are a server's transformations, in the order made.
type transformRules []*transformRule

// apply brings the derived tools in step with their sources after the
// server's tools changed: a derived tool whose source was replaced is
// derived again, one whose source is gone is removed (until it comes
// back). It reports whether the tools changed; s.mu held.
func (rules *transformRules) apply(s *Server) (changed bool) {
	for _, r := range *rules {
		src, ok := s.tools.registered(r.source)
		cur, taken := s.tools.registered(r.name)
		if ok && taken && src == r.from && cur == r.built {
			continue // up to date
		}
		if taken && r.built != nil && cur == r.built {
			s.tools.update(func(m map[string]*tool) { delete(m, r.name) })
			taken, changed = false, true
		}
		r.from, r.built = nil, nil
		if !ok {
			continue
		}
		if taken {
			s.logger.Error("TransformTool: the derived tool is left out: the server has another tool with its name", "source", r.source, "tool", r.name)
			continue
		}
		t, err := s.deriveTool(r, src)
		if err != nil {
			s.logger.Error("TransformTool: the derived tool is left out", "source", r.source, "tool", r.name, "error", err)
			continue
		}
		r.from, r.built = src, t
		s.tools.update(func(m map[string]*tool) { m[r.name] = t })
		changed = true
	}
	return changed
}

// drop forgets the transformation that derives name, if any: RemoveTool
// of a derived tool; s.mu held.
func (rules *transformRules) drop(name string) {
	*rules = slices.DeleteFunc(*rules, func(r *transformRule) bool { return r.name == name })
}

// deriveTool builds r's derived tool from src.
func (s *Server) deriveTool(r *transformRule, src *tool) (*tool, error) {
	ds, err := deriveSchema(src.def.InputSchema, r.cfg.args)
	if err != nil {
		return nil, err
	}
	if err := checkDefaults(src, ds); err != nil {
		return nil, err
	}
	cfg := r.cfg.tool // a copy: filled in from src below
	sd := src.def
	def := &protocol.Tool{
		Name: r.name, Title: cmp.Or(cfg.title, sd.Title), Description: cmp.Or(cfg.description, sd.Description),
		Annotations: cmp.Or(cfg.annotations, sd.Annotations), Icons: cfg.icons, Meta: cfg.meta,
		InputSchema: json.RawMessage(ds.schema), OutputSchema: sd.OutputSchema,
	}
	if def.Icons == nil {
		def.Icons = sd.Icons
	}
	if cfg.outputSchema != nil {
		def.OutputSchema = json.RawMessage(cfg.outputSchema)
	}
	tags := cfg.tags
	if tags == nil {
		tags = src.tags
	}
	if len(src.scopes) > 0 {
		cfg.scopes = append(slices.Clone(src.scopes), cfg.scopes...)
		cfg.scopesSet = true
	}
	scopes, err := checkScopes("tool", r.name, &cfg.itemConfig)
	if err != nil {
		return nil, err
	}
	t := &tool{def: def, scopes: scopes, tags: tags, derived: &derivedTool{name: r.name, src: src, schema: ds, wrap: r.cfg.wrap}}
	if t.enc, err = protocol.Marshal(def); err != nil {
		return nil, fmt.Errorf("encoding its definition: %w", err)
	}
	t.pipe = toolPipeline(t)
	return t, nil
}

// checkDefaults refuses the defaults (published and hidden) that src's
// schema does not accept; a source served elsewhere (mounted) checks them
// when called.
func checkDefaults(src *tool, ds *derivedSchema) error {
	if src.input == nil {
		return nil
	}
	vals := map[string]any{}
	for pub, v := range ds.defaults {
		vals[cmp.Or(ds.toSource[pub], pub)] = v
	}
	for _, h := range ds.hidden {
		if h.Default != nil {
			vals[h.name] = h.Default
		}
	}
	if len(vals) == 0 {
		return nil
	}
	raw, err := json.Marshal(vals)
	if err != nil {
		return fmt.Errorf("a Default cannot be encoded as JSON: %w", err)
	}
	_, err = src.input.Bind(raw)
	verr, ok := errors.AsType[*schema.ValidationError](err)
	if !ok {
		return nil
	}
	for _, is := range verr.Issues {
		root := is.Path
		if end := strings.IndexAny(root, ".["); end >= 0 {
			root = root[:end]
		}
		if _, defaulted := vals[root]; defaulted && is.Rule != "required" {
			return fmt.Errorf("argument %q: its Default does not satisfy its schema: %s: %s", root, is.Path, is.Message)
		}
	}
	return nil
}

// derivedTool is how a derived tool's call reaches its source.
type derivedTool struct {
	name   string // the derived tool's
	src    *tool
	schema *derivedSchema
	wrap   WrapFunc
}

// run is the run of the derived tool's pipeline: the arguments checked
// against the derived schema, then WrapCall or the source.
func (d *derivedTool) run(cl *call) (any, error) {
	c := &cl.ctx
	args, res := d.schema.decode(d.name, cl.params.Arguments)
	if res != nil {
		return res, nil
	}
	if d.wrap != nil {
		return d.wrap(c, args, func(args map[string]any) (*ToolResult, error) { return d.callSource(c, args) })
	}
	return d.callSource(c, args)
}

// callSource calls the source with args (published names): bound,
// validated and run here, with invalid arguments reported under the
// published names, or forwarded to the mounted server the source comes
// from. The Context is the derived call's; its steps (scopes, which
// include the source's; inputs) have run already.
func (d *derivedTool) callSource(c *Context, args map[string]any) (*ToolResult, error) {
	raw, res, err := d.schema.sourceArgs(c, d.name, args)
	if res != nil || err != nil {
		return res, err
	}
	src := d.src
	if src.mount == nil {
		return c.srv.runToolAs(c, src, raw, d.name, d.schema.renameIssues)
	}
	params, err := withRawMember(jsontext.Value(c.req.Params), "arguments", raw)
	if err != nil {
		return nil, err
	}
	req := *c.req
	req.Params = json.RawMessage(params)
	cc := *c
	cc.req = &req
	cl := &call{params: callParams{Name: src.def.Name, Arguments: raw}, ctx: cc}
	out, err := forwardTo(src.mount, "name", src.orig, withoutTasksExtension, (*Server).serveCallTool)(cl)
	if err != nil {
		return nil, err
	}
	return asToolResult(out)
}

// asToolResult returns a tools/call result as a *ToolResult: as it is, or
// decoded from the JSON a forwarded call returned.
func asToolResult(v any) (*ToolResult, error) {
	if r, ok := v.(*ToolResult); ok {
		return r, nil
	}
	b, err := protocol.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("fastmcp: the source tool's result: %w", err)
	}
	res := new(ToolResult)
	if err := protocol.Unmarshal(b, res); err != nil {
		return nil, fmt.Errorf("fastmcp: the source tool's result: %w", err)
	}
	return res, nil
}

// withRawMember returns the JSON object obj (empty when nil) with member
// key set to the JSON value v.
func withRawMember(obj jsontext.Value, key string, v jsontext.Value) (jsontext.Value, error) {
	out := []byte{'{'}
	n := 0
	if len(obj) > 0 && obj.Kind() != 'n' {
		var m map[string]jsontext.Value
		if err := protocol.Unmarshal(obj, &m); err != nil {
			return nil, fmt.Errorf("%w: params must be a JSON object", protocol.ErrInvalidParams)
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if k == key {
				continue
			}
			if n > 0 {
				out = append(out, ',')
			}
			out, _ = jsontext.AppendQuote(out, k)
			out = append(out, ':')
			out = append(out, m[k]...)
			n++
		}
	}
	if n > 0 {
		out = append(out, ',')
	}
	out, _ = jsontext.AppendQuote(out, key)
	out = append(out, ':')
	out = append(out, v...)
	return append(out, '}'), nil
}
