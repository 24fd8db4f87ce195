package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"sync"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// This file holds the hook through which the server side keeps the MCP
// state of a legacy session shared between replicas (HTTPOptions.Sessions)
// in the session's record, and the sending of a message to the GET
// streams of shared sessions by id. The transport knows no method that
// changes that state: the state's owner (lowlevel for logging/setLevel,
// fastmcp for resources/subscribe) records it here, and the transport
// stores the values and carries them to the other replicas without
// reading them.

// A SharedSession is what a Conn of a legacy session shared between
// replicas (HTTPOptions.Sessions) offers the server side that owns the
// session's MCP state, so that the state lives with the session, on every
// replica serving it, rather than in one replica's instance: see Shared.
//
// Its methods are safe for concurrent use. SetState keeps a copy of the
// value it is given; State and Watch hand out copies the receiver owns.
// A panic in a watcher (Watch) is not recovered.
type SharedSession interface {
	// ID returns the session's id, the same on every replica. Keep what
	// must be found again on any replica under it, not under the Conn,
	// which differs from replica to replica.
	ID() string
	// Store returns the session store holding the session's record, for
	// state kept in indexes across sessions (SessionStore.Subscribe and
	// Subscribers) rather than in the record's State.
	Store() store.SessionStore
	// State returns the member name of the session's state as this
	// replica knows it: as the record held it when this replica adopted
	// the session, then as SetState set it here or on another replica.
	// It returns nil when the member was never set.
	State(name string) json.RawMessage
	// SetState sets the member name of the session's state to value (a
	// JSON value): it writes it to the record (SessionStore.SetState),
	// for the replicas that adopt the session later, and tells the other
	// replicas serving the session now, which hand it to their
	// watchers (Watch). It fails with an error matching
	// store.ErrSessionUnknown when the record is gone, with the store's
	// error, or when name is empty or value is not JSON. Failing to reach
	// the other replicas is logged, not returned: those serving the
	// session now keep the value they had, those adopting it later read
	// the record.
	SetState(ctx context.Context, name string, value json.RawMessage) error
	// Watch calls f with each member of the session's state this replica
	// knows now, then with each member another replica sets with
	// SetState, for as long as the session's instance on this replica
	// lives. The calls of all the watchers of a session never overlap,
	// and come in the order the other replica set the members. f runs on
	// a goroutine of the bus (or the caller's, for the members known now)
	// and must return quickly; it may call State, not Watch.
	Watch(f func(name string, value json.RawMessage))
}

// Shared returns the SharedSession of c when c is a legacy session shared
// between replicas (HTTPOptions.Sessions); for any other Conn it reports
// false, and the server side keeps the session's state itself.
func Shared(c Conn) (SharedSession, bool) {
	s, ok := c.(*httpSession)
	if !ok || s.h.shared == nil {
		return nil, false
	}
	return sharedState{s}, true
}

// sharedState implements SharedSession for a shared httpSession.
type sharedState struct{ s *httpSession }

// stateOf is the state of a shared session: the members of its record's
// State, as this replica knows them, and the watchers of their changes.
// mu guards values and watchers; calling is held while watchers run, so
// that their calls never overlap (and a watcher may call State).
type stateOf struct {
	calling  sync.Mutex
	mu       sync.Mutex
	values   map[string]json.RawMessage
	watchers []func(string, json.RawMessage)
}

func (st sharedState) ID() string                { return st.s.id }
func (st sharedState) Store() store.SessionStore { return st.s.h.shared.store }

func (st sharedState) State(name string) json.RawMessage {
	ss := &st.s.state
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return clone(ss.values[name])
}

func (st sharedState) SetState(ctx context.Context, name string, value json.RawMessage) error {
	if name == "" || !json.Valid(value) {
		return fmt.Errorf("transport: SetState: the member %q of the session's state needs a name and a JSON value", name)
	}
	s := st.s
	sh := s.h.shared
	sctx, cancel := context.WithTimeout(ctx, storeTimeout)
	err := sh.store.SetState(sctx, s.id, name, value)
	cancel()
	if err != nil {
		return fmt.Errorf("transport: recording the session's state %q in the session store: %w", name, err)
	}
	s.state.set(name, value)
	if err := sh.publish(ctx, s.id, busMsg{Kind: busState, Name: name, Value: value}); err != nil {
		s.h.logger.Warn("telling the other replicas of an MCP session of its new state failed", "session", s.id, "state", name, "error", err)
	}
	return nil
}

