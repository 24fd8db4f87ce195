package transport

import (
	"context"
	"errors"
	"fmt"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// This file holds the resources/subscribe subscriptions of legacy sessions
// shared between replicas (HTTPOptions.Sessions). They live in the session
// store, not in a replica: the subscription outlives the replica that took
// it, and an update is appended to each subscribed session's GET stream
// in the shared event store by the one replica that announces it, which
// finds the sessions through the store's index (SessionStore.Subscribers).
// The replica holding the client's GET connection, whichever it is, takes
// the event from the store; a client that reconnects its GET stream with
// Last-Event-ID gets what it missed. One replica writes each update once:
// the client gets it once.

// SubscribeShared records in the session store that the client of c
// subscribed to updates of uri (resources/subscribe), when c is a legacy
// session shared between replicas (HTTPOptions.Sessions): the
// subscription then lives as long as the session, on every replica, and
// StreamableHandler.NotifySubscribers on any replica reaches it. It
// reports whether c is such a session; for any other Conn it does nothing
// and reports false, and the server keeps the subscription itself.
//
// It fails with an error matching ErrSessionUnknown when the session's
// record is gone (the session was deleted or expired), or with the
// store's error.
func SubscribeShared(ctx context.Context, c Conn, uri string) (bool, error) {
	s, ok := c.(*httpSession)
	if !ok || s.h.shared == nil {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	if err := s.h.shared.store.Subscribe(ctx, s.id, uri); err != nil {
		return true, fmt.Errorf("transport: recording the subscription in the session store: %w", err)
	}
	return true, nil
}

// UnsubscribeShared removes a subscription SubscribeShared recorded
// (resources/unsubscribe). It reports whether c is a shared session, as
// SubscribeShared does; a subscription that does not exist is not an
// error.
func UnsubscribeShared(ctx context.Context, c Conn, uri string) (bool, error) {
	s, ok := c.(*httpSession)
	if !ok || s.h.shared == nil {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	if err := s.h.shared.store.Unsubscribe(ctx, s.id, uri); err != nil {
		return true, fmt.Errorf("transport: removing the subscription from the session store: %w", err)
	}
	return true, nil
}

// SharesSessions reports whether h shares its legacy sessions with other
// replicas through a session store (HTTPOptions.Sessions).
func (h *StreamableHandler) SharesSessions() bool { return h.shared != nil }

// SessionStore returns the session store h shares its sessions through
// (HTTPOptions.Sessions), or nil.
func (h *StreamableHandler) SessionStore() SessionStore {
	if h.shared == nil {
		return nil
	}
	return h.shared.store
}

// NotifySubscribers sends msg (notifications/resources/updated) to every
// shared legacy session whose client subscribed to uri (SubscribeShared),
// whichever replica took the subscription and whichever holds the
// session's GET stream: it appends msg to each session's GET stream in the
// shared event store and wakes the replica holding the client's GET
// connection over the bus. A client that has no GET stream open gets it
// when it reconnects its GET stream with Last-Event-ID.
//
// Call it on one replica per update (the one announcing it), and on one
// handler per session store: each call sends msg once more. A handler
// that does not share sessions sends nothing. It returns the store's error
// when the subscribers cannot be read, and the event store's errors for
// the sessions msg could not be stored for, joined.
func (h *StreamableHandler) NotifySubscribers(ctx context.Context, uri string, msg protocol.Message) error {
	sh := h.shared
	if sh == nil {
		return nil
	}
	data, err := protocol.AppendMessage(nil, msg)
	if err != nil {
		return fmt.Errorf("transport: encoding message: %w", err)
	}
	sctx, cancel := context.WithTimeout(ctx, storeTimeout)
	ids, err := sh.store.Subscribers(sctx, uri)
	cancel()
	if err != nil {
		return fmt.Errorf("transport: reading the subscribers of %s from the session store: %w", uri, err)
	}
	var errs []error
	for _, id := range ids {
		if err := sh.appendGET(ctx, id, data); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// appendGET appends data to the GET stream of the shared session id,
// numbered by the event store, and wakes the replica holding the client's
// GET connection, this one or another.
func (sh *sharing) appendGET(ctx context.Context, id string, data []byte) error {
	actx, cancel := context.WithTimeout(ctx, storeTimeout)
	_, err := sh.seq.AppendNext(actx, id, standaloneStream, data)
	cancel()
	if err != nil {
		sh.h.logger.Warn("storing SSE event failed: the message is lost", "session", id, "stream", standaloneStream, "error", err)
		return fmt.Errorf("transport: storing an event of session %s: %w", id, err)
	}
	sh.h.mu.Lock()
	s := sh.h.sessions[id]
	sh.h.mu.Unlock()
	if s != nil {
		s.standalone.wake()
	}
	if err := sh.publish(ctx, id, busMsg{Kind: busWake}); err != nil {
		sh.h.logger.Warn("waking the replica holding an MCP session's GET stream failed", "session", id, "error", err)
	}
	return nil
}
