package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/appswire"
	"github.com/fastmcp-go/fastmcp/internal/clientlink"
	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/internal/serverlink"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
)

// New returns a *fastmcp.Server that forwards everything to the server
// behind backend, so that one process can re-expose a server over another
// transport (a stdio server over Streamable HTTP, a remote server over
// stdio), put authentication or telemetry in front of it, or Mount it
// beside other servers. Serve it like any Server: ServeStdio, ServeHTTP,
// Run, with all of the server's options (Auth, AllowedHosts, ...). The
// proxy identifies itself as the backend does, with its instructions;
// opts come after and may change that.
//
// What is forwarded:
//   - the tools, prompts, resources and resource templates the backend
//     lists, exactly as it lists them (schemas, annotations, _meta), kept
//     up to date with its list_changed notifications, which reach the
//     proxy's own clients; the proxy pages them with its own PageSize;
//   - tools/call, prompts/get, resources/read and completion/complete,
//     with their arguments and _meta as the caller sent them, answered
//     with the backend's result as it is, or its JSON-RPC error with its
//     code and data. A backend that cannot be reached gives an internal
//     error, never a made-up result;
//   - the progress of a call, its log messages and the requests the
//     backend makes while serving it (sampling, elicitation, roots), which
//     go to the proxy's caller and back, whichever protocol revision
//     each side speaks (a 2025-11-25 elicitation/create becomes an input
//     request of a 2026-07-28 caller; the call is then run again on the
//     backend once the caller has answered, as any fastmcp handler is);
//   - cancellation of a call by the caller; resources/subscribe and the
//     updates of the subscribed resources.
//
// Connect backend with client.WithRequestForwarding, so that it declares the
// capabilities its callers may have; without it the backend's requests are
// not forwarded. The proxy matches a backend request with the call it
// belongs to through the call itself on 2026-07-28 backends (their input
// requests come back in the call's result). A request of an earlier
// revision, and a log message of any revision, where the message does
// not say which call it belongs to, goes to the one call in flight, and
// is refused (a request) or kept in the proxy's log (a message) while
// several calls are, or none: a log message sent as a call ends, or by
// the backend's background work, may then reach the caller of another
// call in flight.
//
// A client backs one proxy. The proxy keeps its lists up to date until
// the client is closed: close it after the proxy's last Serve returns.
func New(backend *client.Client, opts ...fastmcp.Option) *fastmcp.Server {
	info := backend.ServerInfo()
	base := []fastmcp.Option{
		fastmcp.Instructions(backend.Instructions()), fastmcp.ServerTitle(info.Title),
		fastmcp.ServerDescription(info.Description), fastmcp.ServerWebsiteURL(info.WebsiteURL), fastmcp.ServerIcons(info.Icons...),
	}
	s := fastmcp.New(info.Name, info.Version, append(base, opts...)...)
	p := &proxyBackend{
		srv: serverlink.Open(s), ll: s.Lowlevel(), logger: s.Logger(), notifyUpdated: s.NotifyResourceUpdated,
		client: backend, link: clientlink.Open(backend), calls: map[*proxyCall]struct{}{},
		kick: make(chan struct{}, 1), ready: make(chan struct{}), subs: map[string]map[any]struct{}{},
		subscribers: map[any]*proxySubscriber{},
		updSet:      map[string]struct{}{}, updKick: make(chan struct{}, 1),
	}
	if !p.link.Attach(p) {
		panic("proxy: New: this client already backs a proxy: connect one client for each proxy")
	}
	if !p.link.Forwarding {
		p.logger.Warn("proxy: New: the client was connected without client.WithRequestForwarding: the backend's sampling, elicitation and roots requests will not reach the proxy's clients")
	}
	p.srv.SetBackend(p)
	p.install()
	go p.run()
	go p.deliverUpdates()
	return s
}

