package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// HTTPOptions configures a StreamableHandler. The zero value is ready to
// use: stateful sessions, SSE answers, resumable streams kept in memory,
// DNS-rebinding protection on.
type HTTPOptions struct {
	// Stateless serves every legacy (2025-03-26 .. 2025-11-25) POST in a
	// fresh Conn that ends with its answer: no Mcp-Session-Id is issued, GET
	// and DELETE answer 405, streams are not resumable, and the server
	// cannot send requests to the client. Requests other than initialize
	// are served as if initialize had negotiated the revision in their
	// MCP-Protocol-Version header (2025-03-26 when absent). Modern
	// (2026-07-28) requests are always served this way.
	Stateless bool
	// JSONResponse answers each request with one application/json body
	// instead of an SSE stream. Messages the server sends while serving
	// the request (progress, logs, requests to the client) then travel on
	// the session's GET stream instead (legacy), or are dropped (modern and
	// stateless requests).
	JSONResponse bool
	// EventStore keeps the events of resumable streams (legacy stateful
	// sessions answering with SSE). Nil means a MemoryEventStore with its
	// default bounds, owned by the handler.
	EventStore EventStore
	// SessionIdleTimeout ends a legacy session that has had no request and
	// no open stream for this long; later requests for it get 404. Zero
	// means DefaultSessionIdleTimeout (30 minutes); negative means sessions
	// never expire.
	SessionIdleTimeout time.Duration
	// MaxBodyBytes bounds the size of a POST body; a larger body gets 413.
	// Zero means DefaultMaxMessageSize (4 MiB).
	MaxBodyBytes int64
	// ReadBodyTimeout bounds how long a POST body may take to arrive,
	// counted from the start of the request: a client still sending when
	// it passes gets 408 Request Timeout and its connection is closed, so
	// a client trickling its body cannot hold a connection (or a graceful
	// shutdown) for longer. The limit is lifted once the body has been
	// read, so the answer's stream may last as long as it needs. Zero
	// means DefaultReadBodyTimeout; negative means no limit.
	ReadBodyTimeout time.Duration
	// AllowedHosts and AllowedOrigins configure the DNS-rebinding
	// protection (see HostPolicy, whose defaults apply when they are
	// empty). Requests failing it get 403.
	AllowedHosts, AllowedOrigins []string
	// DisableHostCheck turns the DNS-rebinding protection off, for servers
	// behind a proxy that already checks Host and Origin.
	DisableHostCheck bool
	// RetryInterval is the reconnection delay announced to clients in SSE
	// "retry:" fields (the priming event, and before the server closes a
	// stream early). Zero means 1 second.
	RetryInterval time.Duration
	// KeepAlive is the interval of SSE comment lines sent on otherwise
	// quiet streams, so proxies do not time them out. Zero means 15
	// seconds; negative disables keep-alives.
	KeepAlive time.Duration
	// Logger receives diagnostics. Nil means slog.Default().
	Logger *slog.Logger

	// Principal identifies the caller of a request. A session is bound to
	// the principal of the request that created it: a request for it with
	// another principal (POST, GET, DELETE) gets 404, as if the session
	// did not exist. The principal is also handed to the server as
	// HTTPRequestInfo.Principal and ConnInfo.Principal. Nil means
	// DefaultPrincipal (a digest of the Authorization header).
	Principal func(*http.Request) string
	// MaxSessions bounds the legacy sessions open at once; an initialize
	// past it gets 503 with a JSON-RPC error. Idle sessions past
	// SessionIdleTimeout are closed to make room first. Zero means
	// DefaultMaxSessions; negative means no limit.
	MaxSessions int
	// MaxStreamsPerSession bounds the responses one legacy session has
	// open at once: answers to POSTed requests (SSE streams or pending
	// JSON bodies) and GET streams. A request past it gets 429 with a
	// JSON-RPC error; notifications and responses are still accepted.
	// Zero means DefaultMaxStreamsPerSession; negative means no limit.
	MaxStreamsPerSession int
	// MaxListens bounds the subscriptions/listen streams (protocol
	// 2026-07-28) open at once across all clients; a listen past it gets
	// 503 with a JSON-RPC error. Zero means DefaultMaxListens; negative
	// means no limit.
	MaxListens int
}

