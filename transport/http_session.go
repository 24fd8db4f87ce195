package transport

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// This file holds the state of legacy (stateful) Streamable HTTP sessions:
// their Conn, their SSE streams, and the routing of outgoing messages.

// httpSession is the Conn of one legacy session.
type httpSession struct {
	chanConn // input from POSTs; Read
	h        *StreamableHandler
	id       string

	principal string // the caller that created the session (HTTPOptions.Principal)

	standalone *stream // stream "0": the GET stream

	mu         sync.Mutex
	version    string // negotiated revision, told by the engine (SetProtocolVersion)
	streams    map[protocol.ID]*stream
	byName     map[string]*stream
	batches    map[*protocol.Batch]*stream // the streams of batches not answered yet
	nextStream int64
	live       int // attached sinks
	lastActive time.Time

	// Shared sessions (HTTPOptions.Sessions).
	followers   map[string]*stream // streams of other replicas a GET here follows, by name
	unsubscribe func()             // ends the subscription to the session's topic
	touched     time.Time          // when this replica last refreshed the record
	initID      protocol.ID        // a new session's initialize, whose answer writes the record
	initParams  json.RawMessage    // its params
	state       stateOf            // the session's state (SharedSession)
}

// stream is one SSE stream of a session: a request's stream or the GET
// stream. Its events are numbered and, when resumable, stored.
//
// Locks: mu guards seq, live, done, ending, sse and tail. Lock order: a
// stream's mu, then the session's mu (attach); never the other way round,
// and never two streams' at once. EventStore.Append and the bus are never
// called under it (see send). Under it are only a send on the live sink's
// channel, bounded by the sink's end, the session's end and the sender's
// ctx, and attach's Replay for a resuming connection (rare: it keeps the
// replay and the live events gapless).
type stream struct {
	sess      *httpSession
	name      string // the stream's name in event ids; "" for a JSON response
	json      bool   // JSON response mode: only the response travels on it
	resumable bool

	// A batch's stream: the batch, and the ids of its calls (keys of the
	// session's streams until the batch is answered or they are
	// cancelled). Its answer is the reply to the batch.
	batch *protocol.Batch
	ids   []protocol.ID

	mu   sync.Mutex
	seq  int64 // the last sequence number taken (stored or being stored)
	live *sink
	done bool // the response was sent or the request was cancelled
	// ending says the response has taken its number and is being stored:
	// later messages are dropped, as once done.
	ending bool
	// sse says the answer is an SSE stream: the POST's response committed
	// to it (JSONWindow passed, or a message came before the response), or
	// the stream was closed for polling or resumed. Until then the
	// response, if it comes first, travels as a JSON body, unnumbered and
	// not stored.
	sse bool
	// tail is closed when the last numbered event is stored and
	// delivered; the next waits for it (see send). Nil when none was.
	tail chan struct{}

	delivered atomic.Int64 // GET stream: the last seq written to a connection

	// follow marks the stream of a request running on another replica,
	// which a client resumed here: its events come from the store. alive
	// says the replica running the request answered a probe.
	follow bool
	alive  chan struct{}
}

// sink is the consumer side of one HTTP response carrying a stream.
type sink struct {
	ch      chan outEvent
	end     chan struct{} // closed when the response ends: halted early, or done reading ch
	endOnce sync.Once
	resume  atomic.Bool // the early end is a SEP-1699 close: tell the client to come back

	// A shared session's GET stream takes its events from the event
	// store: wake says there are new ones after the seq `after`.
	wake  chan struct{}
	after int64

	// replayed is the last seq replayed from the store when the sink was
	// attached: an event being stored then may be in the replay, and is
	// not sent again.
	replayed int64
}

func newSink(n int) *sink {
	return &sink{ch: make(chan outEvent, n), end: make(chan struct{})}
}

// markGone tells senders that the response reads no more events. Only the
// response's own goroutine calls it, once it has stopped reading.
func (k *sink) markGone() { k.endOnce.Do(func() { close(k.end) }) }

// halt ends the response early. Its callers hold the stream's lock, or
// took k out of st.live under it first; senders wait on k only while
// holding that lock, so none is waiting on k when its end closes.
func (k *sink) halt(resume bool) {
	if resume {
		k.resume.Store(true)
	}
	k.endOnce.Do(func() { close(k.end) })
}

