package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/schema"
)

// Role says who speaks a message: RoleUser or RoleAssistant.
type Role = protocol.Role

// The roles of a message (and of a resource's Audience).
const (
	RoleUser      = protocol.RoleUser
	RoleAssistant = protocol.RoleAssistant
)

// PromptMessage is one message of a prompt: a role (RoleUser or
// RoleAssistant) and exactly one content block of any kind — text,
// image, audio, resource link or embedded resource.
type PromptMessage = protocol.PromptMessage

// PromptResult is a complete prompts/get result: the messages and an
// optional description. A prompt handler that returns one has it sent as
// is (with the prompt's registered description when it has none). A client
// reads its text with p.Text() (a method of protocol.GetPromptResult).
type PromptResult = protocol.GetPromptResult

// UserMessage returns a prompt message from the user holding content, such
// as fastmcp.Text("Review this code"), fastmcp.Image(png, "image/png") or
// fastmcp.EmbeddedText(uri, "text/plain", text).
func UserMessage(content Content) PromptMessage {
	return PromptMessage{Role: protocol.RoleUser, Content: content}
}

// AssistantMessage returns a prompt message from the assistant holding
// content: a turn the model is to take as its own.
func AssistantMessage(content Content) PromptMessage {
	return PromptMessage{Role: protocol.RoleAssistant, Content: content}
}

// promptConfig holds the options of a prompt registration.
type promptConfig struct {
	itemConfig
	completers map[string]Completer
}

// promptState is the server's prompts.
type promptState struct {
	reg       registry[*prompt]
	installed bool // the handlers are in the low-level table; s.mu guards it
}

// promptKind says how a prompt handler's result becomes a GetPromptResult;
// it is decided once at registration.
type promptKind uint8

const (
	promptText     promptKind = iota // a string: one user text message
	promptMessage                    // PromptMessage or *PromptMessage
	promptMessages                   // []PromptMessage
	promptFull                       // PromptResult or *PromptResult
	promptDynamic                    // an interface type: decided per call
)

var (
	promptMessageType      = reflect.TypeFor[PromptMessage]()
	promptMessagePtrType   = reflect.TypeFor[*PromptMessage]()
	promptMessagesType     = reflect.TypeFor[[]PromptMessage]()
	promptResultType       = reflect.TypeFor[PromptResult]()
	promptResultPtrType    = reflect.TypeFor[*PromptResult]()
	errPromptResultKind    = errors.New("return a string, a fastmcp.PromptMessage, a []fastmcp.PromptMessage or a *fastmcp.PromptResult")
	promptExampleSignature = "use func(ctx *fastmcp.Context, in Args) (R, error), with Args a struct of the prompt's arguments and R a string, []fastmcp.PromptMessage or *fastmcp.PromptResult"
)

// classifyPrompt decides how results of type t are sent.
func classifyPrompt(t reflect.Type) (promptKind, error) {
	switch {
	case t == promptMessageType || t == promptMessagePtrType:
		return promptMessage, nil
	case t == promptMessagesType:
		return promptMessages, nil
	case t == promptResultType || t == promptResultPtrType:
		return promptFull, nil
	case t.Kind() == reflect.String:
		return promptText, nil
	case t.Kind() == reflect.Interface:
		return promptDynamic, nil
	}
	return 0, errPromptResultKind
}

// prompt is a registered prompt.
type prompt struct {
	def        *protocol.Prompt
	enc        jsontext.Value
	handler    *handlerFunc
	args       *schema.TextBinder // nil when the handler takes no arguments
	kind       promptKind
	completers map[string]Completer // by argument name
	scopes     []string             // RequireScopes
	tags       []string             // Tags
	mount      *mountLink           // the mount it comes from (Mount); nil for the server's own
	orig       string               // its name on the mounted server
	pipe       *pipeline            // what a prompts/get of it runs (promptPipeline)
	warnings   []string             // what the argument struct's schema noticed (schema.Type.Warnings), logged at registration
}

func (p *prompt) key() string             { return p.def.Name }
func (p *prompt) mountedFrom() *mountLink { return p.mount }
func (p *prompt) encoded() jsontext.Value { return p.enc }