// StreamableHandler serves MCP over the Streamable HTTP transport, as an
// http.Handler to mount at the MCP endpoint (any path). It speaks both
// eras on the one endpoint:
//
//   - Legacy revisions (2025-03-26 .. 2025-11-25): a POST of initialize
//     without Mcp-Session-Id starts a session (a Conn handed to connect)
//     and its answer carries the new Mcp-Session-Id; later requests carry
//     it. A request is answered on an SSE stream that carries the messages
//     related to it and ends with its response (or with one JSON body, see
//     HTTPOptions.JSONResponse); notifications and responses get 202
//     Accepted. GET opens the session's stream for messages unrelated to
//     any request (one at a time: a second gets 409); DELETE ends the
//     session (204). SSE events carry ids "<stream>_<seq>", and a GET with
//     Last-Event-ID replays what followed that event on its stream and
//     then keeps delivering the stream. Once the session has negotiated
//     2025-11-25 or later, each stream starts with a priming event (an id,
//     a retry field, empty data: SEP-1699).
//   - Modern revision 2026-07-28: a POST without Mcp-Session-Id whose
//     params._meta names a protocol version (or whose MCP-Protocol-Version
//     header names a revision that is not a legacy one) is served in a
//     one-shot Conn, with no session, event ids or resumption. Its headers
//     are checked first: MCP-Protocol-Version present and equal to the
//     _meta version, Mcp-Method equal to the method, Mcp-Name equal to
//     params.name (tools/call, prompts/get) or params.uri (resources/read)
//     after Base64-sentinel decoding (400 with HeaderMismatch -32020); _meta
//     must carry the protocol version and client capabilities (400 with
//     -32602); the version must be supported (400 with -32022). An answer
//     that is just an error gets status 404 for -32601 (method not found)
//     and 400 for -32020..-32022. The answer is one JSON body when the
//     response comes first, else an SSE stream (always for
//     subscriptions/listen, which stays open with keep-alives). Closing the
//     connection cancels the request.
//
// Requests are checked before they reach a session: the Host and Origin
// headers (DNS-rebinding protection, 403), the method (405), Content-Type
// application/json (415), an Accept header admitting application/json and,
// unless JSONResponse is set, text/event-stream (406; wildcards count, and
// a request without Accept admits anything), the body size (413) and the
// time it takes to arrive (408, see HTTPOptions.ReadBodyTimeout), the
// JSON-RPC envelope (400 with a -32700 or -32600 error), a supported
// MCP-Protocol-Version (400; any supported revision is accepted on any
// request, and a missing header means 2025-03-26), the session id (400
// when missing, 404 with error -32001 when unknown, expired, deleted or
// created by another principal: see HTTPOptions.Principal). Past the
// limits (HTTPOptions.MaxSessions, MaxStreamsPerSession, MaxListens) a
// request gets 503 or 429. Error answers carry a JSON-RPC error body.
//
// Outgoing messages: a response goes on its request's stream (and only
// there: stored for replay when the stream's connection is closed). Other
// messages written with a ctx marked by WithRelatedRequest go on that
// request's stream while its connection is open; when it is closed they
// take the GET stream if one is open, else they are stored on the
// request's stream for replay. Unrelated messages take the GET stream, or
// are stored until one opens. In JSONResponse mode only the response uses
// the request's answer. A client's notifications/cancelled ends the stream
// of the request it names.
//
// An SSE answer's headers (and priming event) are held back for up to 2ms
// waiting for the first message, so that a quick answer leaves in a single
// write; then events are flushed as they come, once per batch.
//
// The session Conn also implements CloseStream(protocol.ID) error, which
// closes the connection of a request's stream before the response (after
// an event id was sent), telling the client to reconnect after
// RetryInterval: the SSE polling of SEP-1699. A server layer reaches it
// through session.Session.Conn.
//
// The handler starts no goroutine of its own except a timer callback that
// expires idle sessions; Shutdown and Close stop it. Each session's Conn is
// closed when the session ends (DELETE, expiry, Close), which ends the
// session engine serving it. All methods are safe for concurrent use.
type StreamableHandler struct {
	connect func(Conn, ConnInfo)
	opts    HTTPOptions
	store   EventStore
	policy  HostPolicy
	logger  *slog.Logger

	calls   atomic.Int64 // requests being served (for Shutdown)
	drainMu sync.Mutex
	drained chan struct{} // closed when calls drops to 0 while shutting down

	listens  atomic.Int64 // subscriptions/listen streams open (MaxListens)
	limitLog limitWarner

	mu       sync.Mutex
	sessions map[string]*httpSession
	oneShots map[*oneShot]struct{}
	closing  atomic.Bool // Shutdown or Close called: no new sessions or calls (set under mu; read anywhere)
	closed   bool
	sweep    *time.Timer
}