// proxyBackend is the server a proxy forwards to.
type proxyBackend struct {
	srv           *serverlink.Server // what the proxy uses of its fastmcp.Server beyond its exported methods
	ll            *lowlevel.Server   // the proxy's method table
	logger        *slog.Logger
	notifyUpdated func(ctx context.Context, uri string) error // the proxy's NotifyResourceUpdated
	client        *client.Client
	link          *clientlink.Client // what the proxy uses of client beyond its exported methods

	mu    sync.Mutex
	calls map[*proxyCall]struct{} // the calls being forwarded
	dirty listKinds               // the lists to fetch again

	kick  chan struct{} // wakes run when dirty is set
	ready chan struct{} // closed once the lists were fetched the first time

	updMu    sync.Mutex
	updQueue []string            // the backend's resource updates to pass on, in order
	updSet   map[string]struct{} // the URIs in updQueue
	updKick  chan struct{}       // wakes deliverUpdates when updQueue is set

	subMu       sync.Mutex
	subs        map[string]map[any]struct{} // subscriptions held at the backend: URI → subscriber keys
	subscribers map[any]*proxySubscriber    // subscriber key → its subscriptions

	ownMu  sync.Mutex
	owners map[string]taskOwner // the backend's tasks started through the proxy: task id → who
}

// proxyCall is one call being forwarded: the backend's requests and
// messages during it go to its caller, c (who sent req).
type proxyCall struct {
	c         *fastmcp.Context
	req       *lowlevel.Request
	cancel    context.CancelFunc                      // ends the backend call
	mu        sync.Mutex                              // serialises asking c for input
	needInput atomic.Bool                             // the caller must answer an input request first
	capErr    atomic.Pointer[fastmcp.CapabilityError] // the caller could not answer a request: it lacks this
}

type proxyCallKey struct{}

// listKinds are the backend's lists to fetch.
type listKinds uint8

const (
	listTools listKinds = 1 << iota
	listPrompts
	listResources
	listAll = listTools | listPrompts | listResources
)

// install puts the forwarding handlers in the proxy's method table and
// declares what the backend declared.
func (p *proxyBackend) install() {
	caps := p.client.ServerCapabilities()
	p.srv.InstallLists(caps)
	ll := p.ll
	if caps.Tools != nil {
		ll.Handle(protocol.MethodToolsCall, lowlevel.HandlerFunc(p.CallTool))
	}
	if caps.Prompts != nil {
		ll.Handle(protocol.MethodPromptsGet, lowlevel.HandlerFunc(p.GetPrompt))
	}
	if caps.Resources != nil {
		ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) {
			c.Resources = &protocol.ResourcesCapability{Subscribe: caps.Resources.Subscribe, ListChanged: true}
		})
		ll.Handle(protocol.MethodResourcesRead, lowlevel.HandlerFunc(p.ReadResource))
		if !caps.Resources.Subscribe {
			ll.Remove(protocol.MethodResourcesSubscribe)
			ll.Remove(protocol.MethodResourcesUnsubscribe)
		}
	}
	if caps.Completions != nil {
		ll.Handle(protocol.MethodCompletionComplete, lowlevel.HandlerFunc(p.Complete))
	}
	if _, ok := caps.Extensions[protocol.ExtensionTasks]; ok && p.link.Era.TasksExtension() {
		// The backend's tasks, followed by the proxy's callers.
		ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) {
			if c.Extensions == nil {
				c.Extensions = map[string]json.RawMessage{}
			}
			c.Extensions[protocol.ExtensionTasks] = json.RawMessage("{}")
		})
		for _, m := range []string{protocol.MethodTasksGet, protocol.MethodTasksUpdate, protocol.MethodTasksCancel} {
			ll.Handle(m, lowlevel.HandlerFunc(p.task))
		}
	}
	if settings, ok := caps.Extensions[appswire.Extension]; ok {
		// MCP Apps: the backend's views and tools are listed as it lists
		// them to callers that render views, with the extension's
		// fallback to the others.
		ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) {
			if c.Extensions == nil {
				c.Extensions = map[string]json.RawMessage{}
			}
			c.Extensions[appswire.Extension] = settings
		})
	}
	if settings, ok := caps.Extensions[protocol.ExtensionSkills]; ok {
		// The skills extension: its methods pass through, its files are
		// resources (read through resources/read).
		ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) {
			if c.Extensions == nil {
				c.Extensions = map[string]json.RawMessage{}
			}
			c.Extensions[protocol.ExtensionSkills] = settings
		})
		for _, m := range []string{protocol.MethodSkillsList, protocol.MethodSkillsGet, protocol.MethodResourcesDirectoryRead} {
			ll.Handle(m, lowlevel.HandlerFunc(p.extension))
		}
	}
	ll.HandleNotification(protocol.NotificationRootsListChanged, lowlevel.HandlerFunc(p.rootsChanged))
}

