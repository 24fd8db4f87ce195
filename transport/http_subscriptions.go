package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
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
// SubscribeShared does, and whether the session was subscribed to uri; a
// subscription that does not exist is not an error.
func UnsubscribeShared(ctx context.Context, c Conn, uri string) (shared, removed bool, err error) {
	s, ok := c.(*httpSession)
	if !ok || s.h.shared == nil {
		return false, false, nil
	}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	removed, err = s.h.shared.store.Unsubscribe(ctx, s.id, uri)
	if err != nil {
		return true, false, fmt.Errorf("transport: removing the subscription from the session store: %w", err)
	}
	return true, removed, nil
}

// SharedSessionID returns the id of the session of c when c is a legacy
// session shared between replicas (HTTPOptions.Sessions), the same on
// every replica; for any other Conn it reports false. Servers key what
// they keep for a shared session by it rather than by the Conn, which
// differs from replica to replica.
func SharedSessionID(c Conn) (string, bool) {
	s, ok := c.(*httpSession)
	if !ok || s.h.shared == nil {
		return "", false
	}
	return s.id, true
}

// SharesSessions reports whether h shares its legacy sessions with other
// replicas through a session store (HTTPOptions.Sessions).
func (h *StreamableHandler) SharesSessions() bool { return h.shared != nil }

// SessionStore returns the session store h shares its sessions through
// (HTTPOptions.Sessions), or nil.
func (h *StreamableHandler) SessionStore() store.SessionStore {
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
	return notifySubscribers(ctx, sh.store, sh.seq, sh.bus, h.logger, func(id string) *httpSession {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.sessions[id]
	}, uri, msg)
}

// NotifySubscribers does what StreamableHandler.NotifySubscribers does,
// for a process that announces updates without a handler of its own (a
// replica whose handler is not built yet, a worker that serves no
// requests): through the session store, the event store and the bus of
// opts (Sessions, EventStore, Bus), which must be those the replicas'
// handlers share. With no Sessions it does nothing; an EventStore that
// does not number events (SequencedEventStore) is an error.
func NotifySubscribers(ctx context.Context, opts *HTTPOptions, uri string, msg protocol.Message) error {
	if opts == nil || opts.Sessions == nil {
		return nil
	}
	seq, ok := opts.EventStore.(store.SequencedEventStore)
	if !ok {
		return fmt.Errorf("transport: NotifySubscribers needs the EventStore of the shared sessions, one that numbers events (store.SequencedEventStore); %T does not", opts.EventStore)
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.Default()
	}
	return notifySubscribers(ctx, opts.Sessions, seq, opts.Bus, logger, func(string) *httpSession { return nil }, uri, msg)
}

// notifySubscribers appends msg to the GET stream of each session of store
// subscribed to uri, numbered by seq, and wakes the replica holding the
// client's GET connection: local's session, if any, and over bus.
func notifySubscribers(ctx context.Context, store store.SessionStore, seq store.SequencedEventStore, bus store.Bus, logger *slog.Logger,
	local func(id string) *httpSession, uri string, msg protocol.Message) error {
	data, err := protocol.AppendMessage(nil, msg)
	if err != nil {
		return fmt.Errorf("transport: encoding message: %w", err)
	}
	sctx, cancel := context.WithTimeout(ctx, storeTimeout)
	ids, err := store.Subscribers(sctx, uri)
	cancel()
	if err != nil {
		return fmt.Errorf("transport: reading the subscribers of %s from the session store: %w", uri, err)
	}
	wake, err := json.Marshal(&busMsg{Kind: busWake})
	if err != nil {
		return fmt.Errorf("transport: encoding a bus message: %w", err)
	}
	var errs []error
	for _, id := range ids {
		actx, cancel := context.WithTimeout(ctx, storeTimeout)
		_, err := seq.AppendNext(actx, id, standaloneStream, data)
		if err != nil {
			cancel()
			logger.Warn("storing SSE event failed: the message is lost", "session", id, "stream", standaloneStream, "error", err)
			errs = append(errs, fmt.Errorf("transport: storing an event of session %s: %w", id, err))
			continue
		}
		if s := local(id); s != nil {
			s.standalone.wake()
		}
		if bus != nil {
			if err := bus.Publish(actx, sessionTopic(id), wake); err != nil {
				logger.Warn("waking the replica holding an MCP session's GET stream failed", "session", id, "error", err)
			}
		}
		cancel()
	}
	return errors.Join(errs...)
}
