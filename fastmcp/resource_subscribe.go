package fastmcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// subscriptions records which legacy sessions subscribed to which resource
// URIs with resources/subscribe. A session's entry is dropped when the
// session ends.
type subscriptions struct {
	mu sync.Mutex
	by map[*session.Session]map[string]struct{}
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
// With the Bus option the update is published and every replica tells its
// own subscribers; the error is then the bus's when it could not take the
// update (this replica's subscribers are told all the same), and failures
// to reach a session are logged by the replica holding it.
func (s *Server) NotifyResourceUpdated(ctx context.Context, uri string) error {
	up := s.resourceUpdatedUp(ctx, uri) // the servers s is mounted on
	if s.bus.bus != nil {
		return errors.Join(s.announce(ctx, busNotice{Method: protocol.NotificationResourcesUpdated, URI: uri}), up)
	}
	err := s.resources.subs.notify(ctx, uri)
	s.notifyListenersResourceUpdated(uri)
	return errors.Join(err, up)
}

// subscribe serves resources/subscribe (legacy revisions): uri must name a
// static resource or match a template.
func (s *Server) subscribe(ctx context.Context, req *lowlevel.Request) (any, error) {
	var p protocol.SubscribeParams
	if err := protocol.Unmarshal(orEmptyObject(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: resources/subscribe: %v", protocol.ErrInvalidParams, err)
	}
	if p.URI == "" {
		return nil, fmt.Errorf("%w: resources/subscribe: missing uri", protocol.ErrInvalidParams)
	}
	if err := s.authorize(req, s.resourceScopes(p.URI)); err != nil {
		return nil, err
	}
	if err := s.subscribeMounted(ctx, p.URI, req.Modern); err != nil {
		return nil, proxiedError(err)
	}
	s.resources.subs.add(req.Session, p.URI)
	return nil, nil
}

// unsubscribe serves resources/unsubscribe (legacy revisions). Forgetting
// a URI that was not subscribed to is not an error.
func (s *Server) unsubscribe(ctx context.Context, req *lowlevel.Request) (any, error) {
	var p protocol.UnsubscribeParams
	if err := protocol.Unmarshal(orEmptyObject(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: resources/unsubscribe: %v", protocol.ErrInvalidParams, err)
	}
	if p.URI == "" {
		return nil, fmt.Errorf("%w: resources/unsubscribe: missing uri", protocol.ErrInvalidParams)
	}
	if slices.Contains(s.resources.subs.subscribers(p.URI), req.Session) {
		s.resources.subs.remove(req.Session, p.URI)
		if err := s.unsubscribeMounted(ctx, p.URI); err != nil {
			return nil, proxiedError(err)
		}
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
		if _, ok := t.tmpl.match(uri); ok {
			return true
		}
	}
	return false
}