// run fetches the backend's lists, and again after each list_changed,
// until the client is closed.
func (p *proxyBackend) run() {
	ctx := p.link.Context()
	p.sync(ctx, listAll, false)
	close(p.ready)
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.kick:
			p.mu.Lock()
			kinds := p.dirty
			p.dirty = 0
			p.mu.Unlock()
			p.sync(ctx, kinds, true)
		}
	}
}

// ListChanged is told of the backend's list_changed notifications.
func (p *proxyBackend) ListChanged(method string) {
	var k listKinds
	switch method {
	case protocol.NotificationToolsListChanged:
		k = listTools
	case protocol.NotificationPromptsListChanged:
		k = listPrompts
	case protocol.NotificationResourcesListChanged:
		k = listResources
	}
	p.mu.Lock()
	p.dirty |= k
	p.mu.Unlock()
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// WaitReady waits until the lists were fetched once.
func (p *proxyBackend) WaitReady(ctx context.Context) error {
	select {
	case <-p.ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// begin registers a call being forwarded for c (serving req) and returns
// the context of the backend call and the function ending it.
func (p *proxyBackend) begin(c *fastmcp.Context, req *lowlevel.Request) (context.Context, *proxyCall, func()) {
	ctx, cancel := context.WithCancel(c)
	pc := &proxyCall{c: c, req: req, cancel: cancel}
	p.mu.Lock()
	p.calls[pc] = struct{}{}
	p.mu.Unlock()
	return context.WithValue(ctx, proxyCallKey{}, pc), pc, func() {
		p.mu.Lock()
		delete(p.calls, pc)
		p.mu.Unlock()
		cancel()
	}
}

// soleCall returns the one call being forwarded, or nil when there is
// none or several.
func (p *proxyBackend) soleCall() *proxyCall {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.calls) != 1 {
		return nil
	}
	for pc := range p.calls {
		return pc
	}
	return nil
}

// forward sends the caller's request req to the backend as the call of c,
// with its progress passed back, and returns the backend's result. send
// sends it: p.link.Call, or p.link.CallTool for the Mcp-Param headers of
// tools/call.
func (p *proxyBackend) forward(c *fastmcp.Context, req *lowlevel.Request, send func(ctx context.Context, result *json.RawMessage, opts []session.CallOption) error) (any, error) {
	ctx, pc, end := p.begin(c, req)
	defer end()
	if p.link.Era.Stateless() {
		// The backend judges the caller's request by the caller's
		// capabilities, and sends the log messages it wants.
		caps := *c.ClientCapabilities()
		caps.Experimental = nil
		ext := map[string]json.RawMessage{}
		if _, ok := caps.Extensions[protocol.ExtensionTasks]; ok && req.Era.TasksExtension() {
			ext[protocol.ExtensionTasks] = json.RawMessage("{}")
			ctx = context.WithValue(ctx, clientlink.RawTaskKey{}, true)
		}
		if settings, ok := caps.Extensions[appswire.Extension]; ok {
			// The caller renders views (MCP Apps): the backend's app-only
			// tools are its to call.
			ext[appswire.Extension] = settings
		}
		caps.Extensions = nil
		if len(ext) > 0 {
			caps.Extensions = ext
		}
		meta := protocol.Meta{protocol.MetaClientCapabilities: &caps}
		if lvl, ok := req.LogLevel(); ok {
			meta[protocol.MetaLogLevel] = lvl
		}
		ctx = context.WithValue(ctx, clientlink.CallMetaKey{}, meta)
	}
	var opts []session.CallOption
	if _, ok := req.ProgressToken(); ok {
		opts = append(opts, session.WithProgress(func(pp *protocol.ProgressParams) {
			if err := c.Progress(pp.Progress, pp.Total, pp.Message); err != nil {
				c.Logger().Debug("progress not passed on", "error", err)
			}
		}))
	}
	var raw json.RawMessage
	err := send(ctx, &raw, opts)
	if ir, ierr := p.srv.InputRequired(c); ir != nil || ierr != nil {
		if ierr != nil {
			return nil, ierr
		}
		return ir, nil
	}
	if pc.needInput.Load() {
		// Only a caller that asks for input that way gets here without
		// an input_required result, and it cannot.
		return nil, fmt.Errorf("%w: the backend's input request could not be passed on", protocol.ErrInternal)
	}
	if cerr := pc.capErr.Load(); cerr != nil && req.Era.RefusesMissingCapability() {
		// The backend needed what the caller lacks: 2026-07-28 says so
		// with MissingRequiredClientCapability, whatever the backend
		// made of the refusal.
		perr, _ := p.srv.Refusal(cerr)
		return nil, perr
	}
	if err != nil {
		return nil, p.backendError(c, req, err)
	}
	// The members 2026-07-28 adds go (the proxy adds its own for its
	// modern callers); the rest is passed on byte for byte, not decoded,
	// so a large result costs one copy at most.
	return p.link.WithoutProtocolMembers(raw), nil
}

// backendError turns the failure of a forwarded request into the error
// its caller gets: the backend's JSON-RPC error as it is; a request the
// caller cancelled as such; a client capability the caller lacks as
// MissingRequiredClientCapability (2026-07-28); anything else (the backend
// could not be reached, its answer was lost) as an internal error saying
// so.
func (p *proxyBackend) backendError(c *fastmcp.Context, req *lowlevel.Request, err error) error {
	if perr, ok := errors.AsType[*protocol.Error](err); ok {
		return perr
	}
	if c.Err() != nil && errors.Is(err, c.Err()) {
		return err
	}
	if perr, ok := p.srv.Refusal(err); ok && req.Era.RefusesMissingCapability() {
		return perr
	}
	c.Logger().Warn("proxy: the backend server did not answer", "method", req.Method, "error", err)
	return protocol.NewError(protocol.CodeInternalError, "proxy: the backend server did not answer: "+err.Error())
}

// forwardParams returns the params of a request to forward: the caller's,
// without what belongs to the caller's own exchange with the proxy: its
// protocol _meta entries and progress token, and, for the requests whose
// input requests the proxy asks itself (tools/call, prompts/get,
// resources/read), the multi round-trip members inputResponses and
// requestState.
func forwardParams(req *lowlevel.Request) (json.RawMessage, error) {
	own := false
	switch req.Method {
	case protocol.MethodToolsCall, protocol.MethodPromptsGet, protocol.MethodResourcesRead:
		own = true
	}
	ms, err := jsonobj.Parse(jsonobj.OrEmpty(req.Params))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: params must be a JSON object", protocol.ErrInvalidParams, req.Method)
	}
	b := make([]byte, 0, len(req.Params)+16)
	b = append(b, '{')
	for _, m := range ms {
		switch m.Name {
		case "_meta":
			continue
		case "inputResponses", "requestState":
			if own {
				continue
			}
		}
		b = jsonobj.AppendMember(b, m.Name, m.Value)
	}
	if len(req.Meta.Other) > 0 {
		meta, err := protocol.Marshal(req.Meta.Other)
		if err != nil {
			return nil, err
		}
		b = jsonobj.AppendMember(b, "_meta", meta)
	}
	return append(b, '}'), nil
}

// CallTool forwards tools/call.
func (p *proxyBackend) CallTool(ctx context.Context, req *lowlevel.Request) (any, error) {
	call, err := p.srv.Start(ctx, req)
	if err != nil || call.Served {
		return served(call, err)
	}
	params, err := forwardParams(req)
	if err != nil {
		return nil, err
	}
	res, err := p.forward(call.Context.(*fastmcp.Context), req, func(ctx context.Context, res *json.RawMessage, opts []session.CallOption) error {
		return p.link.CallTool(ctx, call.Name, jsontext.Value(params), json.RawMessage(call.Arguments), res, opts)
	})
	if raw, ok := res.(json.RawMessage); ok && err == nil && req.Era.TasksExtension() {
		p.noteTask(raw, p.srv.Principal(req))
	}
	return res, err
}

// served returns the answer of a request the server answered itself
// (call.Served), or err.
func served(call *serverlink.Call, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return call.Result, nil
}

// GetPrompt forwards prompts/get.
func (p *proxyBackend) GetPrompt(ctx context.Context, req *lowlevel.Request) (any, error) {
	return p.forwardAs(ctx, req)
}

// ReadResource forwards resources/read.
func (p *proxyBackend) ReadResource(ctx context.Context, req *lowlevel.Request) (any, error) {
	call, err := p.srv.Start(ctx, req)
	if err != nil || call.Served {
		return served(call, err)
	}
	res, err := p.forwardCall(call, req)
	if p.link.Era != req.Era && protocol.IsResourceNotFound(err, call.URI) {
		// "Resource not found" is -32002 before 2026-07-28, -32602 since
		// (SEP-2164): in the caller's revision.
		return nil, req.Era.ResourceNotFound(call.URI)
	}
	return res, err
}

// Complete forwards completion/complete.
func (p *proxyBackend) Complete(ctx context.Context, req *lowlevel.Request) (any, error) {
	return p.forwardAs(ctx, req)
}

// task forwards the methods of the tasks extension (2026-07-28).
func (p *proxyBackend) task(ctx context.Context, req *lowlevel.Request) (any, error) {
	if !req.Era.TasksExtension() {
		return nil, fmt.Errorf("%w: %s belongs to the tasks extension of protocol 2026-07-28", protocol.ErrMethodNotFound, req.Method)
	}
	var tp protocol.TaskParams
	if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &tp); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", protocol.ErrInvalidParams, req.Method, err)
	}
	call, err := p.srv.Start(ctx, req)
	if err != nil {
		return nil, err
	}
	caps := call.Context.(*fastmcp.Context).ClientCapabilities()
	if _, ok := caps.Extensions[protocol.ExtensionTasks]; ok && !p.ownsTask(tp.TaskID, p.srv.Principal(req)) {
		// As the server answers for a task of another principal. A
		// caller without the extension is refused by the backend.
		return nil, fmt.Errorf("%w: unknown task %q", protocol.ErrInvalidParams, tp.TaskID)
	}
	return p.forwardCall(call, req)
}

