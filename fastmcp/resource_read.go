package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"runtime/debug"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/schema"
)

// readParams is the part of resources/read params the server reads.
type readParams struct {
	URI            string                  `json:"uri"`
	InputResponses protocol.InputResponses `json:"inputResponses"`
	RequestState   string                  `json:"requestState"`
}

// readResourceRequest serves resources/read.
func (s *Server) readResourceRequest(ctx context.Context, req *lowlevel.Request) (any, error) {
	var p readParams
	if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: resources/read: %v", protocol.ErrInvalidParams, err)
	}
	if p.URI == "" {
		return nil, fmt.Errorf("%w: resources/read: missing uri", protocol.ErrInvalidParams)
	}
	if l, rest := s.mountFor(p.URI); l != nil {
		r, err := renamed(req, "uri", rest)
		if err != nil {
			return nil, err
		}
		return l.child.serveReadResource(ctx, r)
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
		if s.resourceScopes(p.URI) != nil {
			res.CacheScope = protocol.CacheScopePrivate // only for callers with the scopes
		}
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
	if p := s.resources.readers.Load(); p != nil {
		for _, read := range *p {
			if c, ok := read(uri); ok {
				return []ResourceContents{c}, nil
			}
		}
	}
	if l, rest := s.mountFor(uri); l != nil {
		if l.child.proxy != nil {
			return nil, fmt.Errorf("fastmcp: reading %s: a resource of a mounted Proxy cannot be read from a handler: read it with a Client", uri)
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
			continue // a Proxy's, or a mounted server's: not read here
		}
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
