package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// maxCompletions is the most values one completion/complete result may
// carry.
const maxCompletions = 100

// A Completer suggests values for one argument of a prompt or one variable
// of a resource template, as the user types it (completion/complete). It
// returns the suggestions, best first; fastmcp sends the first 100, with
// the total count and whether there were more. Returning no values is
// fine. An error fails the request: one wrapping a *protocol.Error keeps
// its code, any other is an internal error carrying its text.
//
// Completers are called concurrently, once per request, with a Context
// for that request; they should be quick, since clients call them on every
// keystroke.
type Completer func(ctx *Context, req CompleteRequest) ([]string, error)

// CompleteRequest is what a Completer is asked to complete.
type CompleteRequest struct {
	// Ref is the prompt (see PromptRef) or resource template (see
	// ResourceRef) being filled in.
	Ref CompleteReference
	// Argument is the name of the prompt argument or template variable.
	Argument string
	// Value is what the user has typed so far; it may be empty.
	Value string
	// Arguments holds the other arguments or variables the user has already
	// filled in, by name, so suggestions can depend on them (sent by
	// clients of protocol 2025-06-18 and later; nil when the client sent
	// none). The Completer may keep it.
	Arguments map[string]string
}

// An ArgumentOption configures one argument of a prompt or one variable of
// a resource template; it works with Server.Prompt and Server.Resource
// alike.
type ArgumentOption interface {
	PromptOption
	ResourceOption
}

type completeOption struct {
	name string
	c    Completer
}

func (o completeOption) applyPrompt(c *promptConfig) {
	c.completers = withCompleter(c.completers, o.name, o.c)
}

func (o completeOption) applyResource(c *resourceConfig) {
	c.completers = withCompleter(c.completers, o.name, o.c)
}

func withCompleter(m map[string]Completer, name string, c Completer) map[string]Completer {
	if m == nil {
		m = map[string]Completer{}
	}
	m[name] = c
	return m
}

// CompleteArg attaches c to the argument name of a prompt, or to the
// variable name of a resource template, so that completion/complete
// requests for it are answered by c. Naming an argument or variable the
// prompt or template does not have is an error at registration. Without a
// completer, completion requests get an empty list.
func CompleteArg(name string, c Completer) ArgumentOption {
	return completeOption{name: name, c: c}
}

// Choices returns a Completer that suggests, in the given order, the
// values that start with what the user typed, ignoring case. It suits
// arguments with a fixed set of values.
func Choices(values ...string) Completer {
	vals := slices.Clone(values)
	lower := make([]string, len(vals))
	for i, v := range vals {
		lower[i] = strings.ToLower(v)
	}
	return func(_ *Context, req CompleteRequest) ([]string, error) {
		prefix := strings.ToLower(req.Value)
		out := []string{}
		for i, v := range vals {
			if strings.HasPrefix(lower[i], prefix) {
				out = append(out, v)
			}
		}
		return out, nil
	}
}

// CompleteReference names the prompt or resource template whose argument a
// completion fills in; PromptRef and ResourceRef build one.
type CompleteReference = protocol.CompleteReference

// PromptRef refers to the prompt name, for Server.Complete and
// Client.Complete.
func PromptRef(name string) CompleteReference {
	return protocol.CompleteReference{Type: protocol.RefPrompt, Name: name}
}

// ResourceRef refers to the resource template uriTemplate (as registered,
// such as "users://{id}/profile"), for Server.Complete and Client.Complete.
func ResourceRef(uriTemplate string) CompleteReference {
	return protocol.CompleteReference{Type: protocol.RefResource, URI: uriTemplate}
}

// Complete attaches c to the argument arg of a registered prompt or
// resource template (see PromptRef and ResourceRef), replacing any
// completer it had; it is CompleteArg for a registration made elsewhere.
// It returns an error when ref names no registered prompt or template, or
// arg is not one of its arguments or variables.
func (s *Server) Complete(ref CompleteReference, arg string, c Completer) error {
	if c == nil {
		return fmt.Errorf("fastmcp: Complete(%q): the completer is nil", arg)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch ref.Type {
	case protocol.RefPrompt:
		p, ok := s.prompts.reg.get(ref.Name)
		if !ok {
			return fmt.Errorf("fastmcp: Complete: no prompt %q is registered", ref.Name)
		}
		if !p.hasArg(arg) {
			return fmt.Errorf("fastmcp: Complete: prompt %q has no argument %q", ref.Name, arg)
		}
		np := *p
		np.completers = withCompleter(maps.Clone(p.completers), arg, c)
		np.pipe = promptPipeline(&np) // its run names the prompt it serves
		s.prompts.reg.update(func(m map[string]*prompt) { m[ref.Name] = &np })
	case protocol.RefResource:
		t, ok := s.resources.templates.get(ref.URI)
		if !ok {
			return fmt.Errorf("fastmcp: Complete: no resource template %q is registered", ref.URI)
		}
		if !t.tmpl.Has(arg) {
			return fmt.Errorf("fastmcp: Complete: resource template %q has no variable %q", ref.URI, arg)
		}
		nt := *t
		nt.completers = withCompleter(maps.Clone(t.completers), arg, c)
		s.resources.templates.update(func(m map[string]*resourceTemplate) { m[ref.URI] = &nt })
		ordered := slices.Clone(s.resources.orderedTemplates())
		if i := slices.Index(ordered, t); i >= 0 {
			ordered[i] = &nt
		}
		s.resources.ordered.Store(&ordered)
	default:
		return fmt.Errorf("fastmcp: Complete: reference type %q: use fastmcp.PromptRef or fastmcp.ResourceRef", ref.Type)
	}
	return nil
}

// installCompletionHandler adds completion/complete to the low-level
// table and declares the completions capability, unless a handler is
// there already (one the user installed through Lowlevel stays); s.mu
// held.
func (s *Server) installCompletionHandler() {
	if s.ll.Handles(protocol.MethodCompletionComplete) {
		return
	}
	s.ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) { c.Completions = &protocol.Capability{} })
	s.ll.Handle(protocol.MethodCompletionComplete, lowlevel.HandlerFunc(s.complete))
}