// extension forwards the methods of the skills extension. A 2026-07-28
// caller's skills/list and skills/get results carry the cache attributes
// that revision requires: the backend's, else the proxy's (a backend
// speaking an earlier revision sends none).
func (p *proxyBackend) extension(ctx context.Context, req *lowlevel.Request) (any, error) {
	res, err := p.forwardAs(ctx, req)
	raw, ok := res.(json.RawMessage)
	if err != nil || !ok || !req.Era.CacheHints() || req.Method == protocol.MethodResourcesDirectoryRead {
		return res, err
	}
	var head struct {
		TTL   jsontext.Value `json:"ttlMs"`
		Scope jsontext.Value `json:"cacheScope"`
	}
	if protocol.Unmarshal(raw, &head) != nil || len(head.TTL) > 0 || len(head.Scope) > 0 {
		return raw, nil
	}
	return insertFirst(raw, p.srv.CacheAttrs()), nil
}

// insertFirst inserts members (`"name":value,...`) first in the JSON
// object obj.
func insertFirst(obj json.RawMessage, members string) json.RawMessage {
	i := bytes.IndexByte(obj, '{')
	if i < 0 {
		return obj
	}
	out := make(json.RawMessage, 0, len(obj)+len(members)+1)
	out = append(out, obj[:i+1]...)
	out = append(out, members...)
	if rest := bytes.TrimSpace(obj[i+1:]); len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, obj[i+1:]...)
}