// hasArg reports whether the prompt has the argument name.
func (p *prompt) hasArg(name string) bool {
	return slices.ContainsFunc(p.def.Arguments, func(a protocol.PromptArgument) bool { return a.Name == name })
}

// Prompt registers fn as the prompt name. It panics on a programmer error
// (a bad handler signature or result type, an argument type the schema
// package rejects, an empty or duplicate name), with a message saying how to
// fix it. The panic value is an error matching ErrRegistration, so code
// that registers prompts from data can recover it. To replace a prompt,
// call RemovePrompt first. A prompt registered while serving is announced
// to connected clients with notifications/prompts/list_changed.
//
// fn has one of the tool handler shapes: an optional context (*Context or
// context.Context), an optional argument struct, and a result R with or
// without an error:
//
//	type ReviewArgs struct {
//		Code     string `json:"code" jsonschema:"description=The code to review"`
//		Language string `json:"language,omitempty" jsonschema:"description=Its language"`
//		Strict   bool   `json:"strict,omitempty"`
//	}
//	s.Prompt("review", func(in ReviewArgs) (string, error) {...})
//
// The struct's fields are the prompt's arguments: each one's name comes
// from its json tag, its description from its jsonschema tag, and it is
// required under the same rules as a tool argument (see the schema
// package). Prompt arguments travel as strings; each is converted to its
// field's type before validation:
//
//   - string fields, and types with an UnmarshalText method (time.Time),
//     take the text as is;
//   - bool fields take true/false (and the other forms strconv.ParseBool
//     accepts: 1, 0, t, f, ...);
//   - integer and floating-point fields take a decimal number;
//   - a pointer works like the type it points to;
//   - any other type (a slice, a struct) takes JSON text, such as
//     ["a","b"].
//
// A missing required argument, text that does not convert, or a broken
// validation rule makes prompts/get fail with invalid params (-32602),
// naming each bad argument.
//
// The result R becomes the prompt's messages:
//
//   - a string: one user message holding the text;
//   - a PromptMessage or []PromptMessage (see UserMessage and
//     AssistantMessage): as given, any content kind;
//   - a *PromptResult: as given, with the prompt's description when it has
//     none.
//
// An error wrapping a *protocol.Error keeps its code (return one wrapping
// protocol.ErrInvalidParams for arguments the handler rejects itself); any
// other error becomes an internal error carrying its text. A panic becomes
// an internal error and is logged with its stack.
func (s *Server) Prompt(name string, fn any, opts ...PromptOption) {
	mustRegister(s.addPrompt(name, fn, opts...))
}

// addPrompt registers fn as the prompt name; Prompt panics with its error.
func (s *Server) addPrompt(name string, fn any, opts ...PromptOption) error {
	p, err := newPrompt(name, fn, opts)
	if err != nil {
		return err
	}
	for _, w := range p.warnings {
		s.logger.Warn(fmt.Sprintf("fastmcp: prompt %q: %s", name, w))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.prompts.reg.has(name) {
		return fmt.Errorf("fastmcp: prompt %q is already registered: choose another name or call RemovePrompt first", name)
	}
	s.installPromptHandlers()
	s.prompts.reg.update(func(m map[string]*prompt) { m[name] = p })
	s.installCompletionHandler()
	s.notifyListChanged(protocol.NotificationPromptsListChanged)
	return nil
}

// RemovePrompt unregisters the prompt name and reports whether it was
// registered. Connected clients get notifications/prompts/list_changed.
func (s *Server) RemovePrompt(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.prompts.reg.has(name) {
		return false
	}
	s.prompts.reg.update(func(m map[string]*prompt) { delete(m, name) })
	s.notifyListChanged(protocol.NotificationPromptsListChanged)
	return true
}

// installPromptHandlers adds the prompts methods to the low-level table and
// declares the capability, once; s.mu held.
func (s *Server) installPromptHandlers() {
	if s.prompts.installed {
		return
	}
	s.prompts.installed = true
	s.ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) {
		c.Prompts = &protocol.PromptsCapability{ListChanged: true}
	})
	s.ll.Handle(protocol.MethodPromptsList, lowlevel.HandlerFunc(s.listPrompts))
	s.ll.Handle(protocol.MethodPromptsGet, lowlevel.HandlerFunc(s.getPrompt))
}

