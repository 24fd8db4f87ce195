package fastmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/schema"
)

// tool is a registered tool, with everything a call needs prepared.
type tool struct {
	def     *protocol.Tool
	enc     jsontext.Value
	input   *schema.Type // nil when the handler takes no arguments and no InputSchema was given
	handler *handlerFunc
	result  resultKind
	headers []schema.Header // parameters mirrored in Mcp-Param-* headers
	scopes  []string        // RequireScopes
	tags    []string        // Tags
	task    *taskSpec       // TaskSupport: the call may run as a task
	taskRun taskRunner      // the task runtime, set with task (see hooks.go)
	mount   *mountLink      // the mount it comes from (Mount); nil for the server's own
	orig    string          // its name on the mounted server
	pipe    *pipeline       // what a call of it runs (toolPipeline)
	derived derivedRun      // TransformTool: how a call of the derived tool reaches its source; nil for others

	// MCP Apps (WithToolUI: apps.WithView, apps.AppOnly, apps.ModelOnly).
	plain   jsontext.Value // the definition without _meta.ui, for clients that render no views; nil when it has none
	appOnly bool           // ToolUI.AppOnly: hidden from clients that render no views
	view    *ToolView      // ToolUI.View: the view registered with the tool (a copy)
	viewRes *resource      // the resource serving view
	apps    *appsCode      // the MCP Apps code, when an option of the extension was given
}

func (t *tool) key() string             { return t.def.Name }
func (t *tool) mountedFrom() *mountLink { return t.mount }
func (t *tool) encoded() jsontext.Value { return t.enc }

const toolExample = "use func(ctx *fastmcp.Context, in Args) (R, error) with Args a struct"

// Tool registers fn as the tool name. It panics on a programmer error (a bad
// handler signature, an argument type that cannot be described as a JSON
// Schema, an invalid or duplicate name), with a message saying how to fix
// it. The panic value is an error matching ErrRegistration, so code that
// registers tools from data can recover it (see ErrRegistration). To
// replace a tool, call RemoveTool first. A tool registered while serving
// is announced to connected clients with notifications/tools/list_changed.
//
// fn has one of these shapes, where Args is a struct (or pointer to one)
// whose fields are the tool's arguments:
//
//	func(ctx *fastmcp.Context, in Args) (R, error)
//	func(ctx context.Context, in Args) (R, error)
//	func(in Args) (R, error)
//	func(ctx *fastmcp.Context) (R, error)
//
// and each of them with a lone R or a lone error result. See the package
// documentation for how R becomes the tool's result.
func (s *Server) Tool(name string, fn any, opts ...ToolOption) {
	mustRegister(s.addTool(name, fn, opts...))
}

// addTool registers fn as the tool name; Tool panics with its error.
func (s *Server) addTool(name string, fn any, opts ...ToolOption) error {
	t, err := s.newTool(name, fn, opts)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tools.has(name) {
		return fmt.Errorf("fastmcp: tool %q is already registered: choose another name or call RemoveTool first", name)
	}
	if t.view != nil {
		if err := t.apps.add(s, t); err != nil {
			return fmt.Errorf("fastmcp: tool %q: %w", name, err)
		}
	}
	if t.plain != nil {
		s.apps.use(t.apps.clientSupports)
	}
	if t.task != nil {
		t.taskRun.enable(s) // before t is listed: its calls need the runtime
	}
	first := s.tools.count() == 0
	s.tools.update(func(m map[string]*tool) { m[name] = t })
	if first {
		s.installToolHandlers()
	}
	s.applyTransforms() // a transformation may wait for this source
	s.notifyListChanged(protocol.NotificationToolsListChanged)
	return nil
}

// RemoveTool unregisters the tool name and reports whether it was
// registered. Connected clients get notifications/tools/list_changed. A
// view (App) no other tool names any more is removed with it.
func (s *Server) RemoveTool(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tools.registered(name)
	if !ok {
		return false
	}
	s.tools.update(func(m map[string]*tool) { delete(m, name) })
	if s.xf != nil {
		s.xf.drop(name)
	}
	s.applyTransforms() // the tools derived from it go with it
	s.notifyListChanged(protocol.NotificationToolsListChanged)
	if t.view != nil {
		t.apps.drop(s, t.view.URI)
	}
	return true
}