// forwardAs forwards req, with its own method and params, unless the
// server answers it itself.
func (p *proxyBackend) forwardAs(ctx context.Context, req *lowlevel.Request) (any, error) {
	call, err := p.srv.Start(ctx, req)
	if err != nil || call.Served {
		return served(call, err)
	}
	return p.forwardCall(call, req)
}

// forwardCall forwards req, begun as call, with its own method and params.
func (p *proxyBackend) forwardCall(call *serverlink.Call, req *lowlevel.Request) (any, error) {
	params, err := forwardParams(req)
	if err != nil {
		return nil, err
	}
	return p.forward(call.Context.(*fastmcp.Context), req, func(ctx context.Context, res *json.RawMessage, opts []session.CallOption) error {
		return p.link.Call(ctx, req.Method, params, res, opts...)
	})
}

// rootsChanged passes a caller's notifications/roots/list_changed on: the
// backend asks the proxy, which asks its callers.
func (p *proxyBackend) rootsChanged(ctx context.Context, req *lowlevel.Request) (any, error) {
	if err := p.client.NotifyRootsChanged(ctx); err != nil {
		p.logger.Debug("proxy: roots list_changed not passed on", "error", err)
	}
	return nil, nil
}

// proxySubscriber is what the proxy holds for one subscriber.
type proxySubscriber struct {
	uris map[string]struct{}
	stop func() bool // stops the cleanup at the subscriber's end
}

