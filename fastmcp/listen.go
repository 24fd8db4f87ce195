package fastmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// listeners are the open subscriptions/listen streams of modern
// (2026-07-28) clients, process-wide: a change notification goes to every
// stream that asked for its kind.
type listeners struct {
	mu    sync.Mutex
	set   map[*listener]struct{}
	ended map[*endRule]struct{} // listens matching one of these end at once (shutdown)
}

// endRule selects the listens a shutdown ends.
type endRule struct{ match func(*listener) bool }

type listener struct {
	ctx    context.Context // the listen request's context: it routes writes to its stream
	req    *session.Request
	filter protocol.SubscriptionFilter
	stop   chan struct{} // closed by end: the stream ends with its result

	// ack is held while the acknowledgment is written: a listener is
	// registered before its acknowledgment goes out (a change right after
	// it is not lost), and no notification overtakes it.
	ack sync.Mutex
}

// add registers ln, unless a shutdown already ended listens like it; it
// reports whether ln was added.
func (l *listeners) add(ln *listener) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for r := range l.ended {
		if r.match(ln) {
			return false
		}
	}
	l.set[ln] = struct{}{}
	return true
}

func (l *listeners) remove(ln *listener) {
	l.mu.Lock()
	delete(l.set, ln)
	l.mu.Unlock()
}

// end ends the open listens that match, each with its final result, and
// makes later ones that match end at once, until the returned function is
// called.
func (l *listeners) end(match func(*listener) bool) (undo func()) {
	r := &endRule{match}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended == nil {
		l.ended = map[*endRule]struct{}{}
	}
	l.ended[r] = struct{}{}
	undo = func() {
		l.mu.Lock()
		delete(l.ended, r)
		l.mu.Unlock()
	}
	for ln := range l.set {
		if match(ln) {
			close(ln.stop)
			delete(l.set, ln)
		}
	}
	return undo
}

// ErrStreamNotClosable is returned by Context.CloseStream when the request
// did not arrive on a transport with per-request streams that can resume.
var ErrStreamNotClosable = errors.New("fastmcp: this request's transport has no resumable stream to close")

// CloseStream ends the HTTP response stream carrying this request's
// messages without ending the request (SEP-1699): the client reconnects and
// resumes the stream, receiving what was sent meanwhile, including the
// result. Use it for long calls behind proxies that cut idle connections.
// It needs a legacy Streamable HTTP session with resumability; otherwise it
// returns ErrStreamNotClosable.
func (c *Context) CloseStream() error {
	sc, ok := c.req.Session.Conn().(interface{ CloseStream(protocol.ID) error })
	if !ok || c.req.Era.Stateless() {
		return ErrStreamNotClosable
	}
	return sc.CloseStream(c.req.ID)
}

// NotifyToolsChanged tells connected clients that the tool list changed
// (notifications/tools/list_changed), for tools whose availability changes
// without registering or removing them. Tool and RemoveTool notify on
// their own. With a shared bus (Stores.Bus) the clients of every replica are told.
func (s *Server) NotifyToolsChanged() { s.announceListChanged(protocol.NotificationToolsListChanged) }

// NotifyPromptsChanged tells connected clients that the prompt list
// changed (notifications/prompts/list_changed). With a shared bus (Stores.Bus) the
// clients of every replica are told.
func (s *Server) NotifyPromptsChanged() {
	s.announceListChanged(protocol.NotificationPromptsListChanged)
}

// NotifyResourcesChanged tells connected clients that the resource list
// changed (notifications/resources/list_changed). With a shared bus (Stores.Bus) the
// clients of every replica are told.
func (s *Server) NotifyResourcesChanged() {
	s.announceListChanged(protocol.NotificationResourcesListChanged)
}

// announceListChanged tells the clients of this replica, and with a bus
// those of every replica, that a list changed. A bus that cannot take the
// announcement is logged (announce); this replica's clients are told.
func (s *Server) announceListChanged(method string) {
	if s.bus.bus == nil {
		s.notifyListChanged(method)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), busDeliveryTimeout)
	defer cancel()
	_ = s.busRun.announce(ctx, s, busNotice{Method: method}) // see busRunner
}

// notifyListChanged tells legacy sessions and modern listeners that a list
// changed, once per burst of changes (listChangedDelay), and updates the
// servers s is mounted on at once.
func (s *Server) notifyListChanged(method string) {
	if s.hasReceivers() {
		s.changes.mark(method, s.sendListChanged)
	}
	s.childChanged(method, false)
}

// hasReceivers reports whether a session or a modern listener is there to
// be told of a change now: a client that comes later lists what is there
// then, and is owed no notification of a change made before it came.
func (s *Server) hasReceivers() bool {
	for range s.ll.Sessions() {
		return true
	}
	s.listen.mu.Lock()
	defer s.listen.mu.Unlock()
	return len(s.listen.set) > 0
}

