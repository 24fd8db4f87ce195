package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/transport"
)

// subscriptions records which legacy sessions subscribed to which resource
// URIs with resources/subscribe. A session's entry is dropped when the
// session ends. The subscriptions of sessions shared between replicas are
// not here but in the session store (store.SessionStore.Subscribe, reached
// through transport.Shared); shared holds the Streamable HTTP handlers that
// share sessions, which send their updates
// (transport.StreamableHandler.NotifySessions).
type subscriptions struct {
	mu     sync.Mutex
	by     map[*session.Session]map[string]struct{}
	shared []*transport.StreamableHandler
}

// share adds h, when it shares sessions, to the handlers whose sessions'
// subscriptions the server announces updates to; the returned function
// removes it.
func (s *subscriptions) share(h *transport.StreamableHandler) (remove func()) {
	if !h.SharesSessions() {
		return func() {}
	}
	s.mu.Lock()
	s.shared = append(s.shared, h)
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.shared = slices.DeleteFunc(s.shared, func(o *transport.StreamableHandler) bool { return o == h })
		s.mu.Unlock()
	}
}

// notifyShared sends notifications/resources/updated for uri to the shared
// sessions subscribed to it, through one handler per session store (each
// call appends the update once more to each session's GET stream); with
// no handler built yet, through the stores the server's options give. It
// is called on the replica that announces the update only.
func (s *Server) notifyShared(ctx context.Context, uri string) error {
	subs := &s.resources.subs
	subs.mu.Lock()
	hs := slices.Clone(subs.shared)
	subs.mu.Unlock()
	msg, err := notification(protocol.NotificationResourcesUpdated, &protocol.ResourceUpdatedParams{URI: uri})
	if err != nil {
		return err
	}
	if len(hs) == 0 {
		so := s.sharedOptions()
		if so.Sessions == nil {
			return nil
		}
		ids, err := subscribersOf(ctx, so.Sessions, uri)
		if err != nil {
			return err
		}
		return transport.NotifySessions(ctx, &so, ids, msg)
	}
	var (
		done []store.SessionStore
		errs []error
	)
	for _, h := range hs {
		st := h.SessionStore()
		if slices.ContainsFunc(done, func(o store.SessionStore) bool { return sameStore(o, st) }) {
			continue
		}
		done = append(done, st)
		ids, err := subscribersOf(ctx, st, uri)
		if err == nil {
			err = h.NotifySessions(ctx, ids, msg)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// sharedStoreTimeout bounds one call of the session store made for a
// resource subscription of a shared session (the store's own timeouts
// usually end it sooner).
const sharedStoreTimeout = 10 * time.Second

// subscribersOf returns the ids of the shared sessions st lists as
// subscribed to uri.
func subscribersOf(ctx context.Context, st store.SessionStore, uri string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, sharedStoreTimeout)
	defer cancel()
	ids, err := st.Subscribers(ctx, uri)
	if err != nil {
		return nil, fmt.Errorf("fastmcp: reading the subscribers of %s from the session store: %w", uri, err)
	}
	return ids, nil
}

// sharedOptions returns the Streamable HTTP options of the stores the
// server's handlers share sessions through: its shared stores.
func (s *Server) sharedOptions() transport.HTTPOptions {
	so := transport.HTTPOptions{Logger: s.logger}
	s.sharedHTTP(&so)
	return so
}

// sameStore reports whether a and b are one store (without comparing
// values whose type cannot be compared).
func sameStore(a, b store.SessionStore) bool {
	ta := reflect.TypeOf(a)
	return ta == reflect.TypeOf(b) && ta.Comparable() && a == b
}

// notification returns the notification method with params.
func notification(method string, params any) (*protocol.Request, error) {
	raw, err := session.EncodeParams(params)
	if err != nil {
		return nil, fmt.Errorf("fastmcp: encoding %s params: %w", method, err)
	}
	return &protocol.Request{Method: method, Params: raw}, nil
}

func (s *subscriptions) add(sess *session.Session, uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == nil {
		s.by = map[*session.Session]map[string]struct{}{}
	}
	uris, ok := s.by[sess]
	if !ok {
		uris = map[string]struct{}{}
		s.by[sess] = uris
		// No goroutine waits: the cleanup runs once, when the session ends
		// (at once if it already has).
		context.AfterFunc(sess.Context(), func() {
			s.mu.Lock()
			delete(s.by, sess)
			s.mu.Unlock()
		})
	}
	uris[uri] = struct{}{}
}

func (s *subscriptions) remove(sess *session.Session, uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.by[sess], uri)
}

// subscribers returns the sessions subscribed to uri.
func (s *subscriptions) subscribers(uri string) []*session.Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*session.Session
	for sess, uris := range s.by {
		if _, ok := uris[uri]; ok {
			out = append(out, sess)
		}
	}
	return out
}