// drain returns the buffers of events left in the channel to the pool.
func (k *sink) drain() {
	for {
		select {
		case ev := <-k.ch:
			putBuf(ev.data)
		default:
			return
		}
	}
}

// standaloneStream names a session's GET stream in event ids and the
// event store.
const standaloneStream = "0"

func newSessionID() string { return rand.Text() } // 128 bits, base32: visible ASCII

// Errors of newSession and openStream/attach for the capacity limits.
var (
	errSessionLimit = errors.New("transport: session limit reached")
	errStreamLimit  = errors.New("transport: stream limit of the session reached")
)

// newSession starts a session bound to principal, created by the
// initialize request init. It fails with errSessionLimit when MaxSessions
// sessions are open (after closing those idle past their timeout), or
// ErrClosed when the handler is shutting down; a shared session (see
// HTTPOptions.Sessions) fails with the bus's error when it cannot
// subscribe to its topic.
func (h *StreamableHandler) newSession(ctx context.Context, principal string, init *protocol.Request) (*httpSession, error) {
	s := h.makeSession(newSessionID(), principal)
	info := ConnInfo{SessionID: s.id, Principal: principal}
	if sh := h.shared; sh != nil {
		s.initID, s.initParams = init.ID, append(json.RawMessage(nil), init.Params...)
		info.RequestIDPrefix = sh.replica + "-"
		if err := sh.join(ctx, s); err != nil {
			return nil, err
		}
	}
	if err := h.register(s); err != nil {
		s.leave()
		return nil, err
	}
	h.connect(s, info)
	return s, nil
}

// makeSession returns a session that is not registered yet.
func (h *StreamableHandler) makeSession(id, principal string) *httpSession {
	s := &httpSession{
		chanConn:   newChanConn(16),
		h:          h,
		id:         id,
		principal:  principal,
		streams:    map[protocol.ID]*stream{},
		byName:     map[string]*stream{},
		batches:    map[*protocol.Batch]*stream{},
		lastActive: time.Now(),
	}
	s.standalone = &stream{sess: s, name: standaloneStream, resumable: true}
	return s
}

// register makes s visible to requests. It fails with errSessionLimit
// when MaxSessions sessions are open (after closing those idle past their
// timeout), or ErrClosed when the handler is shutting down.
func (h *StreamableHandler) register(s *httpSession) error {
	h.mu.Lock()
	if limit := h.opts.MaxSessions; limit > 0 && len(h.sessions) >= limit {
		// Make room by closing sessions idle past their timeout, which
		// the sweep would close soon anyway.
		h.mu.Unlock()
		h.closeExpired()
		h.mu.Lock()
		if len(h.sessions) >= limit {
			h.mu.Unlock()
			return errSessionLimit
		}
	}
	if h.closing.Load() {
		h.mu.Unlock()
		return ErrClosed
	}
	h.sessions[s.id] = s
	if h.sweep == nil && h.opts.SessionIdleTimeout > 0 {
		h.sweep = time.AfterFunc(h.sweepInterval(), h.runSweep)
	}
	h.mu.Unlock()
	return nil
}

func (h *StreamableHandler) sweepInterval() time.Duration {
	return max(h.opts.SessionIdleTimeout/4, 10*time.Millisecond)
}

// runSweep closes idle sessions; it runs as a timer callback and re-arms
// the timer while sessions remain.
func (h *StreamableHandler) runSweep() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	list := make([]*httpSession, 0, len(h.sessions))
	for _, s := range h.sessions {
		list = append(list, s)
	}
	h.mu.Unlock()
	h.closeIdle(list)
	h.mu.Lock()
	if len(h.sessions) > 0 && !h.closed {
		h.sweep.Reset(h.sweepInterval())
	} else {
		h.sweep = nil
	}
	h.mu.Unlock()
}

// closeExpired closes the sessions idle past their timeout now, without
// waiting for the sweep.
func (h *StreamableHandler) closeExpired() {
	if h.opts.SessionIdleTimeout <= 0 {
		return
	}
	h.mu.Lock()
	list := make([]*httpSession, 0, len(h.sessions))
	for _, s := range h.sessions {
		list = append(list, s)
	}
	h.mu.Unlock()
	h.closeIdle(list)
}

