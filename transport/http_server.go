package transport

import (
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
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
	// JSONWindow is how long the answer to a POSTed request (legacy
	// stateful sessions) waits for its first message before it commits to
	// an SSE stream. A response that comes first within it is sent as one
	// application/json body: no event id, nothing stored, no SSE framing.
	// A message sent before the response (progress, a log, a request to
	// the client) or the window passing starts the SSE stream instead (with
	// its priming event on revisions that prime streams), whose events are
	// stored and resumable as before; so a slow call's answer can be
	// resumed, and a quick one costs the least. Zero means
	// DefaultJSONWindow; negative means every answer is an SSE stream.
	// JSONResponse, when set, makes every answer JSON instead.
	JSONWindow time.Duration
	// EventStore keeps the events of resumable streams (legacy stateful
	// sessions answering with SSE). Nil means a MemoryEventStore with its
	// default bounds, owned by the handler.
	EventStore store.EventStore
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
	// WriteTimeout bounds how long a client may take no bytes of an
	// answer: a response stream whose writes make no progress for this
	// long is dropped, with the memory its unread answers held (its stored
	// events keep it resumable with Last-Event-ID). A slow reader that
	// keeps taking bytes is never cut. Zero means DefaultWriteTimeout;
	// negative means no limit.
	WriteTimeout time.Duration
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

	// Sessions shares the legacy sessions of this handler with the other
	// replicas of the server that use the same store: a request for a
	// session this handler does not know is served after looking the
	// session up there (it is adopted: served as the client initialized
	// it on another replica), DELETE ends it everywhere, and SSE events
	// of the session's GET stream get their numbers from the EventStore
	// (which should be shared too and implement SequencedEventStore), so
	// that the stream can be resumed on any replica. The server side
	// keeps the session's MCP state (its log level, its resource
	// subscriptions) in its record through the session's Conn (see
	// Shared and NotifySessions). A session's record
	// expires SessionIdleTimeout after its last request on any replica.
	// The EventStore must then implement SequencedEventStore
	// (NewStreamableHandler panics otherwise). Nil means sessions live in
	// this handler only. See docs/scale.md.
	Sessions store.SessionStore
	// Bus carries, with Sessions, what the replicas serving one session
	// tell each other: the client's answers to requests another replica
	// sent, its cancellations of requests running elsewhere, the state
	// the server side sets (SharedSession.SetState), the end of the
	// session, and wake-ups of the replica holding the GET stream.
	// Without it a session can still be served by any replica, but those
	// messages stay on the replica they reached.
	Bus store.Bus
	// ProbeTimeout bounds how long a replica where a client resumed the
	// stream of a request running on another replica waits for that
	// replica to say, over the Bus, that it still runs the request: before
	// following the stream (unless the store holds its answer already),
	// and again after 5×ProbeTimeout without events while following.
	// Without an answer the request is taken as lost (its replica died,
	// or it was cancelled): the resumption gets 410 Gone, or the followed
	// stream ends and the client's next resumption does, and the client
	// fails the call (transport.ErrStreamLost) instead of waiting for an
	// answer that will not come. Zero means DefaultProbeTimeout.
	ProbeTimeout time.Duration
}

// DefaultProbeTimeout is the default of HTTPOptions.ProbeTimeout: far
// above a bus round trip, short enough for a client to send its request
// again soon.
const DefaultProbeTimeout = 2 * time.Second

// DefaultJSONWindow is the default of HTTPOptions.JSONWindow: long
// enough for a quick tool's response to come first, short enough that a
// slow call's SSE stream (and its priming event) starts at once.
const DefaultJSONWindow = 2 * time.Millisecond

// jsonWindow is JSONWindow with its default applied.
func (o *HTTPOptions) jsonWindow() time.Duration {
	if o.JSONWindow == 0 {
		return DefaultJSONWindow
	}
	return o.JSONWindow
}

// reprobeEvery is how long a followed stream may stay quiet before the
// replica following it asks again whether its request still runs.
func (o *HTTPOptions) reprobeEvery() time.Duration { return 5 * o.ProbeTimeout }

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
	store   store.EventStore
	policy  HostPolicy
	logger  *slog.Logger

	calls    atomic.Int64 // requests being served (for Shutdown)
	arrivals arrivals     // POST bodies still arriving (Shutdown cuts them)
	drainMu  sync.Mutex
	drained  chan struct{} // closed when calls drops to 0 while shutting down

	listens  atomic.Int64 // subscriptions/listen streams open (MaxListens)
	limitLog limitWarner

	shared *sharing // nil unless HTTPOptions.Sessions is set

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
	if o.WriteTimeout == 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.RetryInterval <= 0 {
		o.RetryInterval = time.Second
	}
	if o.KeepAlive == 0 {
		o.KeepAlive = 15 * time.Second
	}
	if o.ProbeTimeout <= 0 {
		o.ProbeTimeout = DefaultProbeTimeout
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
	if o.Sessions != nil {
		h.shared = newSharing(h)
	}
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
	if !h.opts.DisableHostCheck && !h.policy.admit(w, r) {
		return
	}
	w, end := withWriteTimeout(w, h.opts.WriteTimeout)
	defer end()
	switch r.Method {
	case http.MethodPost:
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

func (h *StreamableHandler) sessionFor(w http.ResponseWriter, r *http.Request) *httpSession {
	sid := r.Header.Get(HeaderSessionID)
	if sid == "" {
		badRequest(w, protocol.ID{}, "missing "+HeaderSessionID+" header")
		return nil
	}
	sess := h.find(w, r, protocol.ID{}, sid, h.opts.Principal(r))
	if sess == nil {
		return nil
	}
	if hv := r.Header.Get(HeaderProtocolVersion); hv != "" && !protocol.IsSupported(hv) {
		badRequest(w, protocol.ID{}, fmt.Sprintf("unsupported MCP-Protocol-Version %q", hv))
		return nil
	}
	return sess
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
	if h.shared != nil {
		if err := sess.terminate(r.Context()); err != nil {
			h.logger.Error("ending a shared MCP session failed", "session", sess.id, "error", err)
			writeJSONError(w, http.StatusServiceUnavailable, protocol.ID{}, errStoreDown)
			return
		}
	} else {
		sess.Close()
	}
	w.WriteHeader(http.StatusNoContent)
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