// NewStreamableHandler returns a handler that serves each session (or
// stateless request) in a Conn passed to connect. connect must start
// serving the Conn (typically in a session engine, as
// lowlevel.Server.Connect does) and return at once; it is called from the
// goroutine serving the HTTP request. opts may be nil.
func NewStreamableHandler(connect func(Conn, ConnInfo), opts *HTTPOptions) *StreamableHandler {
	if connect == nil {
		panic("transport: NewStreamableHandler: nil connect function")
	}
	h := &StreamableHandler{connect: connect, sessions: map[string]*httpSession{}, oneShots: map[*oneShot]struct{}{}}
	if opts != nil {
		h.opts = *opts
	}
	o := &h.opts
	if o.SessionIdleTimeout == 0 {
		o.SessionIdleTimeout = DefaultSessionIdleTimeout
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxMessageSize
	}
	if o.ReadBodyTimeout == 0 {
		o.ReadBodyTimeout = DefaultReadBodyTimeout
	}
	if o.RetryInterval <= 0 {
		o.RetryInterval = time.Second
	}
	if o.KeepAlive == 0 {
		o.KeepAlive = 15 * time.Second
	}
	if o.Principal == nil {
		o.Principal = DefaultPrincipal
	}
	o.MaxSessions = limitOrDefault(o.MaxSessions, DefaultMaxSessions)
	o.MaxStreamsPerSession = limitOrDefault(o.MaxStreamsPerSession, DefaultMaxStreamsPerSession)
	o.MaxListens = limitOrDefault(o.MaxListens, DefaultMaxListens)
	h.store = o.EventStore
	if h.store == nil {
		h.store = NewMemoryEventStore(nil)
	}
	h.logger = o.Logger
	if h.logger == nil {
		h.logger = slog.Default()
	}
	h.policy = HostPolicy{AllowedHosts: o.AllowedHosts, AllowedOrigins: o.AllowedOrigins}
	return h
}

var (
	errShuttingDown = protocol.NewError(protocol.CodeInternalError, "Service unavailable: the server is shutting down")
	errNoSession    = protocol.NewError(CodeSessionNotFound, "Session not found")
)

// CodeSessionNotFound is the JSON-RPC error code in the body of a 404
// answer to a request whose Mcp-Session-Id (or sessionId) is unknown,
// expired or terminated (the code the TypeScript SDK uses).
const CodeSessionNotFound = -32001

// ServeHTTP implements http.Handler.
func (h *StreamableHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.opts.DisableHostCheck {
		if err := h.policy.Check(r); err != nil {
			writeJSONError(w, http.StatusForbidden, protocol.ID{}, protocol.NewError(protocol.CodeInvalidRequest, "Forbidden: "+strings.TrimPrefix(err.Error(), "transport: ")))
			return
		}
	}
	switch r.Method {
	case http.MethodPost:
		limitBodyTime(w, r, h.opts.ReadBodyTimeout)
		h.servePost(w, r)
	case http.MethodGet:
		h.serveGet(w, r)
	case http.MethodDelete:
		h.serveDelete(w, r)
	default:
		if h.opts.Stateless {
			w.Header().Set("Allow", "POST")
		} else {
			w.Header().Set("Allow", "GET, POST, DELETE")
		}
		writeJSONError(w, http.StatusMethodNotAllowed, protocol.ID{}, protocol.NewError(protocol.CodeInvalidRequest, "Method not allowed: "+r.Method))
	}
}

func badRequest(w http.ResponseWriter, id protocol.ID, msg string) {
	writeJSONError(w, http.StatusBadRequest, id, protocol.NewError(protocol.CodeInvalidRequest, "Bad Request: "+msg))
}