func newPrompt(name string, fn any, opts []PromptOption) (*prompt, error) {
	if name == "" {
		return nil, errors.New("fastmcp: prompt name is empty: give the prompt a name")
	}
	var cfg promptConfig
	for _, o := range opts {
		o.applyPrompt(&cfg)
	}
	scopes, err := checkScopes("prompt", name, &cfg.itemConfig)
	if err != nil {
		return nil, err
	}
	h, err := analyzeHandler(fn, "prompt", name, promptExampleSignature, true)
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("fastmcp: prompt %q: handler %s: "+format, append([]any{name, h.display}, args...)...)
	}
	if h.in != nil && !isStructish(h.in) {
		return nil, fail("put the arguments in a struct: %s", promptExampleSignature)
	}
	if h.out == nil {
		return nil, fail("returns only an error: return the messages too: %s", promptExampleSignature)
	}
	kind, err := classifyPrompt(h.out)
	if err != nil {
		return nil, fail("cannot return %s: %v", h.out, err)
	}
	p := &prompt{handler: h, kind: kind, completers: cfg.completers, scopes: scopes, tags: cfg.tags}
	p.def = &protocol.Prompt{
		Name: name, Title: cfg.title, Description: cfg.description,
		Icons: cfg.icons, Meta: cfg.meta,
	}
	if h.in != nil {
		st, err := schema.For(h.in, schema.Options{})
		if err != nil {
			return nil, fmt.Errorf("fastmcp: prompt %q: %w", name, err)
		}
		p.args = schema.NewTextBinder(st, schema.TextOptions{})
		p.warnings = st.Warnings()
		for _, f := range st.Fields() {
			p.def.Arguments = append(p.def.Arguments, protocol.PromptArgument{
				Name: f.Name, Description: f.Description, Required: f.Required,
			})
		}
	}
	for arg, c := range cfg.completers {
		if !p.hasArg(arg) {
			return nil, fmt.Errorf("fastmcp: prompt %q: CompleteArg(%q): the prompt has no argument %q", name, arg, arg)
		}
		if c == nil {
			return nil, fmt.Errorf("fastmcp: prompt %q: CompleteArg(%q): the completer is nil", name, arg)
		}
	}
	if p.enc, err = protocol.Marshal(p.def); err != nil {
		return nil, fmt.Errorf("fastmcp: prompt %q: encoding its definition: %w", name, err)
	}
	p.pipe = promptPipeline(p)
	return p, nil
}

// listPrompts serves prompts/list, by name.
func (s *Server) listPrompts(ctx context.Context, req *lowlevel.Request) (any, error) {
	if err := s.waitReady(ctx); err != nil {
		return nil, err
	}
	page, err := listPage(s, &s.prompts.reg, "prompts", req)
	if err != nil {
		return nil, err
	}
	return page, nil
}

// promptCalls is how prompts/get finds its prompt.
var promptCalls = &callKind{method: protocol.MethodPromptsGet, kind: "prompt", find: findPrompt}

// getPrompt serves prompts/get.
func (s *Server) getPrompt(ctx context.Context, req *lowlevel.Request) (any, error) {
	return s.serveCall(ctx, req, promptCalls)
}

// findPrompt finds the prompt a prompts/get names.
func findPrompt(s *Server, req *lowlevel.Request, p *callParams) (*pipeline, string, error) {
	pr, ok := s.prompts.reg.get(p.Name)
	if !ok || !s.usable(req, pr.component()) {
		return nil, "", unknownName(protocol.MethodPromptsGet, "prompt", p.Name)
	}
	return pr.pipe, p.Name, nil
}