// Subscribe subscribes the backend to uri for sub, a caller of the proxy
// (or of a server it is mounted on): the first subscriber of uri
// subscribes the backend; a subscriber subscribing again to a uri counts
// once. It reports whether sub was not subscribed to uri yet. When sub
// ends, its subscriptions are undone.
func (p *proxyBackend) Subscribe(ctx context.Context, sub serverlink.Subscriber, uri string) (bool, error) {
	p.subMu.Lock()
	defer p.subMu.Unlock()
	ps := p.subscribers[sub.Key]
	if ps != nil {
		if _, ok := ps.uris[uri]; ok {
			return false, nil
		}
	}
	if len(p.subs[uri]) == 0 {
		if err := p.client.Subscribe(ctx, uri, p.updated); err != nil {
			return false, err
		}
	}
	if ps == nil {
		ps = &proxySubscriber{uris: map[string]struct{}{}}
		p.subscribers[sub.Key] = ps
		key := sub.Key
		// No goroutine waits: the cleanup runs once, when the subscriber
		// ends, unless its last subscription was undone before.
		ps.stop = context.AfterFunc(sub.Life, func() { p.drop(key) })
	}
	ps.uris[uri] = struct{}{}
	keys := p.subs[uri]
	if keys == nil {
		keys = map[any]struct{}{}
		p.subs[uri] = keys
	}
	keys[sub.Key] = struct{}{}
	return true, nil
}

// Unsubscribe undoes Subscribe for the subscriber key: the last
// subscriber of uri unsubscribes the backend. A subscriber that was not
// subscribed to uri changes nothing.
func (p *proxyBackend) Unsubscribe(ctx context.Context, key any, uri string) error {
	p.subMu.Lock()
	defer p.subMu.Unlock()
	ps := p.subscribers[key]
	if ps == nil {
		return nil
	}
	if _, ok := ps.uris[uri]; !ok {
		return nil
	}
	delete(ps.uris, uri)
	if len(ps.uris) == 0 {
		ps.stop()
		delete(p.subscribers, key)
	}
	return p.forgetLocked(ctx, key, uri)
}

