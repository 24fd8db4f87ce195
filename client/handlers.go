package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/appswire"
	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
)

// ElicitRequest is what a server asks the user to fill in (form mode) or
// visit (URL mode).
type ElicitRequest = protocol.ElicitParams

// ElicitResult is the user's answer to an ElicitRequest.
type ElicitResult = protocol.ElicitResult

// SamplingHandler answers a server's request to sample the client's model.
type SamplingHandler func(ctx context.Context, req *SamplingRequest) (*SamplingResult, error)

// ElicitationHandler answers a server's elicitation: it asks the user and
// returns their answer.
type ElicitationHandler func(ctx context.Context, req *ElicitRequest) (*ElicitResult, error)

// RootsHandler returns the client's current roots.
type RootsHandler func(ctx context.Context) ([]Root, error)

type clientHandlers struct {
	sampling      SamplingHandler
	samplingTools bool
	elicitForm    ElicitationHandler
	elicitURL     ElicitationHandler
	roots         RootsHandler
}

// WithSampling lets servers sample the client's model through fn, and
// declares the sampling capability. Add WithSamplingTools to declare that fn
// handles the tools and toolChoice fields (protocol 2025-11-25).
func WithSampling(fn SamplingHandler) Option {
	return option(func(c *config) { c.handlers.sampling = fn })
}

// WithSamplingTools declares that the sampling handler supports tool use.
func WithSamplingTools() Option {
	return option(func(c *config) { c.handlers.samplingTools = true })
}

// WithElicitation lets servers ask the user to fill in forms through fn
// (form mode), and declares the elicitation capability. When the user
// accepts, fields fn leaves out are filled from the form's defaults
// (SEP-1034) before the answer is sent.
func WithElicitation(fn ElicitationHandler) Option {
	return option(func(c *config) { c.handlers.elicitForm = fn })
}

// WithURLElicitation lets servers send the user to a URL through fn (URL
// mode, protocol 2025-11-25 and later), and declares elicitation.url.
func WithURLElicitation(fn ElicitationHandler) Option {
	return option(func(c *config) { c.handlers.elicitURL = fn })
}

// WithRoots exposes a fixed list of roots to servers and declares the roots
// capability.
func WithRoots(roots ...Root) Option {
	return WithRootsFunc(func(context.Context) ([]Root, error) { return roots, nil })
}

// WithRootsFunc exposes the roots fn returns to servers and declares the
// roots capability (with listChanged: call NotifyRootsChanged when they
// change).
func WithRootsFunc(fn RootsHandler) Option {
	return option(func(c *config) { c.handlers.roots = fn })
}

// WithRequestForwarding prepares the client for proxy.New: it declares
// sampling (with tools), elicitation (form and URL mode) and roots, and
// once a proxy is built on the client, its log messages (every level,
// unless WithLogLevel says otherwise) and the server's requests of those kinds
// made while a call is forwarded go to the client of that call, whatever
// protocol revision each side speaks (see proxy.New for how a request is
// matched with its call). A request that cannot be matched with a call
// goes to the handlers set with WithSampling, WithElicitation and
// WithRootsFunc, when there are some, and is refused otherwise.
func WithRequestForwarding() Option {
	return option(func(c *config) { c.forward = true })
}

// capabilities declares what the client's options offer, in the shapes
// revision v defines: elicitation from 2025-06-18 (form mode only, as an
// empty object, until 2025-11-25 added elicitation.form and .url),
// sampling.tools from 2025-11-25, roots.listChanged until 2026-07-28
// (which has no client notifications).
func (c *Client) capabilities(v string) protocol.ClientCapabilities {
	var caps protocol.ClientCapabilities
	h := c.cfg.handlers
	if c.cfg.forward {
		// What a proxy's callers may answer: they are asked once a call
		// is forwarded, and refuse what they do not support themselves.
		nop := func(context.Context, *ElicitRequest) (*ElicitResult, error) { return nil, nil }
		h.sampling = func(context.Context, *protocol.CreateMessageParams) (*protocol.CreateMessageResult, error) {
			return nil, nil
		}
		h.samplingTools, h.elicitForm, h.elicitURL = true, nop, nop
		h.roots = func(context.Context) ([]protocol.Root, error) { return nil, nil }
	}
	if h.sampling != nil {
		caps.Sampling = &protocol.SamplingCapability{}
		if h.samplingTools && protocol.HasSamplingTools(v) {
			caps.Sampling.Tools = &protocol.Capability{}
		}
	}
	switch {
	case !protocol.HasElicitation(v):
	case !protocol.HasURLElicitation(v):
		if h.elicitForm != nil {
			caps.Elicitation = &protocol.ElicitationCapability{}
		}
	case h.elicitForm != nil || h.elicitURL != nil:
		caps.Elicitation = &protocol.ElicitationCapability{}
		if h.elicitURL != nil {
			caps.Elicitation.URL = &protocol.Capability{}
			if h.elicitForm != nil {
				caps.Elicitation.Form = &protocol.Capability{}
			}
		}
	}
	if h.roots != nil {
		caps.Roots = &protocol.RootsCapability{ListChanged: !protocol.EraOf(v).Stateless()}
	}
	if protocol.EraOf(v).Stateless() {
		// CallTool and Call follow the tasks a server answers with.
		caps.Extensions = map[string]json.RawMessage{protocol.ExtensionTasks: json.RawMessage("{}")}
	}
	if settings := c.appsSettings(); settings != nil {
		if caps.Extensions == nil {
			caps.Extensions = map[string]json.RawMessage{}
		}
		caps.Extensions[appswire.Extension] = settings
	}
	return caps
}