// complete serves completion/complete.
func (s *Server) complete(ctx context.Context, req *lowlevel.Request) (any, error) {
	var p protocol.CompleteParams
	if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: completion/complete: %v", protocol.ErrInvalidParams, err)
	}
	arg := p.Argument.Name
	var (
		comp Completer
		name string
	)
	switch p.Ref.Type {
	case protocol.RefPrompt:
		pr, ok := s.prompts.reg.get(p.Ref.Name)
		if !ok || !s.usable(req, pr.component()) {
			return nil, fmt.Errorf("%w: completion/complete: unknown prompt %q", protocol.ErrInvalidParams, p.Ref.Name)
		}
		if err := s.authorize(req, pr.scopes); err != nil {
			return nil, err
		}
		if pr.mount != nil {
			p.Ref.Name = pr.orig
			return completeMounted(ctx, req, pr.mount, &p)
		}
		if !pr.hasArg(arg) {
			return nil, fmt.Errorf("%w: completion/complete: prompt %q has no argument %q", protocol.ErrInvalidParams, p.Ref.Name, arg)
		}
		comp, name = pr.completers[arg], p.Ref.Name
	case protocol.RefResource:
		t, ok := s.resources.templates.get(p.Ref.URI)
		if ok && !s.usable(req, t.component()) {
			return nil, fmt.Errorf("%w: completion/complete: unknown resource template %q", protocol.ErrInvalidParams, p.Ref.URI)
		}
		if !ok {
			if _, static := s.resources.static.get(p.Ref.URI); static {
				return nil, fmt.Errorf("%w: completion/complete: resource %q has no variables to complete", protocol.ErrInvalidParams, p.Ref.URI)
			}
			return nil, fmt.Errorf("%w: completion/complete: unknown resource template %q", protocol.ErrInvalidParams, p.Ref.URI)
		}
		if err := s.authorize(req, t.scopes); err != nil {
			return nil, err
		}
		if t.mount != nil {
			p.Ref.URI = t.orig
			return completeMounted(ctx, req, t.mount, &p)
		}
		if !t.tmpl.Has(arg) {
			return nil, fmt.Errorf("%w: completion/complete: resource template %q has no variable %q", protocol.ErrInvalidParams, p.Ref.URI, arg)
		}
		comp, name = t.completers[arg], p.Ref.URI
	default:
		return nil, fmt.Errorf("%w: completion/complete: unknown reference type %q", protocol.ErrInvalidParams, p.Ref.Type)
	}
	var values []string
	if comp != nil {
		cr := CompleteRequest{Ref: p.Ref, Argument: arg, Value: p.Argument.Value}
		if p.Context != nil {
			cr.Arguments = p.Context.Arguments
		}
		var err error
		if values, err = callCompleter(newContext(ctx, s, req, "completion", name), comp, cr); err != nil {
			return nil, err
		}
	}
	total := len(values)
	res := &protocol.CompleteResult{Completion: protocol.Completion{Values: values, Total: &total}}
	if total > maxCompletions {
		res.Completion.Values, res.Completion.HasMore = values[:maxCompletions], true
	}
	if res.Completion.Values == nil {
		res.Completion.Values = []string{}
	}
	return res, nil
}

// completeMounted hands a completion of a mounted prompt or template to
// the mounted server, p naming it as that server does.
func completeMounted(ctx context.Context, req *lowlevel.Request, l *mountLink, p *protocol.CompleteParams) (any, error) {
	raw, err := protocol.Marshal(p)
	if err != nil {
		return nil, err
	}
	r := *req
	r.Params = raw
	return l.child.serveComplete(ctx, &r)
}

// callCompleter runs a completer, turning a panic into an internal error.
func callCompleter(c *Context, comp Completer, req CompleteRequest) (values []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			c.Logger().Error("completer panicked", "argument", req.Argument, "panic", r, "stack", string(debug.Stack()))
			values, err = nil, fmt.Errorf("%w: completing %s failed", protocol.ErrInternal, req.Argument)
		}
	}()
	values, err = comp(c, req)
	if err != nil {
		if _, ok := errors.AsType[*protocol.Error](err); ok || (c.Err() != nil && errors.Is(err, c.Err())) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: completing %s: %v", protocol.ErrInternal, req.Argument, err)
	}
	return values, nil
}