// readBody reads the request body into a pooled buffer, enforcing max.
func readBody(w http.ResponseWriter, r *http.Request, max int64) (*[]byte, error) {
	buf := getBuf()
	b := *buf
	if n := r.ContentLength; n > 0 && n <= max && int64(cap(b)) < n {
		b = make([]byte, 0, n+1)
	}
	body := http.MaxBytesReader(w, r.Body, max)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			*buf = b
			putBuf(buf)
			return nil, err
		}
	}
	*buf = b
	return buf, nil
}

// readMessage checks that r carries JSON, reads its body (at most max
// bytes) and decodes the one message in it. On failure it has written the
// error response and returns false.
func readMessage(w http.ResponseWriter, r *http.Request, max int64) (protocol.Message, bool) {
	if mediaType(r.Header.Get("Content-Type")) != mediaJSON {
		writeJSONError(w, http.StatusUnsupportedMediaType, protocol.ID{}, protocol.NewError(protocol.CodeInvalidRequest, "Unsupported Media Type: Content-Type must be application/json"))
		return nil, false
	}
	buf, err := readBody(w, r, max)
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) { // see limitBodyTime
			w.Header().Set("Connection", "close")
			writeJSONError(w, http.StatusRequestTimeout, protocol.ID{}, protocol.NewError(protocol.CodeInvalidRequest, "Request Timeout: the request body did not arrive in time"))
			return nil, false
		}
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			writeJSONError(w, http.StatusRequestEntityTooLarge, protocol.ID{}, protocol.Errorf(protocol.CodeInvalidRequest, "Request Entity Too Large: the body exceeds %d bytes", max))
			return nil, false
		}
		badRequest(w, protocol.ID{}, "reading body: "+err.Error())
		return nil, false
	}
	msg, err := protocol.DecodeMessage(*buf)
	putBuf(buf)
	if err != nil {
		de, ok := errors.AsType[*protocol.DecodeError](err)
		if !ok {
			de = &protocol.DecodeError{Err: protocol.NewError(protocol.CodeParseError, "Parse error")}
		}
		writeJSONError(w, http.StatusBadRequest, de.ID, de.Err)
		return nil, false
	}
	return msg, true
}