// notify sends notifications/resources/updated for uri to each subscribed
// session.
func (s *subscriptions) notify(ctx context.Context, uri string) error {
	var errs []error
	for _, sess := range s.subscribers(uri) {
		err := sess.Notify(ctx, protocol.NotificationResourcesUpdated, &protocol.ResourceUpdatedParams{URI: uri})
		if err != nil && !errors.Is(err, session.ErrClosed) && !errors.Is(err, transport.ErrClosed) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// NotifyResourceUpdated tells the clients subscribed to uri that the
// resource changed (notifications/resources/updated), so they can read it
// again: legacy sessions that subscribed with resources/subscribe, and
// 2026-07-28 subscriptions/listen streams whose resourceSubscriptions name
// it. Only subscriptions to exactly uri count; other clients get nothing.
// It returns the errors of the legacy sessions it could not reach, joined;
// sessions and streams that ended meanwhile are skipped silently. ctx
// bounds the sending to legacy sessions.
//
// With a shared bus (Stores.Bus) the update is published and every replica tells its
// own subscribers; the error is then the bus's when it could not take the
// update (this replica's subscribers are told all the same), and failures
// to reach a session are logged by the replica holding it.
//
// Legacy sessions shared between replicas (transport.HTTPOptions.Sessions)
// keep their subscriptions in the session store: this replica, the one
// announcing, appends the update to the GET stream of each subscribed
// session in the shared event store, whichever replica took the
// subscription or holds the session now, so that each gets it once (see
// transport.StreamableHandler.NotifySessions). The errors of the
// session store and the event store are returned too.
func (s *Server) NotifyResourceUpdated(ctx context.Context, uri string) error {
	up := s.resourceUpdatedUp(ctx, uri) // the servers s is mounted on
	shared := s.notifyShared(ctx, uri)
	if shared != nil {
		s.logger.Warn("resources/updated not sent to every shared session subscribed to it", "uri", uri, "error", shared)
	}
	if s.bus.bus != nil {
		return errors.Join(s.busRun.announce(ctx, s, busNotice{Method: protocol.NotificationResourcesUpdated, URI: uri}), shared, up)
	}
	err := s.resources.subs.notify(ctx, uri)
	s.notifyListenersResourceUpdated(uri)
	return errors.Join(err, shared, up)
}

// subscribe serves resources/subscribe (legacy revisions): uri must name a
// static resource or match a template.
func (s *Server) subscribe(ctx context.Context, req *lowlevel.Request) (any, error) {
	var p protocol.SubscribeParams
	if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: resources/subscribe: %v", protocol.ErrInvalidParams, err)
	}
	if p.URI == "" {
		return nil, fmt.Errorf("%w: resources/subscribe: missing uri", protocol.ErrInvalidParams)
	}
	if !s.resourceUsable(req, p.URI) {
		return nil, errNotFound(p.URI)
	}
	if err := s.authorize(req, s.resourceScopes(p.URI)); err != nil {
		return nil, err
	}
	sub := sessionSubscriber(req.Session)
	added, err := s.subscribeMounted(ctx, sub, p.URI, req.Era)
	if err != nil {
		return nil, proxiedError(err)
	}
	sh, shared := transport.Shared(req.Session.Conn())
	if !shared {
		s.resources.subs.add(req.Session, p.URI)
		return nil, nil
	}
	// In the session store, the subscription lives as long as the session,
	// whichever replica serves it, and the replica announcing an update
	// reaches it (notifyShared).
	sctx, cancel := context.WithTimeout(ctx, sharedStoreTimeout)
	err = sh.Store().Subscribe(sctx, sh.ID(), p.URI)
	cancel()
	if err != nil {
		if added {
			// The subscription is not recorded: neither is it at the
			// backend.
			if uerr := s.unsubscribeMounted(context.WithoutCancel(ctx), sub.key, p.URI); uerr != nil {
				s.logger.Debug("proxy: backend subscription not undone", "uri", p.URI, "error", uerr)
			}
		}
		return nil, s.sessionStoreFailed("resources/subscribe", err)
	}
	return nil, nil
}

// sessionSubscriber is the subscriber a proxy (package proxy; or a server mounting one)
// records a legacy session's subscriptions under: a shared session by its
// id, any other by itself.
func sessionSubscriber(sess *session.Session) subscriber {
	if sh, ok := transport.Shared(sess.Conn()); ok {
		return subscriber{key: sharedSessionKey(sh.ID()), life: sess.Context()}
	}
	return subscriber{key: sess, life: sess.Context()}
}

// sessionStoreFailed is the error of a request of a shared session that
// the session store could not record.
func (s *Server) sessionStoreFailed(method string, err error) error {
	if errors.Is(err, store.ErrSessionUnknown) {
		return fmt.Errorf("%w: %s: the session ended", protocol.ErrInvalidRequest, method)
	}
	s.logger.Error("session store failed", "method", method, "error", err)
	return fmt.Errorf("%w: %s: the session store cannot be reached; try again later", protocol.ErrInternal, method)
}

// unsubscribe serves resources/unsubscribe (legacy revisions). Forgetting
// a URI that was not subscribed to is not an error.
func (s *Server) unsubscribe(ctx context.Context, req *lowlevel.Request) (any, error) {
	var p protocol.UnsubscribeParams
	if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: resources/unsubscribe: %v", protocol.ErrInvalidParams, err)
	}
	if p.URI == "" {
		return nil, fmt.Errorf("%w: resources/unsubscribe: missing uri", protocol.ErrInvalidParams)
	}
	if sh, shared := transport.Shared(req.Session.Conn()); shared {
		sctx, cancel := context.WithTimeout(ctx, sharedStoreTimeout)
		removed, err := sh.Store().Unsubscribe(sctx, sh.ID(), p.URI)
		cancel()
		if err != nil {
			return nil, s.sessionStoreFailed("resources/unsubscribe", err)
		}
		if !removed {
			return nil, nil // it was not subscribed: nothing to undo
		}
	} else {
		if !slices.Contains(s.resources.subs.subscribers(p.URI), req.Session) {
			return nil, nil
		}
		s.resources.subs.remove(req.Session, p.URI)
	}
	if err := s.unsubscribeMounted(ctx, sessionSubscriber(req.Session).key, p.URI); err != nil {
		return nil, proxiedError(err)
	}
	return nil, nil
}

// knownResource reports whether uri is a static resource or matches a
// template (whether or not its variables would bind).
func (s *Server) knownResource(uri string) bool {
	if _, ok := s.resources.static.get(uri); ok {
		return true
	}
	for _, t := range s.resources.orderedTemplates() {
		if t.tmpl == nil {
			continue
		}
		if _, ok := t.tmpl.Match(uri); ok {
			return true
		}
	}
	return false
}