// promptPipeline builds the steps of a prompts/get of p: the scopes it
// requires; then forwarding to the mounted server it comes from, or the
// multi round-trip inputs and the run.
func promptPipeline(p *prompt) *pipeline {
	var steps []callStep
	if len(p.scopes) > 0 {
		steps = append(steps, requireScopes(p.scopes))
	}
	if p.mount != nil {
		return newPipeline(forwardTo(p.mount, "name", p.orig, nil, (*Server).serveGetPrompt), steps...)
	}
	steps = append(steps, withInputs(protocol.MethodPromptsGet))
	return newPipeline(func(cl *call) (any, error) {
		var args map[string]string
		if a := cl.params.Arguments; len(a) > 0 && a.Kind() != 'n' {
			if err := protocol.Unmarshal(a, &args); err != nil {
				return nil, fmt.Errorf("%w: prompts/get %s: arguments must be an object of strings: %v", protocol.ErrInvalidParams, cl.target(), err)
			}
		}
		c := &cl.ctx
		res, err := c.srv.runPrompt(c, p, args)
		if err != nil {
			if cerr, ok := errors.AsType[*CapabilityError](err); ok && c.req.Era.RefusesMissingCapability() {
				return nil, cerr.protocolError()
			}
			return nil, err
		}
		return res, nil
	}, steps...)
}

// runPrompt binds the arguments, calls the handler and converts its result.
func (s *Server) runPrompt(c *Context, p *prompt, args map[string]string) (res *PromptResult, err error) {
	var arg reflect.Value
	if p.args != nil {
		values := make(map[string][]string, len(args))
		for k, v := range args {
			values[k] = []string{v}
		}
		v, err := p.args.Bind(values)
		if err != nil {
			return nil, invalidArguments("prompt", p.def.Name, err)
		}
		arg = v
	}
	defer func() {
		if r := recover(); r != nil {
			c.Logger().Error("prompt panicked", "panic", r, "stack", string(debug.Stack()))
			res, err = nil, fmt.Errorf("%w: the prompt %s failed", protocol.ErrInternal, p.def.Name)
		}
	}()
	out, err := p.handler.call(c, arg)
	if err != nil {
		return nil, err
	}
	res, err = promptResult(p.kind, out)
	if err != nil {
		return nil, fmt.Errorf("%w: prompt %s: %v", protocol.ErrInternal, p.def.Name, err)
	}
	if res.Description == "" && p.def.Description != "" {
		r := *res
		r.Description = p.def.Description
		res = &r
	}
	return res, nil
}

// promptResult turns a prompt handler's result into a GetPromptResult and
// checks its messages.
func promptResult(kind promptKind, v reflect.Value) (*PromptResult, error) {
	var res *PromptResult
	switch kind {
	case promptText:
		res = &PromptResult{Messages: []PromptMessage{UserMessage(Text(v.String()))}}
	case promptMessage:
		if isNilValue(v) {
			return nil, errors.New("the handler returned a nil message")
		}
		res = &PromptResult{Messages: []PromptMessage{reflect.Indirect(v).Interface().(PromptMessage)}}
	case promptMessages:
		res = &PromptResult{Messages: v.Interface().([]PromptMessage)}
	case promptFull:
		if isNilValue(v) {
			return nil, errors.New("the handler returned a nil *PromptResult")
		}
		r := reflect.Indirect(v).Interface().(PromptResult)
		res = &r
	case promptDynamic:
		if isNilValue(v) {
			return nil, errors.New("the handler returned nil")
		}
		v = v.Elem()
		k, err := classifyPrompt(v.Type())
		if err != nil || k == promptDynamic {
			return nil, fmt.Errorf("the handler returned a %s: %v", v.Type(), errPromptResultKind)
		}
		return promptResult(k, v)
	}
	if res.Messages == nil {
		res.Messages = []PromptMessage{}
	}
	for i, m := range res.Messages {
		if m.Role != protocol.RoleUser && m.Role != protocol.RoleAssistant {
			return nil, fmt.Errorf("message %d has role %q: use fastmcp.UserMessage or fastmcp.AssistantMessage", i, m.Role)
		}
		if m.Content == nil || isNilValue(reflect.ValueOf(m.Content)) {
			return nil, fmt.Errorf("message %d has no content", i)
		}
	}
	return res, nil
}