// closeIdle closes the sessions of list that are idle past their timeout.
// The record of a shared session that has a stream open here is
// refreshed, so that a session only listening on its GET stream does not
// expire on the other replicas.
func (h *StreamableHandler) closeIdle(list []*httpSession) {
	now := time.Now()
	for _, s := range list {
		idle := s.idleFor(now)
		switch {
		case idle > h.opts.SessionIdleTimeout:
			h.logger.Debug("closing idle MCP session", "session", s.id)
			s.Close()
		case idle == 0 && h.shared != nil:
			if errors.Is(s.refresh(context.Background()), store.ErrSessionUnknown) {
				s.Close() // deleted, or expired on every replica
			}
		}
	}
}

// lookup returns the live session id, marked active now, or nil when there
// is none or it belongs to another principal (compared in constant time).
// A session found idle past its timeout is closed here rather than waiting
// for the sweep. A shared session (HTTPOptions.Sessions) this replica does
// not serve yet is adopted from the session store; the error is then the
// store's or the bus's, or errSessionLimit or ErrClosed.
func (h *StreamableHandler) lookup(ctx context.Context, id, principal string) (*httpSession, error) {
	h.mu.Lock()
	s := h.sessions[id]
	h.mu.Unlock()
	if s == nil && h.shared != nil {
		var err error
		if s, err = h.shared.adopt(ctx, id, principal); s == nil || err != nil {
			return nil, err
		}
	}
	if s == nil || !samePrincipal(s.principal, principal) {
		return nil, nil
	}
	if !s.touchUnlessExpired(time.Now(), h.opts.SessionIdleTimeout) {
		s.Close()
		if h.shared != nil { // idle here, perhaps not elsewhere
			return h.lookup(ctx, id, principal)
		}
		return nil, nil
	}
	if h.shared != nil {
		if err := s.refresh(ctx); errors.Is(err, store.ErrSessionUnknown) {
			s.Close() // deleted, or expired on every replica
			return nil, nil
		}
	}
	return s, nil
}

func (s *httpSession) idleFor(now time.Time) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.idleForLocked(now)
}

func (s *httpSession) idleForLocked(now time.Time) time.Duration {
	if s.live > 0 || len(s.streams) > 0 {
		return 0
	}
	return now.Sub(s.lastActive)
}

// touchUnlessExpired marks the session active at now, unless it has been
// idle for longer than timeout (when timeout is positive).
func (s *httpSession) touchUnlessExpired(now time.Time, timeout time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if timeout > 0 && s.idleForLocked(now) > timeout {
		return false
	}
	s.lastActive = now
	return true
}

// primes reports whether the session's streams start with a priming event
// (SEP-1699, from revision 2025-11-25 on).
func (s *httpSession) primes() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return protocol.PrimesStreams(s.version)
}

func (s *httpSession) negotiated() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// deliver hands an incoming message to the session engine, unless the
// session ends or ctx does first.
func (s *httpSession) deliver(ctx context.Context, m protocol.Message) bool {
	return s.put(ctx, m) == nil
}

// Write implements Conn: it routes msg to a stream (see StreamableHandler).
func (s *httpSession) Write(ctx context.Context, msg protocol.Message) error {
	if s.isClosed() {
		return ErrClosed
	}
	if b, ok := BatchReply(ctx, msg); ok {
		return s.writeBatchReply(ctx, b, msg)
	}
	resp, isResp := msg.(*protocol.Response)
	var (
		rid     protocol.ID
		related bool
	)
	if isResp {
		rid, related = resp.ID, resp.ID.IsValid()
		if s.h.shared != nil && s.initialized(resp.ID) {
			resp = s.record(ctx, resp)
			msg = resp
		}
	} else {
		rid, related = RelatedRequest(ctx)
		if !related && s.h.shared != nil && IsBroadcast(ctx) && !s.standalone.hasLive() {
			// Every replica serving the session sends it: the one
			// holding the client's GET stream delivers it.
			return nil
		}
	}
	buf := getBuf()
	b, err := protocol.AppendMessage(*buf, msg)
	if err != nil {
		putBuf(buf)
		return fmt.Errorf("transport: encoding message: %w", err)
	}
	*buf = b

	var st *stream
	s.mu.Lock()
	if related {
		st = s.streams[rid]
		if st != nil && isResp {
			delete(s.streams, rid)
			delete(s.byName, st.name)
		}
	}
	s.mu.Unlock()

	var code int64
	switch {
	case st == nil && isResp:
		// A response for a request without a stream (cancelled, or its
		// session already gone): there is nowhere to send it.
		putBuf(buf)
		return nil
	case st == nil:
		st = s.standalone
	case !isResp && (st.json || !st.hasLive() && s.standalone.hasLive()):
		st = s.standalone // the request's connection is closed; the GET stream is open
	case isResp && resp.Error != nil:
		code = resp.Error.Code
	}
	return st.send(ctx, buf, isResp, code)
}

