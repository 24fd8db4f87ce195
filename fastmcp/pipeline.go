package fastmcp

import (
	"context"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// The call pipeline: every tools/call, prompts/get and resources/read goes
// decode → find → steps → run, in serveCall. Each component (tool, prompt,
// the resources) holds a pipeline built once, at registration, from the
// steps its options and its place need, so a call runs only the steps that
// apply to it, and a feature (scopes, mounting, tasks, parameter headers,
// multi round-trip inputs) lives in one step in one file instead of an if in
// every handler. The order of the steps is fixed by the builders
// (toolPipeline, promptPipeline, resourcePipeline); docs/architecture.md
// lists it.

// callParams is the part of tools/call, prompts/get and resources/read
// params the server reads.
type callParams struct {
	Name           string                  `json:"name"`
	URI            string                  `json:"uri"`
	Arguments      jsontext.Value          `json:"arguments"`
	InputResponses protocol.InputResponses `json:"inputResponses"`
	RequestState   string                  `json:"requestState"`
}

// A call is one request as the pipeline carries it: its decoded params and
// the handler's Context, in one allocation.
type call struct {
	params callParams
	ctx    Context
}

// req is the low-level request being served.
func (cl *call) req() *lowlevel.Request { return cl.ctx.req }

// target is what the call names: the tool or prompt name, or the URI.
func (cl *call) target() string { return cl.ctx.name }

// runFunc continues a call: the rest of its pipeline.
type runFunc func(cl *call) (any, error)

// A callStep is one part of a component's pipeline: it checks, forwards or
// rewrites the call and then answers it itself or passes it to next.
type callStep func(cl *call, next runFunc) (any, error)

// pipeline is a component's steps composed around its run (bind the
// arguments, call the handler, convert the result).
type pipeline struct {
	entry runFunc
}

// newPipeline composes steps, first to last, around run.
func newPipeline(run runFunc, steps ...callStep) *pipeline {
	h := run
	for i := len(steps) - 1; i >= 0; i-- {
		step, next := steps[i], h
		h = func(cl *call) (any, error) { return step(cl, next) }
	}
	return &pipeline{entry: h}
}

// callKind is what differs between the three methods before a component is
// found: the method's name in messages, the kind a Context reports, and how
// the component is looked up.
type callKind struct {
	method string
	kind   string // "tool", "prompt" or "resource"
	// find returns the pipeline of the component the params name, or the
	// error the caller gets (unknown name, hidden, missing).
	find func(s *Server, req *lowlevel.Request, p *callParams) (*pipeline, string, error)
}

// unknownName is the error of a call (method) that names no registered
// component of kind: its name is missing, or unknown.
func unknownName(method, kind, name string) error {
	if name == "" {
		return fmt.Errorf("%w: %s: missing %s name", protocol.ErrInvalidParams, method, kind)
	}
	return fmt.Errorf("%w: unknown %s %q", protocol.ErrInvalidParams, kind, name)
}

// serveCall serves one call of kind k: it decodes the params, finds the
// component and runs its pipeline.
func (s *Server) serveCall(ctx context.Context, req *lowlevel.Request, k *callKind) (any, error) {
	cl := new(call)
	if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &cl.params); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", protocol.ErrInvalidParams, k.method, err)
	}
	p, name, err := k.find(s, req, &cl.params)
	if err != nil {
		return nil, err
	}
	cl.ctx = Context{Context: ctx, srv: s, req: req, kind: k.kind, name: name}
	return p.entry(cl)
}

// requireScopes is the step of a component registered with RequireScopes:
// a caller whose token lacks a scope gets the insufficient-scope error.
func requireScopes(scopes []string) callStep {
	return func(cl *call, next runFunc) (any, error) {
		if err := cl.ctx.srv.authorize(cl.req(), scopes); err != nil {
			return nil, err
		}
		return next(cl)
	}
}

// forwardTo is the run of a component that comes from the server mounted
// by l: the call goes to that server under the component's own name there
// (orig, in the params member key), rewritten by rewrite if it is not nil.
// serve is the mounted server's entry for the method.
func forwardTo(l *mountLink, key, orig string, rewrite func(*lowlevel.Request) *lowlevel.Request, serve func(*Server, context.Context, *lowlevel.Request) (any, error)) runFunc {
	return func(cl *call) (any, error) {
		r, err := renamed(cl.req(), key, orig)
		if err != nil {
			return nil, err
		}
		if rewrite != nil {
			r = rewrite(r)
		}
		return serve(l.child, cl.ctx.Context, r)
	}
}

// withInputs is the step that gives a modern request its multi round-trip
// state (the answers it carries) and turns a handler's unanswered input
// requests into the input_required result.
func withInputs(method string) callStep {
	return func(cl *call, next runFunc) (any, error) {
		c, p := &cl.ctx, &cl.params
		if err := c.startInputs(method, cl.target(), p.Arguments, p.InputResponses, p.RequestState); err != nil {
			return nil, err
		}
		res, err := next(cl)
		if ir, ierr := c.inputRequired(); ir != nil || ierr != nil {
			if ierr != nil {
				return nil, ierr
			}
			return ir, nil
		}
		return res, err
	}
}
