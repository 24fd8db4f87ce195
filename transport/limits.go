package transport

import (
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// Default capacity limits of the HTTP handlers (see HTTPOptions and
// SSEOptions). They bound what one process holds for clients it has not
// been told to expect, so that a client opening sessions or streams in a
// loop meets an error rather than exhausting the machine. Each costs, at
// rest, a few tens of KiB (goroutines, buffers, maps; see docs/http.md),
// so the defaults together stay within a few hundred MiB.
const (
	// DefaultMaxSessions is the default limit on the sessions a handler
	// holds at once: legacy Streamable HTTP sessions, and separately
	// legacy HTTP+SSE sessions.
	DefaultMaxSessions = 1000
	// DefaultMaxStreamsPerSession is the default limit on the responses
	// one legacy session has open at once. It matches the default number
	// of requests a session serves at once (session.Options.MaxConcurrency):
	// further requests would only wait their turn.
	DefaultMaxStreamsPerSession = 64
	// DefaultMaxListens is the default limit on the subscriptions/listen
	// streams open at once.
	DefaultMaxListens = 1000
)

// DefaultSessionIdleTimeout is how long, by default, a legacy Streamable
// HTTP session lives without a request or an open stream (see
// HTTPOptions.SessionIdleTimeout). A client holding its GET stream open is
// never idle; one that only POSTs now and then has to initialize again
// after a longer pause.
const DefaultSessionIdleTimeout = 30 * time.Minute

// limitOrDefault resolves a limit option: zero means def, negative means
// no limit (0 internally).
func limitOrDefault(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}

// limitWarnEvery spaces the log warnings a handler writes when it refuses
// a request for capacity, so that a flood of refusals does not flood the
// log.
const limitWarnEvery = 10 * time.Second

// limitWarner logs that a limit was reached, at most once per
// limitWarnEvery.
type limitWarner struct{ last atomic.Int64 }

func (l *limitWarner) warn(logger *slog.Logger, msg, setting string, limit int) {
	now := time.Now().UnixNano()
	last := l.last.Load()
	if now-last < int64(limitWarnEvery) || !l.last.CompareAndSwap(last, now) {
		return
	}
	logger.Warn(msg, "limit", limit, "setting", setting)
}

// Capacity errors, sent as JSON-RPC error bodies with status 503 (the
// server is full) or 429 (this session asks for too much).
func errTooManySessions(limit int) *protocol.Error {
	return protocol.Errorf(protocol.CodeInternalError, "Service unavailable: the server has reached its limit of %d sessions", limit)
}

func errTooManyStreams(limit int) *protocol.Error {
	return protocol.Errorf(protocol.CodeInternalError, "Too Many Requests: the session already has %d responses open", limit)
}

func errTooManyListens(limit int) *protocol.Error {
	return protocol.Errorf(protocol.CodeInternalError, "Service unavailable: the server has reached its limit of %d %s streams", limit, protocol.MethodSubscriptionsListen)
}

// refuseSession answers an initialize the session limit refuses.
func (h *StreamableHandler) refuseSession(w http.ResponseWriter, id protocol.ID) {
	h.limitLog.warn(h.logger, "refusing a new MCP session: the session limit is reached", "MaxSessions", h.opts.MaxSessions)
	writeJSONError(w, http.StatusServiceUnavailable, id, errTooManySessions(h.opts.MaxSessions))
}

// refuseStream answers a request the per-session stream limit refuses.
func (h *StreamableHandler) refuseStream(w http.ResponseWriter, id protocol.ID) {
	h.limitLog.warn(h.logger, "refusing an MCP request: a session reached its limit of open responses", "MaxStreamsPerSession", h.opts.MaxStreamsPerSession)
	writeJSONError(w, http.StatusTooManyRequests, id, errTooManyStreams(h.opts.MaxStreamsPerSession))
}

// acquireListen takes a slot for a subscriptions/listen stream, or answers
// 503 and returns false. A true result must be paired with releaseListen.
func (h *StreamableHandler) acquireListen(w http.ResponseWriter, id protocol.ID) bool {
	n := h.listens.Add(1)
	if limit := h.opts.MaxListens; limit > 0 && n > int64(limit) {
		h.listens.Add(-1)
		h.limitLog.warn(h.logger, "refusing an MCP "+protocol.MethodSubscriptionsListen+": the listen limit is reached", "MaxListens", limit)
		writeJSONError(w, http.StatusServiceUnavailable, id, errTooManyListens(limit))
		return false
	}
	return true
}

func (h *StreamableHandler) releaseListen() { h.listens.Add(-1) }