// peekVersion reads protocolVersion from an initialize result.
// SetProtocolVersion records the revision the engine negotiated (see
// VersionedConn): it decides whether streams are primed and batches taken.
func (s *httpSession) SetProtocolVersion(v string) {
	s.mu.Lock()
	s.version = v
	s.mu.Unlock()
}

func (st *stream) hasLive() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.live != nil
}

// send stores (when resumable) and delivers one event. It owns buf.
//
// The response to a POST, when it is the first message of its stream and
// the answer has not committed to SSE (see stream.sse), goes to the
// connection as is: no number, nothing stored, and the POST answers it as
// a JSON body. Any other event of a resumable stream takes the next
// number under st.mu, then, outside the lock, waits for the event before
// it (st.tail), is appended to the event store, and is delivered under
// the lock again. So the store sees each stream's events in order and one
// at a time, a slow store holds up only that stream's senders (not the
// session, nor its other streams), and a connection gets the events in
// order, each once: attach replays what is stored and skips the rest.
func (st *stream) send(ctx context.Context, buf *[]byte, final bool, code int64) error {
	s := st.sess
	if st == s.standalone && s.h.shared != nil {
		return st.sendShared(ctx, buf)
	}
	ev := outEvent{data: buf, final: final, code: code}
	st.mu.Lock()
	if st.done || st.ending {
		st.mu.Unlock()
		putBuf(buf)
		return nil
	}
	if !st.resumable || final && !st.sse && st.live != nil {
		if final {
			st.done = true
			// Counted as answered once the response is on its way (queued
			// for the connection, or stored), so Shutdown does not cut it
			// off.
			defer s.h.callEnded()
		} else {
			st.sse = true
		}
		return st.deliverLocked(ctx, ev)
	}
	st.sse = true
	st.seq++
	ev.seq = st.seq
	st.ending = final
	prev, mine := st.tail, make(chan struct{})
	st.tail = mine
	st.mu.Unlock()
	defer close(mine)
	if prev != nil {
		<-prev // bounded: the sender before runs the same steps
	}
	if err := s.h.store.Append(ctx, s.id, st.name, ev.seq, *buf); err != nil {
		s.h.logger.Warn("storing SSE event failed", "session", s.id, "stream", st.name, "error", err)
	}
	st.mu.Lock()
	if st.done { // cancelled, or the session ended, meanwhile
		st.mu.Unlock()
		putBuf(buf)
		return nil
	}
	if final {
		st.done = true
		defer s.h.callEnded()
	}
	return st.deliverLocked(ctx, ev)
}

// deliverLocked queues ev for the connection attached to st, if any, and
// unlocks st.mu. It owns ev.data.
func (st *stream) deliverLocked(ctx context.Context, ev outEvent) error {
	s := st.sess
	sk := st.live
	if sk != nil && ev.seq > 0 && ev.seq <= sk.replayed {
		// Replayed to sk already (stored while it attached).
		if ev.final {
			sk.halt(false) // its answer is out: the stream ends
		}
		sk = nil
	}
	if sk == nil {
		follow := st.resumable && s.h.shared != nil && st.live == nil
		st.mu.Unlock()
		putBuf(ev.data)
		if follow {
			// Stored with no connection here: a GET on another replica
			// may follow the stream.
			s.wakeFollower(ctx, st.name)
		}
		if !st.resumable {
			s.h.logger.Debug("dropping message: its request's connection is closed", "session", s.id)
		}
		return nil
	}
	select {
	case sk.ch <- ev:
		st.mu.Unlock()
		return nil
	case <-sk.end:
	case <-s.done:
	case <-ctx.Done():
	}
	st.mu.Unlock()
	putBuf(ev.data)
	if ev.seq > 0 {
		return nil // stored: a reconnecting client gets it
	}
	select {
	case <-s.done:
		return ErrClosed
	default:
	}
	return ctx.Err()
}

