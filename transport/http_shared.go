package transport

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// This file holds what legacy sessions shared between replicas need
// (HTTPOptions.Sessions): the session records, adoption of a session
// another replica started, and the messages the replicas serving one
// session send each other on its bus topic.

// storeTimeout bounds one call of the session store or the bus made for a
// request (the store's own timeouts usually end it sooner).
const storeTimeout = 10 * time.Second

// errStoreDown answers a request that needed the session store (or the
// bus) when it failed.
var errStoreDown = protocol.NewError(protocol.CodeInternalError, "Service unavailable: the session store cannot be reached")

// sharing is the state of a handler whose sessions are shared.
type sharing struct {
	h     *StreamableHandler
	store store.SessionStore
	bus   store.Bus                 // nil: no messages between replicas
	seq   store.SequencedEventStore // the event store
	// replica names this handler among the replicas: it starts the ids of
	// the requests its sessions send and the names of its SSE streams.
	replica string
	ttl     time.Duration // a record's TTL; 0 when sessions never expire

	adopting map[string]chan struct{} // sessions being adopted; under h.mu
}

func newSharing(h *StreamableHandler) *sharing {
	sh := &sharing{
		h:        h,
		store:    h.opts.Sessions,
		bus:      h.opts.Bus,
		replica:  rand.Text()[:10],
		adopting: map[string]chan struct{}{},
	}
	if h.opts.SessionIdleTimeout > 0 {
		sh.ttl = h.opts.SessionIdleTimeout
	}
	seq, ok := h.store.(store.SequencedEventStore)
	if !ok {
		panic(fmt.Sprintf("transport: NewStreamableHandler: HTTPOptions.Sessions needs an EventStore that numbers events (store.SequencedEventStore, as MemoryEventStore and redisstore.EventStore do); %T does not", h.store))
	}
	sh.seq = seq
	return sh
}

// touchEvery is how often a replica refreshes the record of a session it
// serves: a busy session does not write the store on every request.
func (sh *sharing) touchEvery() time.Duration { return sh.ttl / 4 }

func sessionTopic(id string) string { return "mcp-session:" + id }

// Kinds of the messages on a session's topic.
const (
	busClosed   = "closed"   // the session was deleted: close the local instance
	busResponse = "response" // the client's answer to a request a replica sent
	busCancel   = "cancel"   // notifications/cancelled for a request running somewhere
	busState    = "state"    // a member of the session's state set (SharedSession.SetState)
	busWake     = "wake"     // events were appended to the GET stream
	busProbe    = "probe"    // does the replica running Stream's request still run it?
	busAlive    = "alive"    // the answer to a probe: it does
)

// busMsg is a message on a session's topic.
type busMsg struct {
	Kind string          `json:"k"`
	From string          `json:"from,omitempty"` // the publishing replica
	Msg  json.RawMessage `json:"m,omitempty"`    // an encoded JSON-RPC message
	// Stream names the stream a wake-up, a probe or its answer is for: a
	// request's stream that a GET on another replica follows; "" for the
	// GET stream.
	Stream string `json:"stream,omitempty"`
	// Name and Value are the member of the session's state a replica
	// set, and its value (busState).
	Name  string          `json:"n,omitempty"`
	Value json.RawMessage `json:"v,omitempty"`
}