func (st sharedState) Watch(f func(name string, value json.RawMessage)) {
	ss := &st.s.state
	ss.calling.Lock()
	defer ss.calling.Unlock()
	ss.mu.Lock()
	ss.watchers = append(ss.watchers, f)
	now := maps.Clone(ss.values)
	ss.mu.Unlock()
	for name, v := range now {
		f(name, clone(v))
	}
}

// set records the member name of the state, set on this replica.
func (ss *stateOf) set(name string, value json.RawMessage) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.values == nil {
		ss.values = map[string]json.RawMessage{}
	}
	ss.values[name] = clone(value)
}

// load starts the state with the members of an adopted session's record.
func (ss *stateOf) load(values map[string]json.RawMessage) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.values = maps.Clone(values)
}

// changed records the member name another replica set and hands it to
// the watchers.
func (ss *stateOf) changed(name string, value json.RawMessage) {
	ss.calling.Lock()
	defer ss.calling.Unlock()
	ss.set(name, value)
	ss.mu.Lock()
	watchers := ss.watchers
	ss.mu.Unlock()
	for _, f := range watchers {
		f(name, clone(value))
	}
}

func clone(v json.RawMessage) json.RawMessage {
	if v == nil {
		return nil
	}
	return append(json.RawMessage(nil), v...)
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

// NotifySessions sends msg, a notification, to the shared legacy sessions
// ids (SharedSession.ID), whichever replica holds each session's GET
// stream: it appends msg to each session's GET stream in the shared event
// store and wakes the replica holding the client's GET connection over
// the bus. A client that has no GET stream open gets it when it
// reconnects its GET stream with Last-Event-ID. (fastmcp sends
// notifications/resources/updated this way to the sessions the session
// store lists as subscribed to the resource.)
//
// Each call sends msg once more: call it on one replica per message. A
// handler that does not share sessions sends nothing. It returns the
// event store's errors for the sessions msg could not be stored for,
// joined.
func (h *StreamableHandler) NotifySessions(ctx context.Context, ids []string, msg protocol.Message) error {
	sh := h.shared
	if sh == nil {
		return nil
	}
	return notifySessions(ctx, sh.seq, sh.bus, h.logger, func(id string) *httpSession {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.sessions[id]
	}, ids, msg)
}

// NotifySessions does what StreamableHandler.NotifySessions does, for a
// process that sends without a handler of its own (a replica whose
// handler is not built yet, a worker that serves no requests): through
// the event store and the bus of opts (EventStore, Bus), which must be
// those the replicas' handlers share. With no Sessions it does nothing;
// an EventStore that does not number events (SequencedEventStore) is an
// error.
func NotifySessions(ctx context.Context, opts *HTTPOptions, ids []string, msg protocol.Message) error {
	if opts == nil || opts.Sessions == nil {
		return nil
	}
	seq, ok := opts.EventStore.(store.SequencedEventStore)
	if !ok {
		return fmt.Errorf("transport: NotifySessions needs the EventStore of the shared sessions, one that numbers events (store.SequencedEventStore); %T does not", opts.EventStore)
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.Default()
	}
	return notifySessions(ctx, seq, opts.Bus, logger, func(string) *httpSession { return nil }, ids, msg)
}

// notifySessions appends msg to the GET stream of each session ids,
// numbered by seq, and wakes the replica holding the client's GET
// connection: local's session, if any, and over bus.
func notifySessions(ctx context.Context, seq store.SequencedEventStore, bus store.Bus, logger *slog.Logger,
	local func(id string) *httpSession, ids []string, msg protocol.Message) error {
	if len(ids) == 0 {
		return nil
	}
	data, err := protocol.AppendMessage(nil, msg)
	if err != nil {
		return fmt.Errorf("transport: encoding message: %w", err)
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