// Close implements Conn: it ends the session, its streams and its stored
// events. Later requests for the session get 404. A shared session (see
// HTTPOptions.Sessions) only ends here: its record and events stay for the
// other replicas (DELETE ends it everywhere).
func (s *httpSession) Close() error {
	s.shut(func() {
		s.leave()
		s.h.mu.Lock()
		if s.h.sessions[s.id] == s {
			delete(s.h.sessions, s.id)
		}
		s.h.mu.Unlock()
		s.mu.Lock()
		open := make([]*stream, 0, len(s.streams)+len(s.batches))
		for _, st := range s.streams {
			open = append(open, st)
		}
		for _, st := range s.batches {
			open = append(open, st) // perhaps twice: done is checked below
		}
		clear(s.streams)
		clear(s.byName)
		clear(s.batches)
		s.mu.Unlock()
		for _, st := range open {
			st.mu.Lock()
			if !st.done {
				st.done = true
				s.h.callEnded()
			}
			st.mu.Unlock()
		}
		if s.h.shared != nil {
			return
		}
		if err := s.h.store.DeleteSession(context.Background(), s.id); err != nil {
			s.h.logger.Warn("deleting stored SSE events failed", "session", s.id, "error", err)
		}
	})
	return nil
}

// CloseStream closes the HTTP connection carrying the stream of the
// request id before its response, telling the client (with an SSE retry
// field) to reconnect later with Last-Event-ID: the SSE polling of
// SEP-1699. Messages for the request keep being stored and are replayed
// on reconnection. It fails when the request has no open stream or the
// stream cannot be resumed (JSON response mode, or no event id sent yet).
func (s *httpSession) CloseStream(id protocol.ID) error {
	s.mu.Lock()
	st := s.streams[id]
	primed := protocol.PrimesStreams(s.version)
	s.mu.Unlock()
	if st == nil {
		return fmt.Errorf("transport: no open stream for request %s", id)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.resumable || (!primed && st.seq == 0) {
		return fmt.Errorf("transport: the stream of request %s cannot be resumed", id)
	}
	st.sse = true // the client comes back for the rest with Last-Event-ID
	if sk := st.live; sk != nil {
		st.live = nil
		sk.halt(true)
	}
	return nil
}

// cancelled ends the streams of the requests that the
// notifications/cancelled in msg (a request, or a batch) name. In a
// shared session, one naming a request this replica does not serve goes
// to the other replicas.
func (s *httpSession) cancelled(ctx context.Context, msg protocol.Message) {
	switch m := msg.(type) {
	case *protocol.Request:
		id, ok := cancelledID(m)
		if !ok {
			return
		}
		if s.h.shared != nil && !s.hasStream(id) {
			s.publishMessage(ctx, busCancel, m)
			return
		}
		s.cancelStream(id)
	case *protocol.Batch:
		for _, e := range m.Messages {
			s.cancelled(ctx, e)
		}
	}
}

// cancelStream ends the stream of a request the client cancelled: no
// response will come. The stream of a batch goes on: it ends with the
// batch's answer.
func (s *httpSession) cancelStream(id protocol.ID) {
	s.mu.Lock()
	st := s.streams[id]
	if st != nil {
		delete(s.streams, id)
		delete(s.byName, st.name)
	}
	s.mu.Unlock()
	if st == nil || st.batch != nil {
		return
	}
	st.end()
}

// end ends the stream without a response.
func (st *stream) end() {
	s := st.sess
	st.mu.Lock()
	if !st.done {
		st.done = true
		s.h.callEnded()
	}
	sk := st.live
	st.live = nil
	st.mu.Unlock()
	if sk != nil {
		sk.halt(false)
	}
}

var errDuplicateID = errors.New("duplicate request id")

// callState is what one POSTed call needs, allocated at once: its stream,
// the sink of its HTTP response, and the request info handed to the
// handler (see HTTPRequestInfo).
type callState struct {
	st   stream
	sk   sink
	info HTTPRequestInfo
}

// openStream registers the stream of a new request, with a connection
// attached, and sets req.Extra to the request info of r.
func (s *httpSession) openStream(r *http.Request, req *protocol.Request) (*stream, *sink, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// Only SSE streams have event ids, and so a name to resume by.
	c, err := s.openLocked(r, !s.h.opts.JSONResponse, req.ID)
	if err != nil {
		return nil, nil, err
	}
	req.Extra = &c.info
	return &c.st, &c.sk, nil
}

// openLocked registers a new stream for the requests ids of one POST, with
// a connection attached, and returns it with the request info of r; s.mu
// held. It fails with ErrClosed once the session has ended, errDuplicateID
// when a request in flight has one of the ids, and errStreamLimit past
// MaxStreamsPerSession. A resumable stream carries event ids, and gets a
// name to resume by.
func (s *httpSession) openLocked(r *http.Request, resumable bool, ids ...protocol.ID) (*callState, error) {
	if s.isClosed() {
		return nil, ErrClosed
	}
	for _, id := range ids {
		if _, dup := s.streams[id]; dup {
			return nil, errDuplicateID
		}
	}
	if limit := s.h.opts.MaxStreamsPerSession; limit > 0 && s.live >= limit {
		return nil, errStreamLimit
	}
	c := new(callState)
	st, sk := &c.st, &c.sk
	st.sess, st.json, st.resumable = s, s.h.opts.JSONResponse, resumable
	st.sse = s.h.opts.JSONWindow < 0 // SSE from the start: see answer
	n := 1
	if !st.json {
		n = 4 // a full buffer makes the handlers wait for the connection
	}
	if resumable {
		s.nextStream++
		st.name = strconv.FormatInt(s.nextStream, 10)
		if sh := s.h.shared; sh != nil {
			st.name = sh.replica + "-" + st.name // unique among the replicas
		}
		s.byName[st.name] = st
	}
	sk.ch, sk.end = make(chan outEvent, n), make(chan struct{})
	st.live = sk
	c.info = HTTPRequestInfo{Header: r.Header, Host: r.Host, RemoteAddr: r.RemoteAddr, SessionID: s.id, Principal: s.principal, Context: r.Context()}
	for _, id := range ids {
		s.streams[id] = st
	}
	s.live++
	s.h.callStarted()
	return c, nil
}

// detach disconnects sk from st once its HTTP response is over.
func (st *stream) detach(sk *sink) {
	sk.markGone()
	st.mu.Lock()
	if st.live == sk {
		st.live = nil
	}
	st.mu.Unlock()
	sk.drain()
	s := st.sess
	s.mu.Lock()
	s.live--
	s.lastActive = time.Now()
	s.mu.Unlock()
}

// attach connects a new HTTP response to st after replaying the stored
// events after seq `after`. It fails with errConflict when single is set
// and st already has a connection.
func (st *stream) attach(ctx context.Context, after int64, single bool) (*sink, []outEvent, bool, error) {
	s := st.sess
	st.mu.Lock()
	defer st.mu.Unlock()
	if single && st.live != nil {
		return nil, nil, false, errConflict
	}
	replay, err := s.replay(ctx, st.name, after)
	if err != nil {
		return nil, nil, false, err
	}
	if st.done {
		return nil, replay, true, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// A connection that takes over from another one does not count twice.
	if limit := s.h.opts.MaxStreamsPerSession; limit > 0 && st.live == nil && s.live >= limit {
		for _, ev := range replay {
			putBuf(ev.data)
		}
		return nil, nil, false, errStreamLimit
	}
	if old := st.live; old != nil {
		old.halt(false)
	}
	sk := newSink(16)
	sk.replayed = after
	if n := len(replay); n > 0 {
		sk.replayed = replay[n-1].seq
	}
	st.sse = true
	if st.follow || st == s.standalone && s.h.shared != nil {
		// Events come from the store; look once for those appended since
		// the replay.
		sk.wake, sk.after = make(chan struct{}, 1), after
		if n := len(replay); n > 0 {
			sk.after = replay[n-1].seq
		}
		sk.wake <- struct{}{}
	}
	st.live = sk
	s.live++
	return sk, replay, false, nil
}

var errConflict = errors.New("conflict")

// replay returns copies of the stored events of stream after seq.
func (s *httpSession) replay(ctx context.Context, name string, after int64) ([]outEvent, error) {
	var out []outEvent
	err := s.h.store.Replay(ctx, s.id, name, after, func(seq int64, data []byte) error {
		buf := getBuf()
		*buf = append(*buf, data...)
		out = append(out, outEvent{seq: seq, data: buf})
		return nil
	})
	if errors.Is(err, store.ErrEventsLost) {
		s.h.logger.Warn("resuming SSE stream: some events were discarded", "session", s.id, "stream", name, "after", after)
		err = nil
	}
	return out, err
}