// publish sends m on the topic of session id.
func (sh *sharing) publish(ctx context.Context, id string, m busMsg) error {
	if sh.bus == nil {
		return nil
	}
	m.From = sh.replica
	data, err := json.Marshal(&m)
	if err != nil {
		return fmt.Errorf("transport: encoding a bus message: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	return sh.bus.Publish(ctx, sessionTopic(id), data)
}

// ownsID reports whether id is the id of a request a session of this
// replica sent.
func (sh *sharing) ownsID(id protocol.ID) bool {
	if !id.IsString() {
		return false
	}
	return strings.HasPrefix(id.String(), sh.replica+"-")
}

// join subscribes s to its topic. It is called before s is visible to
// other requests.
func (sh *sharing) join(ctx context.Context, s *httpSession) error {
	if sh.bus == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	unsub, err := sh.bus.Subscribe(ctx, sessionTopic(s.id), s.onBus)
	if err != nil {
		return fmt.Errorf("transport: subscribing to the session's topic: %w", err)
	}
	s.unsubscribe = unsub
	return nil
}

// find returns the session sid of principal for a request, adopting it
// from the session store when this replica does not serve it yet. When
// there is none it answers 404 (503 when the store cannot be reached, or
// the session limit is reached) and returns nil.
func (h *StreamableHandler) find(w http.ResponseWriter, r *http.Request, id protocol.ID, sid, principal string) *httpSession {
	sess, err := h.lookup(r.Context(), sid, principal)
	switch {
	case errors.Is(err, errSessionLimit):
		h.refuseSession(w, id)
	case errors.Is(err, ErrClosed):
		writeJSONError(w, http.StatusServiceUnavailable, id, errShuttingDown)
	case err != nil:
		h.logger.Error("serving a shared MCP session failed", "session", sid, "error", err)
		writeJSONError(w, http.StatusServiceUnavailable, id, errStoreDown)
	case sess == nil:
		// Another caller's session is answered as one that does not exist.
		writeJSONError(w, http.StatusNotFound, id, errNoSession)
	default:
		return sess
	}
	return nil
}

// adopt returns the local instance of the shared session id, creating it
// from the session store's record when there is none: one instance however
// many requests for it arrive at once. It returns nil when the store has
// no record of id or the record is another principal's.
func (sh *sharing) adopt(ctx context.Context, id, principal string) (*httpSession, error) {
	h := sh.h
	for {
		h.mu.Lock()
		if s := h.sessions[id]; s != nil {
			h.mu.Unlock()
			if !samePrincipal(s.principal, principal) {
				return nil, nil
			}
			return s, nil
		}
		wait := sh.adopting[id]
		if wait == nil {
			break // still locked
		}
		h.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	done := make(chan struct{})
	sh.adopting[id] = done
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(sh.adopting, id)
		h.mu.Unlock()
		close(done)
	}()

	gctx, cancel := context.WithTimeout(ctx, storeTimeout)
	rec, err := sh.store.Get(gctx, id)
	cancel()
	if errors.Is(err, store.ErrSessionUnknown) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("transport: looking the session up: %w", err)
	}
	if rec.ID != id || !samePrincipal(rec.Principal, principal) {
		return nil, nil
	}
	s := h.makeSession(id, principal)
	s.version = rec.Version
	s.state.load(rec.State)
	s.touched = time.Now()
	if err := sh.join(ctx, s); err != nil {
		return nil, err
	}
	if err := h.register(s); err != nil {
		s.leave()
		return nil, err
	}
	h.logger.Debug("adopted MCP session from the session store", "session", id)
	h.connect(s, ConnInfo{
		SessionID:       id,
		Principal:       principal,
		RequestIDPrefix: sh.replica + "-",
		Adopted:         &AdoptedSession{Version: rec.Version, InitializeParams: rec.InitializeParams},
	})
	return s, nil
}

// refresh tells the store that s is active, at most every touchEvery. It
// returns ErrSessionUnknown when the record is gone (the session was
// deleted or expired on every replica); a store failure is only logged:
// the session goes on being served here.
func (s *httpSession) refresh(ctx context.Context) error {
	sh := s.h.shared
	every := sh.touchEvery()
	if every <= 0 {
		return nil
	}
	now := time.Now()
	s.mu.Lock()
	due := now.Sub(s.touched) >= every && !s.initID.IsValid()
	if due {
		s.touched = now
	}
	s.mu.Unlock()
	if !due {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	err := sh.store.Touch(ctx, s.id, now, sh.ttl)
	if err != nil && !errors.Is(err, store.ErrSessionUnknown) {
		s.h.logger.Warn("refreshing the MCP session's record failed", "session", s.id, "error", err)
		return nil
	}
	return err
}

// record stores the record of a new shared session once its initialize
// succeeded, before the answer leaves, so that the client's next request
// finds it on any replica. It returns the response to send: resp, or an
// error when the record could not be written (the session then ends).
func (s *httpSession) record(ctx context.Context, resp *protocol.Response) *protocol.Response {
	s.mu.Lock()
	params := s.initParams
	s.initID, s.initParams = protocol.ID{}, nil
	version := s.version
	s.mu.Unlock()
	if resp.Error != nil || version == "" {
		return resp
	}
	sh := s.h.shared
	now := time.Now()
	rec := &store.SessionRecord{ID: s.id, Principal: s.principal, Version: version, InitializeParams: params, Created: now, LastActive: now}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	if err := sh.store.Create(ctx, rec, sh.ttl); err != nil {
		s.h.logger.Error("recording a new MCP session in the session store failed", "session", s.id, "error", err)
		s.SetProtocolVersion("") // the POST ends the session
		return &protocol.Response{ID: resp.ID, Error: errStoreDown}
	}
	s.mu.Lock()
	s.touched = now
	s.mu.Unlock()
	return resp
}

// terminate ends a shared session everywhere (DELETE): its record, its
// stored events, and its instances on every replica.
func (s *httpSession) terminate(ctx context.Context) error {
	sh := s.h.shared
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	if err := sh.store.Delete(ctx, s.id); err != nil {
		return fmt.Errorf("transport: deleting the session's record: %w", err)
	}
	if err := sh.publish(ctx, s.id, busMsg{Kind: busClosed}); err != nil {
		// Its other instances end when they next refresh the record.
		s.h.logger.Warn("telling the other replicas that an MCP session ended failed", "session", s.id, "error", err)
	}
	if err := s.h.store.DeleteSession(ctx, s.id); err != nil {
		s.h.logger.Warn("deleting stored SSE events failed", "session", s.id, "error", err)
	}
	s.Close()
	return nil
}

// leave ends the subscription of s to its topic.
func (s *httpSession) leave() {
	if s.unsubscribe != nil {
		s.unsubscribe()
	}
}

// onBus handles a message on the session's topic. It runs on a goroutine
// of the bus.
func (s *httpSession) onBus(data []byte) {
	sh := s.h.shared
	var m busMsg
	if err := json.Unmarshal(data, &m); err != nil {
		s.h.logger.Warn("ignoring a malformed message on an MCP session's topic", "session", s.id, "error", err)
		return
	}
	switch m.Kind {
	case busClosed:
		if m.From != sh.replica {
			s.h.logger.Debug("MCP session ended on another replica", "session", s.id)
			s.Close()
		}
	case busWake:
		if m.Stream == "" {
			s.standalone.wake()
			return
		}
		s.mu.Lock()
		st := s.followers[m.Stream]
		s.mu.Unlock()
		if st != nil {
			st.wake()
		}
	case busProbe:
		if s.running(m.Stream) {
			if err := sh.publish(context.Background(), s.id, busMsg{Kind: busAlive, Stream: m.Stream}); err != nil {
				s.h.logger.Warn("answering a probe of a followed MCP stream failed", "session", s.id, "stream", m.Stream, "error", err)
			}
		}
	case busAlive:
		s.mu.Lock()
		st := s.followers[m.Stream]
		s.mu.Unlock()
		if st != nil {
			select {
			case st.alive <- struct{}{}:
			default: // one is pending already
			}
		}
	case busResponse:
		msg, err := protocol.DecodeMessage(m.Msg)
		if resp, ok := msg.(*protocol.Response); err == nil && ok && sh.ownsID(resp.ID) {
			s.deliver(context.Background(), resp)
		}
	case busCancel:
		if m.From == sh.replica {
			return
		}
		msg, err := protocol.DecodeMessage(m.Msg)
		req, ok := msg.(*protocol.Request)
		if err != nil || !ok {
			return
		}
		if id, ok := cancelledID(req); ok && s.hasStream(id) {
			req.Extra = &HTTPRequestInfo{SessionID: s.id, Principal: s.principal, Context: context.Background()}
			if s.deliver(context.Background(), req) {
				s.cancelStream(id)
			}
		}
	case busState:
		if m.From != sh.replica && m.Name != "" {
			s.state.changed(m.Name, m.Value)
		}
	}
}

// cancelledID returns the request a notifications/cancelled names.
func cancelledID(req *protocol.Request) (protocol.ID, bool) {
	if req.Method != protocol.NotificationCancelled {
		return protocol.ID{}, false
	}
	var p protocol.CancelledParams
	if protocol.Unmarshal(req.Params, &p) != nil || !p.RequestID.IsValid() {
		return protocol.ID{}, false
	}
	return p.RequestID, true
}

func (s *httpSession) hasStream(id protocol.ID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.streams[id] != nil
}

// publishMessage sends msg on the session's topic as a message of kind.
func (s *httpSession) publishMessage(ctx context.Context, kind string, msg protocol.Message) {
	raw, err := protocol.AppendMessage(nil, msg)
	if err == nil {
		err = s.h.shared.publish(ctx, s.id, busMsg{Kind: kind, Msg: raw})
	}
	if err != nil {
		s.h.logger.Warn("telling the other replicas of an MCP session failed", "session", s.id, "kind", kind, "error", err)
	}
}

// initialized reports whether id is the initialize request of a new
// shared session whose record is not written yet.
func (s *httpSession) initialized(id protocol.ID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.initID.IsValid() && id == s.initID
}

// sendShared appends an event to the GET stream of a shared session,
// numbered by the event store, and wakes the replica holding the client's
// GET connection (this one or another), which takes it from the store.
// It owns buf.
func (st *stream) sendShared(ctx context.Context, buf *[]byte) error {
	s := st.sess
	sh := s.h.shared
	_, err := sh.seq.AppendNext(ctx, s.id, st.name, *buf)
	putBuf(buf)
	if err != nil {
		s.h.logger.Warn("storing SSE event failed: the message is lost", "session", s.id, "stream", st.name, "error", err)
		return nil
	}
	st.wake()
	if err := sh.publish(ctx, s.id, busMsg{Kind: busWake}); err != nil {
		s.h.logger.Warn("waking the replica holding an MCP session's GET stream failed", "session", s.id, "error", err)
	}
	return nil
}

// wake tells the connection attached to the GET stream of a shared
// session, if any, to look for new events in the store.
func (st *stream) wake() {
	st.mu.Lock()
	sk := st.live
	st.mu.Unlock()
	if sk != nil && sk.wake != nil {
		select {
		case sk.wake <- struct{}{}:
		default: // a wake-up is pending already
		}
	}
}

// IsBroadcast reports whether ctx was marked by WithBroadcast.
func IsBroadcast(ctx context.Context) bool {
	b, _ := ctx.Value(broadcastKey{}).(bool)
	return b
}

type broadcastKey struct{}

// WithBroadcast returns a ctx saying that the message written with it is
// an announcement that every replica of the server sends to every session
// it serves (a list change, as lowlevel.Server.Broadcast sends). A session
// shared between replicas (HTTPOptions.Sessions) sends such a message only
// from the replica holding the client's GET stream, so that the client
// gets it once; while the client has no GET stream open it is dropped.
func WithBroadcast(ctx context.Context) context.Context {
	return context.WithValue(ctx, broadcastKey{}, true)
}

// foreign reports whether name is the name of a request stream another
// replica serving the shared session opened.
func (s *httpSession) foreign(name string) bool {
	sh := s.h.shared
	if sh == nil || sh.bus == nil || name == s.standalone.name {
		return false
	}
	i := strings.LastIndexByte(name, '-')
	return i > 0 && name[:i] != sh.replica
}

// wakeFollower tells the replica where a client resumed the stream name
// of s, if any, that an event was stored on it.
func (s *httpSession) wakeFollower(ctx context.Context, name string) {
	if err := s.h.shared.publish(ctx, s.id, busMsg{Kind: busWake, Stream: name}); err != nil {
		s.h.logger.Warn("waking the replica following an MCP stream failed", "session", s.id, "stream", name, "error", err)
	}
}

// follow answers a GET resuming the stream name of a request that another
// replica serves: the events stored after `after`, then each event that
// replica stores, as it wakes this one, until the request's answer. When
// the store holds no answer yet, it first asks that replica whether it
// still runs the request (a probe on the bus), and again whenever the
// stream stays quiet for a while (see HTTPOptions.ProbeTimeout): a
// request no replica runs any more (the replica died, or the request was
// cancelled) gets 410 Gone, or its stream ends, rather than a connection
// that waits for an answer that never comes.
func (h *StreamableHandler) follow(w http.ResponseWriter, r *http.Request, sess *httpSession, name string, after int64) {
	st := &stream{sess: sess, name: name, resumable: true, follow: true, alive: make(chan struct{}, 1)}
	sess.mu.Lock()
	if sess.followers == nil {
		sess.followers = map[string]*stream{}
	}
	old := sess.followers[name]
	sess.followers[name] = st
	sess.mu.Unlock()
	if old != nil {
		old.unfollow() // the client resumed again: the older connection ends
	}
	defer func() {
		sess.mu.Lock()
		if sess.followers[name] == st {
			delete(sess.followers, name)
		}
		sess.mu.Unlock()
	}()
	sk, pre, _, err := st.attach(r.Context(), after, false)
	switch {
	case errors.Is(err, errStreamLimit):
		h.refuseStream(w, protocol.ID{})
		return
	case err != nil:
		writeJSONError(w, http.StatusInternalServerError, protocol.ID{}, protocol.Errorf(protocol.CodeInternalError, "Internal error: replaying events: %v", err))
		return
	}
	defer st.detach(sk)
	answered := false
	for i := range pre {
		pre[i].final = isAnswer(*pre[i].data)
		answered = answered || pre[i].final
	}
	if !answered && !h.runs(r.Context(), sess, st, sk) {
		for _, ev := range pre {
			putBuf(ev.data)
		}
		if r.Context().Err() == nil {
			h.logger.Warn("resumed MCP stream is gone: no replica runs its request", "session", sess.id, "stream", name)
			writeJSONError(w, http.StatusGone, protocol.ID{}, errStreamGone)
		}
		return
	}
	setSSEHeaders(w)
	w.WriteHeader(http.StatusOK)
	out := getBuf()
	defer putBuf(out)
	h.pump(w, r, sess, st, sk, out, pre, false)
}

// errStreamGone answers (410) a GET resuming the stream of a request that
// no replica runs any more.
var errStreamGone = protocol.NewError(protocol.CodeInvalidRequest, "Gone: the request of this stream is no longer running and its answer was not stored; send the request again")

// runs reports whether the replica running the request of the followed
// stream st still runs it: it answers a probe within ProbeTimeout, or
// stores an event on the stream meanwhile. Without either, a last look in
// the store finds the answer of a request that ended at that moment.
func (h *StreamableHandler) runs(ctx context.Context, sess *httpSession, st *stream, sk *sink) bool {
	// attach left a wake-up for pump to look past the replay; pump gets
	// one again below, so that a wake-up here means a stored event.
	select {
	case <-sk.wake:
	default:
	}
	defer func() {
		select {
		case sk.wake <- struct{}{}:
		default:
		}
	}()
	sess.probe(ctx, st.name)
	t := time.NewTimer(h.opts.ProbeTimeout)
	defer t.Stop()
	select {
	case <-st.alive:
		return true
	case <-sk.wake:
		return true
	case <-ctx.Done():
		return false
	case <-t.C:
	}
	evs, err := sess.replay(ctx, st.name, sk.after)
	answered := false
	for _, ev := range evs {
		answered = answered || isAnswer(*ev.data)
		putBuf(ev.data)
	}
	return err == nil && answered
}

// probe asks the replica running the request of stream name whether it
// still runs it.
func (s *httpSession) probe(ctx context.Context, name string) {
	if err := s.h.shared.publish(ctx, s.id, busMsg{Kind: busProbe, Stream: name}); err != nil {
		s.h.logger.Warn("probing the replica running a followed MCP stream failed", "session", s.id, "stream", name, "error", err)
	}
}

// running reports whether this replica runs the request of the stream
// name of s (the answer is not sent yet).
func (s *httpSession) running(name string) bool {
	if !strings.HasPrefix(name, s.h.shared.replica+"-") {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byName[name] != nil
}

// unfollow ends the connection following st.
func (st *stream) unfollow() {
	st.mu.Lock()
	sk := st.live
	st.live = nil
	st.mu.Unlock()
	if sk != nil {
		sk.halt(false)
	}
}

// isAnswer reports whether data, an event of a request's stream, is the
// answer that ends it: a response, or a batch of them.
func isAnswer(data []byte) bool {
	m, err := protocol.DecodeMessage(data)
	if err != nil {
		return false
	}
	switch m := m.(type) {
	case *protocol.Response:
		return true
	case *protocol.Batch:
		for _, e := range m.Messages {
			if _, ok := e.(*protocol.Response); !ok {
				return false
			}
		}
		return true
	}
	return false
}