func (h *StreamableHandler) servePost(w http.ResponseWriter, r *http.Request) {
	// A wrong Content-Type (415, from readMessage) is reported before a
	// wrong Accept (406).
	accept := r.Header.Values("Accept")
	if mediaType(r.Header.Get("Content-Type")) == mediaJSON &&
		(!accepts(accept, mediaJSON) || (!h.opts.JSONResponse && !accepts(accept, mediaSSE))) {
		writeJSONError(w, http.StatusNotAcceptable, protocol.ID{}, protocol.NewError(protocol.CodeInvalidRequest, "Not Acceptable: the client must accept both application/json and text/event-stream"))
		return
	}
	msg, ok := readMessage(w, r, h.opts.MaxBodyBytes)
	if !ok {
		return
	}
	req, _ := msg.(*protocol.Request)
	sid := r.Header.Get(HeaderSessionID)
	hv := r.Header.Get(HeaderProtocolVersion)
	if b, ok := msg.(*protocol.Batch); ok {
		h.serveBatch(w, r, b, sid, hv)
		return
	}
	if sid == "" && isModernRequest(req, hv) {
		h.serveModern(w, r, msg, hv)
		return
	}
	principal := h.opts.Principal(r)
	id := protocol.ID{}
	if req != nil {
		id = req.ID
	}
	if hv != "" && !protocol.IsSupported(hv) {
		badRequest(w, id, fmt.Sprintf("unsupported MCP-Protocol-Version %q (supported: %s)", hv, strings.Join(protocol.SupportedVersions(), ", ")))
		return
	}
	if h.opts.Stateless {
		if req == nil {
			w.WriteHeader(http.StatusAccepted) // a response to nothing we sent
			return
		}
		info := ConnInfo{Stateless: true, Version: hv}
		if info.Version == "" {
			info.Version = protocol.Version20250326
		}
		if req.Method == protocol.MethodInitialize {
			info.Version = ""
		}
		req.Extra = requestInfo(r, "", principal)
		h.serveOneShot(w, r, req, info, false)
		return
	}
	var (
		sess  *httpSession
		isNew bool
	)
	if sid == "" {
		if req == nil || !req.IsCall() || req.Method != protocol.MethodInitialize {
			badRequest(w, id, "missing "+HeaderSessionID+" header (send initialize first to start a session)")
			return
		}
		var err error
		switch sess, err = h.newSession(principal); {
		case errors.Is(err, errSessionLimit):
			h.refuseSession(w, id)
			return
		case err != nil:
			writeJSONError(w, http.StatusServiceUnavailable, id, errShuttingDown)
			return
		}
		isNew = true
	} else if sess = h.lookup(sid, principal); sess == nil {
		// Another caller's session is answered as one that does not exist.
		writeJSONError(w, http.StatusNotFound, id, errNoSession)
		return
	}
	if req == nil { // a response to a request the server sent
		if !sess.deliver(r.Context(), msg) {
			writeJSONError(w, http.StatusNotFound, protocol.ID{}, errNoSession)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if !req.IsCall() {
		h.accept(w, r, sess, req)
		return
	}
	if h.isClosing() {
		writeJSONError(w, http.StatusServiceUnavailable, req.ID, errShuttingDown)
		return
	}
	h.serveCall(w, r, sess, req, isNew)
}

func (h *StreamableHandler) isClosing() bool { return h.closing.Load() }

func (h *StreamableHandler) callStarted() { h.calls.Add(1) }

func (h *StreamableHandler) callEnded() {
	if h.calls.Add(-1) != 0 {
		return
	}
	h.drainMu.Lock()
	if h.drained != nil {
		close(h.drained)
		h.drained = nil
	}
	h.drainMu.Unlock()
}

// setSSEHeaders sets the headers of an SSE answer. Like writeJSONBody, it
// assigns canonical keys directly, with the values in one allocation (each
// a slice of its own, capacity 1, so appending to one cannot touch the
// next).
func setSSEHeaders(w http.ResponseWriter) {
	hdr := w.Header()
	v := &[3]string{mediaSSE, "no-cache", "no"}
	hdr["Content-Type"] = v[0:1:1]
	hdr["Cache-Control"] = v[1:2:2]
	hdr["X-Accel-Buffering"] = v[2:3:3]
}

func writeJSONBody(w http.ResponseWriter, status int, data []byte) {
	hdr := w.Header()
	v := &[3]string{mediaJSON, "no-store", strconv.Itoa(len(data))}
	hdr["Content-Type"] = v[0:1:1]
	hdr["Cache-Control"] = v[1:2:2]
	hdr["Content-Length"] = v[2:3:3]
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// outEvent is one message on its way to an HTTP response.
type outEvent struct {
	seq   int64   // event sequence number; 0 when the stream has no event ids
	data  *[]byte // the encoded message (pooled; the receiver puts it back)
	final bool    // the response that ends the stream
	code  int64   // error code of a final error response
}

// accept hands sess msg, a notification or a batch of notifications and
// responses, which get no answer: 202 Accepted.
func (h *StreamableHandler) accept(w http.ResponseWriter, r *http.Request, sess *httpSession, msg protocol.Message) {
	setExtra(msg, requestInfo(r, sess.id, sess.principal))
	if !sess.deliver(r.Context(), msg) {
		writeJSONError(w, http.StatusNotFound, protocol.ID{}, errNoSession)
		return
	}
	sess.cancelled(msg)
	w.WriteHeader(http.StatusAccepted)
}

func (h *StreamableHandler) serveCall(w http.ResponseWriter, r *http.Request, sess *httpSession, req *protocol.Request, isNew bool) {
	st, sk, err := sess.openStream(r, req) // sets req.Extra
	switch {
	case errors.Is(err, errDuplicateID):
		badRequest(w, req.ID, fmt.Sprintf("request id %s is already in use by a request in flight", req.ID.Raw()))
		return
	case errors.Is(err, errStreamLimit):
		h.refuseStream(w, req.ID)
		return
	case err != nil:
		writeJSONError(w, http.StatusNotFound, req.ID, errNoSession)
		return
	}
	defer st.detach(sk)
	if isNew {
		w.Header().Set(HeaderSessionID, sess.id)
		defer func() {
			if sess.negotiated() == "" { // initialize failed: the session is useless
				sess.Close()
			}
		}()
	}
	if !sess.deliverCall(r.Context(), req, st.json) {
		sess.cancelStream(req.ID)
		return
	}
	h.answer(w, r, sess, st, sk, req.ID)
}

// answer writes what the session sends on st, the stream of a POST
// carrying the request id (the zero ID for a batch): one JSON body, or an
// SSE stream.
func (h *StreamableHandler) answer(w http.ResponseWriter, r *http.Request, sess *httpSession, st *stream, sk *sink, id protocol.ID) {
	if st.json {
		select {
		case ev := <-sk.ch: // served inline: the answer is already there
			writeJSONBody(w, http.StatusOK, *ev.data)
			putBuf(ev.data)
			return
		default:
		}
		select {
		case ev := <-sk.ch:
			writeJSONBody(w, http.StatusOK, *ev.data)
			putBuf(ev.data)
		case <-sk.end:
			w.WriteHeader(http.StatusNoContent) // cancelled by the client
		case <-r.Context().Done():
		case <-sess.done:
			select {
			case ev := <-sk.ch: // answered just before the session ended
				writeJSONBody(w, http.StatusOK, *ev.data)
				putBuf(ev.data)
			default:
				writeJSONError(w, http.StatusNotFound, id, errNoSession)
			}
		}
		return
	}
	setSSEHeaders(w)
	w.WriteHeader(http.StatusOK)
	out := getBuf()
	defer putBuf(out)
	if sess.primes() {
		*out = appendSSEPriming((*out)[:0], st.name, 0, h.opts.RetryInterval)
	}
	h.pump(w, r, sess, st, sk, out, nil)
}

// coalesceWindow is how long a new SSE response may hold back its headers
// (and priming event) waiting for its first message, so that a quick
// answer travels in one write.
const coalesceWindow = 2 * time.Millisecond

// timers holds stopped timers for pump, which needs one per response.
var timers sync.Pool

// getTimer returns a timer firing after d.
func getTimer(d time.Duration) *time.Timer {
	if t, ok := timers.Get().(*time.Timer); ok {
		t.Reset(d)
		return t
	}
	return time.NewTimer(d)
}

// putTimer stops t and keeps it for getTimer. With Go 1.23's synchronous
// timer channels a stopped timer never delivers a stale tick; the drain
// covers programs that ask for the older asynchronous channels
// (GODEBUG asynctimerchan=1).
func putTimer(t *time.Timer) {
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
	timers.Put(t)
}

// pump writes a stream's events to an SSE response until the stream ends,
// the client goes away, the stream is closed early or the session ends.
// out holds bytes to write first (it is reused as the write buffer), then
// the replayed events in pre. Writes are flushed once per batch of queued
// events; the final event is not flushed explicitly, so net/http sends it
// together with the end of the response.
func (h *StreamableHandler) pump(w http.ResponseWriter, r *http.Request, sess *httpSession, st *stream, sk *sink, out *[]byte, pre []outEvent) {
	rc := http.NewResponseController(w)
	var lastSeq int64
	write := func() bool {
		if len(*out) == 0 {
			return true
		}
		_, err := w.Write(*out)
		*out = (*out)[:0]
		return err == nil
	}
	flush := func() bool {
		if !write() || rc.Flush() != nil {
			return false
		}
		if lastSeq > 0 && st == sess.standalone {
			st.delivered.Store(lastSeq)
		}
		return true
	}
	frame := func(ev outEvent) bool {
		if ev.seq > 0 {
			*out = appendSSEEventID(*out, st.name, ev.seq)
			lastSeq = ev.seq
		}
		*out = appendSSEMessage(*out, "", *ev.data)
		putBuf(ev.data)
		return ev.final
	}
	for i, ev := range pre {
		if frame(ev) {
			for _, rest := range pre[i+1:] {
				putBuf(rest.data)
			}
			write()
			return
		}
	}
	pending := true // headers (and priming) not flushed yet
	if len(pre) > 0 {
		if !flush() {
			return
		}
		pending = false
	}
	wait := coalesceWindow
	if !pending {
		wait = h.opts.KeepAlive
	}
	var timer *time.Timer
	var tick <-chan time.Time
	if wait > 0 {
		timer = getTimer(wait)
		defer putTimer(timer)
		tick = timer.C
	}
	for {
		select {
		case ev := <-sk.ch:
			final := frame(ev)
			for !final && len(*out) < 32<<10 {
				select {
				case ev = <-sk.ch:
					final = frame(ev)
					continue
				default:
				}
				break
			}
			if final {
				write()
				return
			}
			if !flush() {
				return
			}
			pending = false
		case <-tick:
			if !pending {
				*out = append(*out, sseKeepAlive...)
			}
			if !flush() {
				return
			}
			pending = false
			if h.opts.KeepAlive > 0 {
				timer.Reset(h.opts.KeepAlive)
			} else {
				tick = nil
			}
		case <-sk.end:
			if sk.resume.Load() {
				*out = appendSSERetry(*out, h.opts.RetryInterval)
				*out = append(*out, '\n')
			}
			flush()
			return
		case <-r.Context().Done():
			return
		case <-sess.done:
			// Write what was queued before the session ended (a response
			// sent just before Shutdown closed the session).
			for {
				select {
				case ev := <-sk.ch:
					if frame(ev) {
						write()
						return
					}
					continue
				default:
				}
				break
			}
			flush()
			return
		}
	}
}

func (h *StreamableHandler) sessionFor(w http.ResponseWriter, r *http.Request) *httpSession {
	sid := r.Header.Get(HeaderSessionID)
	if sid == "" {
		badRequest(w, protocol.ID{}, "missing "+HeaderSessionID+" header")
		return nil
	}
	sess := h.lookup(sid, h.opts.Principal(r))
	if sess == nil {
		writeJSONError(w, http.StatusNotFound, protocol.ID{}, errNoSession)
		return nil
	}
	if hv := r.Header.Get(HeaderProtocolVersion); hv != "" && !protocol.IsSupported(hv) {
		badRequest(w, protocol.ID{}, fmt.Sprintf("unsupported MCP-Protocol-Version %q", hv))
		return nil
	}
	return sess
}

func (h *StreamableHandler) serveGet(w http.ResponseWriter, r *http.Request) {
	if h.opts.Stateless {
		w.Header().Set("Allow", "POST")
		writeJSONError(w, http.StatusMethodNotAllowed, protocol.ID{}, protocol.NewError(protocol.CodeInvalidRequest, "Method not allowed: this server is stateless and has no GET stream"))
		return
	}
	if !accepts(r.Header.Values("Accept"), mediaSSE) {
		writeJSONError(w, http.StatusNotAcceptable, protocol.ID{}, protocol.NewError(protocol.CodeInvalidRequest, "Not Acceptable: the client must accept text/event-stream"))
		return
	}
	sess := h.sessionFor(w, r)
	if sess == nil {
		return
	}
	st := sess.standalone
	after := st.delivered.Load()
	resuming := false
	if last := r.Header.Get(HeaderLastEventID); last != "" {
		name, seq, ok := parseEventID(last)
		if !ok {
			badRequest(w, protocol.ID{}, "malformed Last-Event-ID")
			return
		}
		after, resuming = seq, true
		if name != st.name {
			sess.mu.Lock()
			st = sess.byName[name]
			sess.mu.Unlock()
			if st == nil {
				h.replayFinished(w, r, sess, name, seq)
				return
			}
		}
	}
	sk, pre, finished, err := st.attach(r.Context(), after, st == sess.standalone)
	switch {
	case errors.Is(err, errConflict):
		writeJSONError(w, http.StatusConflict, protocol.ID{}, protocol.NewError(protocol.CodeInvalidRequest, "Conflict: the session already has a GET stream open"))
		return
	case errors.Is(err, errStreamLimit):
		h.refuseStream(w, protocol.ID{})
		return
	case err != nil:
		writeJSONError(w, http.StatusInternalServerError, protocol.ID{}, protocol.Errorf(protocol.CodeInternalError, "Internal error: replaying events: %v", err))
		return
	}
	setSSEHeaders(w)
	w.WriteHeader(http.StatusOK)
	out := getBuf()
	defer putBuf(out)
	if !resuming && sess.primes() {
		*out = appendSSEPriming(*out, st.name, after, h.opts.RetryInterval)
	}
	if finished {
		for _, ev := range pre {
			*out = appendSSEEventID(*out, st.name, ev.seq)
			*out = appendSSEMessage(*out, "", *ev.data)
			putBuf(ev.data)
		}
		_, _ = w.Write(*out)
		return
	}
	defer st.detach(sk)
	h.pump(w, r, sess, st, sk, out, pre)
}

// replayFinished answers a resumption of a stream that is no longer open:
// its stored events, then the end of the stream.
func (h *StreamableHandler) replayFinished(w http.ResponseWriter, r *http.Request, sess *httpSession, name string, after int64) {
	pre, err := sess.replay(r.Context(), name, after)
	if err != nil {
		writeJSONError(w, http.StatusInternalServerError, protocol.ID{}, protocol.Errorf(protocol.CodeInternalError, "Internal error: replaying events: %v", err))
		return
	}
	setSSEHeaders(w)
	w.WriteHeader(http.StatusOK)
	out := getBuf()
	defer putBuf(out)
	for _, ev := range pre {
		*out = appendSSEEventID(*out, name, ev.seq)
		*out = appendSSEMessage(*out, "", *ev.data)
		putBuf(ev.data)
	}
	_, _ = w.Write(*out)
}

// parseEventID splits an event id "<stream>_<seq>".
func parseEventID(id string) (string, int64, bool) {
	i := strings.LastIndexByte(id, '_')
	if i <= 0 {
		return "", 0, false
	}
	seq, err := strconv.ParseInt(id[i+1:], 10, 64)
	if err != nil || seq < 0 {
		return "", 0, false
	}
	return id[:i], seq, true
}

func (h *StreamableHandler) serveDelete(w http.ResponseWriter, r *http.Request) {
	if h.opts.Stateless {
		w.Header().Set("Allow", "POST")
		writeJSONError(w, http.StatusMethodNotAllowed, protocol.ID{}, protocol.NewError(protocol.CodeInvalidRequest, "Method not allowed: this server is stateless"))
		return
	}
	sess := h.sessionFor(w, r)
	if sess == nil {
		return
	}
	sess.Close()
	w.WriteHeader(http.StatusNoContent)
}

// Shutdown stops the handler gracefully: new sessions and new requests are
// refused with 503 (notifications and responses for existing sessions are
// still accepted, so calls in flight can finish), then once every request
// in flight has been answered, or ctx is done, every session is closed as
// by Close. It returns ctx's error if ctx ended first.
//
// http.Server.Shutdown waits for open SSE streams to end; call this
// Shutdown first (or from http.Server.RegisterOnShutdown) so they do.
func (h *StreamableHandler) Shutdown(ctx context.Context) error {
	h.mu.Lock()
	h.closing.Store(true)
	h.mu.Unlock()
	h.drainMu.Lock()
	var wait chan struct{}
	if h.calls.Load() > 0 {
		if h.drained == nil {
			h.drained = make(chan struct{})
		}
		wait = h.drained
	}
	h.drainMu.Unlock()
	var err error
	if wait != nil {
		select {
		case <-wait:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	h.Close()
	return err
}

// Close stops the handler at once: it closes every session (ending their
// Conns and SSE streams) and every stateless request in flight, and stops
// the expiry timer. Later requests get 503 (or 404 for a session id).
func (h *StreamableHandler) Close() error {
	h.mu.Lock()
	h.closing.Store(true)
	h.closed = true
	if h.sweep != nil {
		h.sweep.Stop()
		h.sweep = nil
	}
	sessions := make([]*httpSession, 0, len(h.sessions))
	for _, s := range h.sessions {
		sessions = append(sessions, s)
	}
	shots := make([]*oneShot, 0, len(h.oneShots))
	for c := range h.oneShots {
		shots = append(shots, c)
	}
	h.mu.Unlock()
	for _, s := range sessions {
		s.Close()
	}
	for _, c := range shots {
		c.Close()
	}
	return nil
}

// Owns reports whether c is a Conn that h handed to its connect function
// (a session, or a stateless request), so that code above the transport
// can tell the connections of one handler from those of another (as when
// one of several handlers of a server shuts down).
func (h *StreamableHandler) Owns(c Conn) bool {
	switch c := c.(type) {
	case *httpSession:
		return c.h == h
	case *oneShot:
		return c.h == h
	}
	return false
}