// forgetLocked removes key from the subscribers of uri, and unsubscribes
// the backend when it was the last; p.subMu held.
func (p *proxyBackend) forgetLocked(ctx context.Context, key any, uri string) error {
	keys := p.subs[uri]
	delete(keys, key)
	if len(keys) > 0 {
		return nil
	}
	delete(p.subs, uri)
	return p.client.Unsubscribe(ctx, uri)
}

// drop undoes the subscriptions of the subscriber key, which ended.
func (p *proxyBackend) drop(key any) {
	ctx, cancel := context.WithTimeout(p.link.Context(), proxyUnsubscribeTimeout)
	defer cancel()
	p.subMu.Lock()
	defer p.subMu.Unlock()
	ps := p.subscribers[key]
	if ps == nil {
		return
	}
	delete(p.subscribers, key)
	for uri := range ps.uris {
		if err := p.forgetLocked(ctx, key, uri); err != nil {
			p.logger.Debug("proxy: the backend subscription of a subscriber that ended not undone", "uri", uri, "error", err)
		}
	}
}

// updated queues the backend's notifications/resources/updated for
// deliverUpdates. It is called on the backend client's read goroutine and
// does not block: an update already queued for uri is not queued again,
// and one beyond maxQueuedUpdates is dropped (and logged).
func (p *proxyBackend) updated(uri string) {
	p.updMu.Lock()
	_, queued := p.updSet[uri]
	full := !queued && len(p.updQueue) >= maxQueuedUpdates
	if !queued && !full {
		p.updSet[uri] = struct{}{}
		p.updQueue = append(p.updQueue, uri)
	}
	p.updMu.Unlock()
	if full {
		p.logger.Warn("proxy: too many resource updates of the backend waiting to be passed on: this one is dropped", "uri", uri)
		return
	}
	select {
	case p.updKick <- struct{}{}:
	default:
	}
}

// maxQueuedUpdates bounds the resource updates of the backend waiting to
// be passed on (distinct URIs).
const maxQueuedUpdates = 1024

// proxyDeliveryTimeout bounds the passing on of one resource update.
const proxyDeliveryTimeout = 10 * time.Second

// deliverUpdates passes the queued resource updates of the backend on to
// the proxy's subscribers, until the client is closed. The proxy starts
// it; it ends with the client.
func (p *proxyBackend) deliverUpdates() {
	ctx := p.link.Context()
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.updKick:
		}
		p.updMu.Lock()
		uris := p.updQueue
		p.updQueue = nil
		clear(p.updSet)
		p.updMu.Unlock()
		for _, uri := range uris {
			dctx, cancel := context.WithTimeout(ctx, proxyDeliveryTimeout)
			if err := p.notifyUpdated(dctx, uri); err != nil {
				p.logger.Debug("proxy: resource update not passed on", "uri", uri, "error", err)
			}
			cancel()
		}
	}
}

// proxyUnsubscribeTimeout bounds the unsubscribing from the backend of a
// subscriber that ended.
const proxyUnsubscribeTimeout = 5 * time.Second