// installToolHandlers adds the tools methods to the low-level table and
// declares the capability; s.mu held.
func (s *Server) installToolHandlers() {
	s.ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) {
		c.Tools = &protocol.ToolsCapability{ListChanged: true}
	})
	s.ll.Handle(protocol.MethodToolsList, lowlevel.HandlerFunc(s.listTools))
	s.ll.Handle(protocol.MethodToolsCall, lowlevel.HandlerFunc(s.callTool))
}

// validToolName checks the format of SEP-986: 1 to 64 characters from
// A-Z a-z 0-9 _ - . /
func validToolName(name string) error {
	if len(name) == 0 || len(name) > 64 {
		return fmt.Errorf("fastmcp: tool name %q: must be 1 to 64 characters long", name)
	}
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.', r == '/':
		default:
			return fmt.Errorf("fastmcp: tool name %q: character %q is not allowed: use only letters, digits, '_', '-', '.' and '/'", name, r)
		}
	}
	return nil
}

func (s *Server) newTool(name string, fn any, opts []ToolOption) (*tool, error) {
	if err := validToolName(name); err != nil {
		return nil, err
	}
	var cfg toolConfig
	for _, o := range opts {
		o.applyTool(&cfg)
	}
	scopes, err := checkScopes("tool", name, &cfg.itemConfig)
	if err != nil {
		return nil, err
	}
	if cfg.task != nil {
		if err := cfg.taskRun.check(cfg.task, name); err != nil {
			return nil, err
		}
	}
	h, err := analyzeHandler(fn, "tool", name, toolExample, true)
	if err != nil {
		return nil, err
	}
	var ui *ToolUI
	if cfg.app.code != nil {
		if ui, err = cfg.app.code.build(&cfg.app, name, cfg.meta); err != nil {
			return nil, err
		}
	}
	t := &tool{handler: h, result: classifyResult(h.out), scopes: scopes, tags: cfg.tags, task: cfg.task, taskRun: cfg.taskRun, apps: cfg.app.code}
	if ui != nil {
		t.appOnly = ui.AppOnly
	}
	def := &protocol.Tool{
		Name: name, Title: cfg.title, Description: cfg.description,
		Annotations: cfg.annotations, Icons: cfg.icons, Meta: cfg.meta,
	}
	if err := s.toolSchemas(t, def, &cfg, name); err != nil {
		return nil, err
	}
	if ui != nil {
		// The definition as listed to clients that render no views: the
		// fallback of the MCP Apps extension.
		if t.plain, err = protocol.Marshal(def); err != nil {
			return nil, fmt.Errorf("fastmcp: tool %q: encoding its definition: %w", name, err)
		}
		if err := cfg.app.code.finish(t, def, ui); err != nil {
			return nil, err
		}
	}
	t.def = def
	if t.enc, err = protocol.Marshal(def); err != nil {
		return nil, fmt.Errorf("fastmcp: tool %q: encoding its definition: %w", name, err)
	}
	t.pipe = toolPipeline(t)
	return t, nil
}

