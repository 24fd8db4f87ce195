package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"runtime/debug"
	"sync"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/schema"
)

// resourceReads is how resources/read finds what it reads: every read
// runs the one resourcePipeline, which finds the resource (static, a
// template's, a skill file's, or a mounted server's) by its URI.
var resourceReads = &callKind{method: protocol.MethodResourcesRead, kind: "resource", find: findResource}

// readResourceRequest serves resources/read.
func (s *Server) readResourceRequest(ctx context.Context, req *lowlevel.Request) (any, error) {
	resourcePipelineOnce.Do(buildResourcePipeline)
	return s.serveCall(ctx, req, resourceReads)
}

// findResource checks that a resources/read names a URI. Which resource
// serves it is decided by the pipeline's run, since a template's match
// binds the URI's variables.
func findResource(_ *Server, _ *lowlevel.Request, p *callParams) (*pipeline, string, error) {
	if p.URI == "" {
		return nil, "", fmt.Errorf("%w: resources/read: missing uri", protocol.ErrInvalidParams)
	}
	p.Arguments = nil // a read has no arguments: its URI is its target
	return resourcePipeline, p.URI, nil
}

// resourcePipeline is the steps of every resources/read: forwarding to a
// mounted server whose prefix the URI has, or the multi round-trip inputs
// and the read (which checks the scopes of what it finds).
//
// It is built on the first read, not in its declaration: forwarding reaches
// readResourceRequest, which reaches it (an initialization cycle), and an
// init function would link the read path into servers that serve no
// resources.
var (
	resourcePipeline     *pipeline
	resourcePipelineOnce sync.Once
)

func buildResourcePipeline() {
	resourcePipeline = newPipeline(readResourceRun, forwardMountedRead, withInputs(protocol.MethodResourcesRead))
}

// forwardMountedRead forwards a read of a mounted server's URI to it.
func forwardMountedRead(cl *call, next runFunc) (any, error) {
	l, rest := cl.ctx.srv.mountFor(cl.target())
	if l == nil {
		return next(cl)
	}
	return forwardTo(l, "uri", rest, nil, (*Server).serveReadResource)(cl)
}

// readResourceRun reads the resource and gives the result its cache hints.
func readResourceRun(cl *call) (any, error) {
	c, s, uri := &cl.ctx, cl.ctx.srv, cl.target()
	contents, err := s.readResource(c, uri)
	if err != nil {
		return nil, readError(c, uri, err)
	}
	res := &protocol.ReadResourceResult{Contents: contents}
	if c.req.Era.CacheHints() {
		applyCacheHint(res, s.cacheHintFor(uri))
		if s.resourceScopes(uri) != nil {
			res.CacheScope = protocol.CacheScopePrivate // only for callers with the scopes
		}
	}
	return res, nil
}

// readError turns the error of a read into the JSON-RPC error sent back.
func readError(c *Context, uri string, err error) error {
	if errors.Is(err, protocol.ErrResourceNotFound) || errors.Is(err, fs.ErrNotExist) {
		return c.req.Era.ResourceNotFound(uri)
	}
	if cerr, ok := errors.AsType[*CapabilityError](err); ok && c.req.Era.RefusesMissingCapability() {
		return cerr.protocolError()
	}
	return err
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
	if p := s.resources.readers.Load(); p != nil {
		for _, read := range *p {
			if rc, ok := read(uri); ok {
				return []ResourceContents{rc}, nil
			}
		}
	}
	if !s.resourceUsable(c.req, uri) {
		return nil, errNotFound(uri)
	}
	if l, rest := s.mountFor(uri); l != nil {
		if l.child.proxy != nil {
			return nil, fmt.Errorf("fastmcp: reading %s: a resource of a mounted proxy cannot be read from a handler: read it with a Client", uri)
		}
		return l.child.readResource(c, rest)
	}
	if r, ok := s.resources.static.get(uri); ok && r.handler != nil {
		if err := s.authorize(c.req, r.scopes); err != nil {
			return nil, err
		}
		return s.callResource(c, r.handler, reflect.Value{}, r.kind, r.mimeType, uri)
	}
	var firstErr error
	for _, t := range s.resources.orderedTemplates() {
		if t.handler == nil {
			continue // a proxy's, or a mounted server's: not read here
		}
		if !s.usable(c.req, t.component()) {
			continue
		}
		vals, ok := t.tmpl.Match(uri)
		if !ok {
			continue
		}
		if !t.allowDotDot {
			if name, bad := t.tmpl.DotDot(vals); bad {
				if firstErr == nil {
					firstErr = invalidArguments("resource", uri, &schema.ValidationError{Issues: []schema.Issue{
						{Path: name, Rule: "path", Message: `must not have a ".." path segment`},
					}})
				}
				continue
			}
		}
		arg, err := t.args.Bind(vals)
		if err != nil {
			if firstErr == nil {
				firstErr = invalidArguments("resource", uri, err)
			}
			continue
		}
		if err := s.authorize(c.req, t.scopes); err != nil {
			return nil, err
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