// ServeRequest passes a request of the backend (sampling, elicitation,
// roots) to the caller of the call it was made for, and returns the
// caller's answer. ok is false when no call can be found for it.
func (p *proxyBackend) ServeRequest(ctx context.Context, method string, params []byte) (res any, err error, ok bool) {
	pc, _ := ctx.Value(proxyCallKey{}).(*proxyCall)
	key, modernBackend := ctx.Value(clientlink.InputKey{}).(string)
	if pc == nil {
		if pc = p.soleCall(); pc == nil {
			return nil, nil, false
		}
	}
	defer func() {
		if cerr, ok := errors.AsType[*fastmcp.CapabilityError](err); ok {
			pc.capErr.Store(cerr)
		}
	}()
	c := pc.c
	caps := c.ClientCapabilities()
	var kind string
	var ask any = json.RawMessage(jsonobj.OrEmpty(params))
	switch method {
	case protocol.MethodSamplingCreateMessage:
		kind = "sample"
		var sp struct {
			Tools      jsontext.Value `json:"tools"`
			ToolChoice jsontext.Value `json:"toolChoice"`
		}
		if err := protocol.Unmarshal(jsonobj.OrEmpty(params), &sp); err != nil {
			return nil, fmt.Errorf("%w: %v", protocol.ErrInvalidParams, err), true
		}
		switch {
		case caps.Sampling == nil:
			return nil, &fastmcp.CapabilityError{Capability: "sampling"}, true
		case (len(sp.Tools) > 0 || len(sp.ToolChoice) > 0) && caps.Sampling.Tools == nil:
			return nil, &fastmcp.CapabilityError{Capability: "sampling.tools"}, true
		}
	case protocol.MethodElicitationCreate:
		kind = "elicit"
		var ep protocol.ElicitParams
		if err := protocol.Unmarshal(jsonobj.OrEmpty(params), &ep); err != nil {
			return nil, fmt.Errorf("%w: %v", protocol.ErrInvalidParams, err), true
		}
		switch {
		case ep.Mode == protocol.ElicitModeURL && (caps.Elicitation == nil || caps.Elicitation.URL == nil || !protocol.HasURLElicitation(pc.req.Version)):
			return nil, &fastmcp.CapabilityError{Capability: "elicitation.url"}, true
		case ep.Mode != protocol.ElicitModeURL && (caps.Elicitation == nil || (caps.Elicitation.Form == nil && caps.Elicitation.URL != nil)):
			return nil, &fastmcp.CapabilityError{Capability: "elicitation"}, true
		}
		if !protocol.HasURLElicitation(pc.req.Version) {
			ep.Mode = "" // the caller's revision has form mode only, unnamed
			ask = &ep
		}
	case protocol.MethodRootsList:
		kind = "roots"
		if caps.Roots == nil {
			return nil, &fastmcp.CapabilityError{Capability: "roots"}, true
		}
	default:
		return nil, fmt.Errorf("%w: %s", protocol.ErrMethodNotFound, method), true
	}
	var answer json.RawMessage
	pc.mu.Lock()
	err = p.srv.Ask(c, kind, key, method, ask, &answer)
	pc.mu.Unlock()
	if errors.Is(err, fastmcp.ErrInputRequired) {
		pc.needInput.Store(true)
		if !modernBackend {
			// The backend waits for an answer the caller gives in its
			// next round: this run of the call ends here.
			pc.cancel()
		}
	}
	if err != nil {
		return nil, err, true
	}
	return answer, nil, true
}

// ForwardNotification passes a log message or an elicitation's
// completion of the backend to the caller of the one call in flight.
func (p *proxyBackend) ForwardNotification(method string, params []byte) {
	pc := p.soleCall()
	if pc == nil {
		p.logger.Debug("proxy: the backend's notification is not passed on: no single call in flight to pass it to", "method", method)
		return
	}
	c := pc.c
	switch method {
	case protocol.NotificationMessage:
		var lp struct {
			Level protocol.LoggingLevel `json:"level"`
		}
		if protocol.Unmarshal(params, &lp) != nil {
			return
		}
		min, ok := pc.req.LogLevel()
		if !ok || !lp.Level.AtLeast(min) {
			return
		}
	case protocol.NotificationElicitationComplete:
		if pc.req.Era.Dropped(method) {
			return // 2026-07-28 has no such notification
		}
	}
	if err := pc.req.Session.Notify(c, method, json.RawMessage(params)); err != nil {
		c.Logger().Debug("proxy: notification not passed on", "method", method, "error", err)
	}
}