// toolSchemas gives t its input schema (from the handler's argument type,
// or InputSchema) and def its input and output schemas.
func (s *Server) toolSchemas(t *tool, def *protocol.Tool, cfg *toolConfig, name string) error {
	h := t.handler
	strict, keepRefs := s.cfg.strict, s.cfg.keepRefs
	if cfg.strict != nil {
		strict = *cfg.strict
	}
	if cfg.keepRefs != nil {
		keepRefs = *cfg.keepRefs
	}
	sopts := schema.Options{Strict: strict, KeepRefs: keepRefs}
	var err error
	switch {
	case cfg.inputSchema != nil:
		if h.in != nil && h.in.Kind() != reflect.Map {
			return fmt.Errorf("fastmcp: tool %q: with InputSchema the handler's argument must be map[string]any, not %s", name, h.in)
		}
		if t.input, err = schema.FromJSON(cfg.inputSchema, sopts); err != nil {
			return fmt.Errorf("fastmcp: tool %q: InputSchema: %w", name, err)
		}
	case h.in != nil && h.in.Kind() == reflect.Map:
		return fmt.Errorf("fastmcp: tool %q: handler %s takes a map: give its schema with fastmcp.InputSchema, or %s", name, h.display, toolExample)
	case h.in != nil:
		if t.input, err = schema.For(h.in, sopts); err != nil {
			return fmt.Errorf("fastmcp: tool %q: %w", name, err)
		}
	}
	if t.input != nil {
		def.InputSchema = t.input.Schema()
		t.headers = t.input.Headers()
		for _, w := range t.input.Warnings() {
			s.logger.Warn(fmt.Sprintf("fastmcp: tool %q: %s", name, w))
		}
	}
	switch {
	case cfg.outputSchema != nil:
		def.OutputSchema = json.RawMessage(cfg.outputSchema)
	case t.result == resultStructured || t.result == resultWrapped:
		out, err := outputSchema(h.out, t.result == resultWrapped, sopts)
		if err != nil {
			return fmt.Errorf("fastmcp: tool %q: result type %s: %w", name, h.out, err)
		}
		def.OutputSchema = out
	}
	return nil
}

// outputSchema derives the outputSchema for results of type t: its own
// schema for a struct, or {"result": <schema of t>} for values that are
// wrapped. Types without a useful schema (maps, interfaces) publish none.
func outputSchema(t reflect.Type, wrapped bool, opts schema.Options) (json.RawMessage, error) {
	opts.Strict = false
	opts.Output = true
	base := t
	for base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	if !wrapped {
		if base.Kind() != reflect.Struct {
			return nil, nil
		}
		st, err := schema.For(t, opts)
		if err != nil {
			return nil, err
		}
		return st.Schema(), nil
	}
	if base.Kind() == reflect.Interface {
		return nil, nil
	}
	wrapper := reflect.StructOf([]reflect.StructField{{Name: "Result", Type: t, Tag: `json:"result"`}})
	st, err := schema.For(wrapper, opts)
	if err != nil {
		return nil, err
	}
	return st.Schema(), nil
}

// listTools serves tools/list.
func (s *Server) listTools(ctx context.Context, req *lowlevel.Request) (any, error) {
	if err := s.waitReady(ctx); err != nil {
		return nil, err
	}
	page, err := listPageFor(s, &s.tools, "tools", req, appsFilter(s, req, fallbackTools))
	if err != nil {
		return nil, err
	}
	return page, nil
}

// toolCalls is how tools/call finds its tool.
var toolCalls = &callKind{method: protocol.MethodToolsCall, kind: "tool", find: findTool}

// callTool serves tools/call.
func (s *Server) callTool(ctx context.Context, req *lowlevel.Request) (any, error) {
	return s.serveCall(ctx, req, toolCalls)
}

// findTool finds the tool a tools/call names. An AppOnly tool is hidden,
// as if unknown, from clients that render no views.
func findTool(s *Server, req *lowlevel.Request, p *callParams) (*pipeline, string, error) {
	t, ok := s.tools.get(p.Name)
	if ok && (t.appOnly && !s.rendersViews(req) || !s.usable(req, t.component())) {
		ok = false
	}
	if !ok {
		return nil, "", unknownName(protocol.MethodToolsCall, "tool", p.Name)
	}
	return t.pipe, p.Name, nil
}