// sendListChanged sends method to legacy sessions and to the modern
// listeners that asked for its kind.
func (s *Server) sendListChanged(method string) {
	if err := s.ll.Broadcast(context.Background(), method, nil); err != nil {
		s.logger.Debug("list_changed not delivered to every session", "method", method, "error", err)
	}
	s.listen.send(method, nil, func(f *protocol.SubscriptionFilter) bool {
		switch method {
		case protocol.NotificationToolsListChanged:
			return f.ToolsListChanged
		case protocol.NotificationPromptsListChanged:
			return f.PromptsListChanged
		case protocol.NotificationResourcesListChanged:
			return f.ResourcesListChanged
		}
		return false
	})
}

// notifyListenersResourceUpdated sends notifications/resources/updated to
// the modern listeners subscribed to uri.
func (s *Server) notifyListenersResourceUpdated(uri string) {
	s.listen.send(protocol.NotificationResourcesUpdated, &protocol.ResourceUpdatedParams{URI: uri},
		func(f *protocol.SubscriptionFilter) bool { return slices.Contains(f.ResourceSubscriptions, uri) })
}

// send delivers a notification to every listener whose filter wants it,
// tagged with the listener's subscription id.
func (l *listeners) send(method string, params any, wants func(*protocol.SubscriptionFilter) bool) {
	l.mu.Lock()
	var targets []*listener
	for ln := range l.set {
		if wants(&ln.filter) {
			targets = append(targets, ln)
		}
	}
	l.mu.Unlock()
	if len(targets) == 0 {
		return
	}
	raw, err := protocol.Marshal(params)
	if err != nil || params == nil {
		raw = []byte("{}")
	}
	for _, ln := range targets {
		ln.send(method, raw)
	}
}

// send writes a notification with params raw on the listener's stream,
// tagged with its subscription id.
func (ln *listener) send(method string, raw json.RawMessage) {
	p, err := protocol.SetMeta(raw, protocol.MetaSubscriptionID, ln.req.ID)
	if err != nil {
		return
	}
	ln.ack.Lock()                                // after the acknowledgment
	_ = ln.req.Session.Notify(ln.ctx, method, p) // fails only when the stream is gone
	ln.ack.Unlock()
}

// installListen adds subscriptions/listen to the low-level table.
func (s *Server) installListen() {
	s.listen.set = map[*listener]struct{}{}
	s.ll.Handle(protocol.MethodSubscriptionsListen, lowlevel.HandlerFunc(s.serveListen))
}

// serveListen serves subscriptions/listen: it acknowledges the honoured
// filter, then forwards matching change notifications on the request's
// stream until the client goes away or the server shuts down.
func (s *Server) serveListen(ctx context.Context, req *lowlevel.Request) (any, error) {
	if req.Era != protocol.Modern {
		return nil, fmt.Errorf("%w: subscriptions/listen is part of protocol 2026-07-28; legacy sessions get change notifications on the session", protocol.ErrMethodNotFound)
	}
	var p protocol.SubscriptionsListenParams
	err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &p)
	if err != nil {
		return nil, fmt.Errorf("%w: subscriptions/listen: %v", protocol.ErrInvalidParams, err)
	}
	tasks := s.taskRuntime() // nil: no tool runs as a task here (see hooks.go)
	honoured, err := s.listenFilter(ctx, req, tasks, &p.Notifications)
	if err != nil {
		return nil, err
	}
	ack := &protocol.SubscriptionsAcknowledgedParams{
		Notifications: honoured,
		Meta:          protocol.Meta{protocol.MetaSubscriptionID: req.ID},
	}
	// The final result of a listen the server ends (2026-07-28
	// "Graceful Closure"): resultType complete, the subscription id in _meta.
	final := &protocol.SubscriptionsListenResult{Meta: protocol.Meta{protocol.MetaSubscriptionID: req.ID}, ResultType: protocol.ResultTypeComplete}
	ln := &listener{ctx: ctx, req: req, filter: honoured, stop: make(chan struct{})}
	ln.ack.Lock()
	// With a bus, the statuses of the tasks followed come through it:
	// subscribed before the acknowledgment, so none after it is missed,
	// and sent after it (ln.ack).
	if tasks != nil {
		unfollow, err := tasks.follow(ctx, s, ln)
		if err != nil {
			ln.ack.Unlock()
			return nil, err
		}
		defer unfollow()
	}
	added := s.listen.add(ln)
	if added {
		defer s.listen.remove(ln)
		if s.proxy != nil || len(s.mountedChildren()) > 0 {
			// A proxy's backend (or a mounted one's) must report the
			// updates of the resources followed.
			// A URI the backend refuses is left out of the
			// acknowledged filter: the client learns it is not followed.
			kept := make([]string, 0, len(honoured.ResourceSubscriptions))
			for _, uri := range honoured.ResourceSubscriptions {
				added, err := s.subscribeMounted(ctx, subscriber{key: ln, life: ctx}, uri, req.Era)
				if err != nil {
					s.logger.Debug("subscriptions/listen: a resource subscription is not honoured: the backend refused it", "uri", uri, "error", err)
					continue
				}
				kept = append(kept, uri)
				if added {
					defer func() {
						uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
						defer cancel()
						_ = s.unsubscribeMounted(uctx, ln, uri)
					}()
				}
			}
			ack.Notifications.ResourceSubscriptions = kept
		}
	}
	err = req.Session.Notify(ctx, protocol.NotificationSubscriptionsAcknowledged, ack)
	ln.ack.Unlock()
	if err != nil {
		return nil, err
	}
	if !added {
		return final, nil // shutting down
	}
	return s.holdListen(ctx, req, ln, tasks, final)
}

