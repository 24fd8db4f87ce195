package transport

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/fastmcp-go/fastmcp/protocol"
)

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
			if st == nil && sess.foreign(name) {
				h.follow(w, r, sess, name, seq)
				return
			}
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
	h.pump(w, r, sess, st, sk, out, pre, false)
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