// toolPipeline builds the steps of a call of t, in this order: the scopes
// it requires (RequireScopes); then, for a tool of a mounted server,
// forwarding to that server; for the server's own, the arguments must be an
// object, the Mcp-Param-* headers must match them, the multi round-trip
// inputs, the task (TaskSupport), and the run.
func toolPipeline(t *tool) *pipeline {
	var steps []callStep
	if len(t.scopes) > 0 {
		steps = append(steps, requireScopes(t.scopes))
	}
	if t.mount != nil {
		// Its tasks would live on the mounted server (or a mounted
		// proxy's backend), which the caller cannot reach: the parent
		// forwards no tasks/* there. The call runs as a plain one.
		return newPipeline(forwardTo(t.mount, "name", t.orig, withoutTasksExtension, (*Server).serveCallTool), steps...)
	}
	steps = append(steps, argumentsObject)
	if len(t.headers) > 0 {
		steps = append(steps, matchParamHeaders(t.headers))
	}
	steps = append(steps, withInputs(protocol.MethodToolsCall))
	if t.task != nil {
		steps = append(steps, taskStep(t))
	}
	run := func(cl *call) (any, error) { return cl.ctx.srv.runTool(&cl.ctx, t, cl.params.Arguments) }
	if t.derived != nil {
		run = t.derived.run
	}
	return newPipeline(run, steps...)
}

// taskStep is the step of a tool registered with TaskSupport: a call whose client
// declared the tasks extension may become a task; the others run as plain
// calls (or are refused when the task is required). It reaches the task
// runtime through t.taskRun, which the TaskSupport option installed (hooks.go).
func taskStep(t *tool) callStep {
	return func(cl *call, next runFunc) (any, error) {
		if res, err, handled := t.taskRun.call(cl.ctx.srv, &cl.ctx, t, cl.params.Arguments); handled {
			return res, err
		}
		return next(cl)
	}
}

// argumentsObject refuses tool arguments that are not a JSON object.
func argumentsObject(cl *call, next runFunc) (any, error) {
	if a := cl.params.Arguments; len(a) > 0 && a.Kind() != '{' && a.Kind() != 'n' {
		return nil, fmt.Errorf("%w: tools/call %s: arguments must be a JSON object", protocol.ErrInvalidParams, cl.target())
	}
	return next(cl)
}

// runTool binds the arguments, calls the handler and converts its result.
func (s *Server) runTool(c *Context, t *tool, args jsontext.Value) (res *ToolResult, err error) {
	return s.runToolAs(c, t, args, t.def.Name, nil)
}

// runToolAs is runTool for a call made as the tool named name: invalid
// arguments are reported under that name, their paths rewritten by
// rename when it is not nil (a derived tool calling its source).
func (s *Server) runToolAs(c *Context, t *tool, args jsontext.Value, name string, rename func(*schema.ValidationError)) (res *ToolResult, err error) {
	var arg reflect.Value
	if t.input != nil {
		v, err := t.input.Bind(json.RawMessage(args))
		if err != nil {
			if verr, ok := errors.AsType[*schema.ValidationError](err); ok {
				if rename != nil {
					rename(verr)
				}
				return errorResult(argumentsMessage("tool", name, verr)), nil
			}
			c.Logger().Error("binding arguments failed", "error", err)
			return errorResult("internal error: the arguments of tool " + name + " could not be decoded"), nil
		}
		arg = v
	}
	if t.handler.in != nil && !arg.IsValid() {
		arg = reflect.Zero(t.handler.in)
	}
	defer func() {
		if r := recover(); r != nil {
			c.Logger().Error("tool panicked", "panic", r, "stack", string(debug.Stack()))
			res, err = errorResult("internal error: the tool "+name+" failed"), nil
		}
	}()
	out, herr := t.handler.call(c, arg)
	if herr != nil {
		if _, ok := errors.AsType[*protocol.Error](herr); ok {
			return nil, herr
		}
		if cerr, ok := errors.AsType[*CapabilityError](herr); ok && c.req.Era.RefusesMissingCapability() {
			return nil, cerr.protocolError()
		}
		if c.Err() != nil && errors.Is(herr, c.Err()) {
			return nil, herr // cancelled: the engine drops the response
		}
		return errorResult(herr.Error()), nil
	}
	return toolResult(t.result, out)
}