// listenFilter returns the part of the filter f that the server honours:
// the list changes it announces, the resources the caller may read (when
// it supports subscriptions) and, with tasks, the caller's tasks.
func (s *Server) listenFilter(ctx context.Context, req *lowlevel.Request, tasks taskRunner, f *protocol.SubscriptionFilter) (protocol.SubscriptionFilter, error) {
	caps := s.ll.Capabilities()
	var honoured protocol.SubscriptionFilter
	honoured.ToolsListChanged = f.ToolsListChanged && caps.Tools != nil && caps.Tools.ListChanged
	honoured.PromptsListChanged = f.PromptsListChanged && caps.Prompts != nil && caps.Prompts.ListChanged
	honoured.ResourcesListChanged = f.ResourcesListChanged && caps.Resources != nil && caps.Resources.ListChanged
	if caps.Resources != nil && caps.Resources.Subscribe {
		honoured.ResourceSubscriptions = s.permittedURIs(req, f.ResourceSubscriptions)
	}
	if len(f.TaskIDs) > 0 {
		var err error
		switch {
		case tasks != nil:
			honoured.TaskIDs, err = tasks.listen(ctx, s, req, f.TaskIDs)
		case !declaresTasks(req.ClientCapabilities()):
			err = missingTasksExtension("notifications/tasks need it")
		}
		if err != nil {
			return protocol.SubscriptionFilter{}, err
		}
	}
	return honoured, nil
}

// holdListen keeps an acknowledged listen open until the client goes away
// (its request cancelled, its input or session ended) or the server ends
// it (final). Tasks followed whose replica dies are reported failed: now,
// and each LeaseTimeout while they run.
func (s *Server) holdListen(ctx context.Context, req *lowlevel.Request, ln *listener, tasks taskRunner, final *protocol.SubscriptionsListenResult) (any, error) {
	var (
		open       []string
		every      time.Duration
		leaseCheck <-chan time.Time
	)
	if tasks != nil {
		open, every = tasks.checkLeases(ctx, s, ln.filter.TaskIDs)
	}
	if len(open) > 0 {
		t := time.NewTicker(every)
		defer t.Stop()
		leaseCheck = t.C
	}
	for {
		select {
		case <-leaseCheck:
			if open, _ = tasks.checkLeases(ctx, s, open); len(open) == 0 {
				leaseCheck = nil
			}
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-ln.stop:
			return final, nil
		case <-req.Session.InputDone():
			// The client ended its input (closed stdin): the stream ends as at
			// shutdown, without holding the session's drain up.
			return final, nil
		case <-req.Session.Done():
			return nil, context.Cause(ctx)
		}
	}
}

// stopListeners ends every listen stream with its final result, now and
// for listens that arrive later (graceful shutdown).
func (s *Server) stopListeners() {
	s.listen.end(func(*listener) bool { return true })
}

// stopSessionListeners ends the listen streams of sess with their final
// result, and those it opens until the returned function is called (its
// graceful shutdown, which would otherwise wait for them until its
// deadline).
func (s *Server) stopSessionListeners(sess *session.Session) (undo func()) {
	return s.listen.end(func(ln *listener) bool { return ln.req.Session == sess })
}

// stopHTTPListeners ends the listen streams that arrived through h with
// their final result, and those that arrive through it until the returned
// function is called: h is shutting down, and http.Server.Shutdown would
// otherwise wait for these streams until its deadline. Listens of other
// sessions (stdio) go on.
func (s *Server) stopHTTPListeners(h *transport.StreamableHandler) (undo func()) {
	return s.listen.end(func(ln *listener) bool { return h.Owns(ln.req.Session.Conn()) })
}