// NotifyRootsChanged tells the server that the client's roots changed
// (legacy revisions; on 2026-07-28 servers ask for roots with each request
// that needs them, so there is nothing to send).
func (c *Client) NotifyRootsChanged(ctx context.Context) error {
	if c.era.Dropped(protocol.NotificationRootsListChanged) {
		return nil
	}
	return c.sess.Notify(ctx, protocol.NotificationRootsListChanged, nil)
}

// serveRequest answers a server-to-client request (or, on 2026-07-28, an
// input request) with the registered handlers; v is the revision in use,
// which decides what may be asked (as capabilities declared it).
func (c *Client) serveRequest(ctx context.Context, v, method string, params []byte) (any, error) {
	if p := c.proxy.Load(); p != nil && c.cfg.forward {
		if res, err, ok := (*p).ServeRequest(ctx, method, params); ok {
			return res, err
		}
	}
	h := c.cfg.handlers
	switch method {
	case protocol.MethodSamplingCreateMessage:
		if h.sampling == nil {
			return nil, fmt.Errorf("%w: this client does not support sampling", protocol.ErrMethodNotFound)
		}
		var p protocol.CreateMessageParams
		if err := protocol.Unmarshal(jsonobj.OrEmpty(params), &p); err != nil {
			return nil, fmt.Errorf("%w: %v", protocol.ErrInvalidParams, err)
		}
		return h.sampling(ctx, &p)
	case protocol.MethodElicitationCreate:
		if !protocol.HasElicitation(v) {
			return nil, fmt.Errorf("%w: %s (protocol %s has no elicitation)", protocol.ErrMethodNotFound, method, v)
		}
		var p ElicitRequest
		if err := protocol.Unmarshal(jsonobj.OrEmpty(params), &p); err != nil {
			return nil, fmt.Errorf("%w: %v", protocol.ErrInvalidParams, err)
		}
		fn := h.elicitForm
		if p.Mode == protocol.ElicitModeURL {
			if !protocol.HasURLElicitation(v) {
				return nil, fmt.Errorf("%w: URL-mode elicitation needs protocol %s or later; this session speaks %s", protocol.ErrInvalidParams, protocol.Version20251125, v)
			}
			fn = h.elicitURL
		}
		if fn == nil {
			return nil, fmt.Errorf("%w: this client does not support %s elicitation", protocol.ErrInvalidParams, orDefault(p.Mode, "form"))
		}
		res, err := fn(ctx, &p)
		if err != nil {
			return nil, err
		}
		if res != nil && res.Action == protocol.ElicitActionAccept && p.Mode != protocol.ElicitModeURL {
			filled, err := applyElicitDefaults(p.RequestedSchema, res.Content)
			if err != nil {
				return nil, err
			}
			r := *res
			r.Content = filled
			res = &r
		}
		return res, nil
	case protocol.MethodRootsList:
		if h.roots == nil {
			return nil, fmt.Errorf("%w: this client does not support roots", protocol.ErrMethodNotFound)
		}
		roots, err := h.roots(ctx)
		if err != nil {
			return nil, err
		}
		if roots == nil {
			roots = []protocol.Root{}
		}
		return &protocol.ListRootsResult{Roots: roots}, nil
	}
	return nil, fmt.Errorf("%w: %s", protocol.ErrMethodNotFound, method)
}

// applyElicitDefaults fills, in an accepted elicitation's content, every
// property the user's handler left out that has a default in the requested
// schema (SEP-1034).
func applyElicitDefaults(requested, content []byte) ([]byte, error) {
	var schema struct {
		Properties map[string]struct {
			Default jsontext.Value `json:"default"`
		} `json:"properties"`
	}
	if len(requested) == 0 || protocol.Unmarshal(requested, &schema) != nil {
		return content, nil
	}
	got := map[string]jsontext.Value{}
	if len(content) > 0 && string(content) != "null" {
		if err := protocol.Unmarshal(content, &got); err != nil {
			return nil, fmt.Errorf("client: the elicitation handler's content is not a JSON object: %w", err)
		}
	}
	changed := false
	for name, prop := range schema.Properties {
		if _, ok := got[name]; !ok && len(prop.Default) > 0 {
			got[name] = prop.Default
			changed = true
		}
	}
	if !changed && len(content) > 0 {
		return content, nil
	}
	b, err := protocol.Marshal(got)
	return b, err
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// handleServerRequest adapts serveRequest to the session.
func (c *Client) handleServerRequest(ctx context.Context, req *session.Request) (any, error) {
	return c.serveRequest(ctx, c.version(req.Version), req.Method, req.Params)
}

// version returns the revision a server request is served under: v, the
// request's own, when known; else the modern revision in use, or the one
// the handshake negotiated.
func (c *Client) version(v string) string {
	if v != "" {
		return v
	}
	if c.era.Stateless() {
		if mv, ok := c.meta[protocol.MetaProtocolVersion].(string); ok {
			return mv
		}
	}
	return c.sess.ProtocolVersion()
}
