package transport

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

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
// bytes, within the read deadline timeout, tracked in a: see
// arrivals.begin) and decodes the one message in it. On failure it has
// written the error response and returns false.
func readMessage(w http.ResponseWriter, r *http.Request, max int64, timeout time.Duration, a *arrivals) (protocol.Message, bool) {
	if mediaType(r.Header.Get("Content-Type")) != mediaJSON {
		writeJSONError(w, http.StatusUnsupportedMediaType, protocol.ID{}, protocol.NewError(protocol.CodeInvalidRequest, "Unsupported Media Type: Content-Type must be application/json"))
		return nil, false
	}
	end := a.begin(w, r, timeout)
	buf, err := readBody(w, r, max)
	end()
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) { // see arrivals.begin
			w.Header().Set("Connection", "close")
			if a.shuttingDown() {
				w.Header().Set("Retry-After", "1")
				writeJSONError(w, http.StatusServiceUnavailable, protocol.ID{}, protocol.NewError(protocol.CodeInternalError, "Service unavailable: the server is shutting down and the request body had not arrived"))
				return nil, false
			}
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

// servePost serves a POST: it checks the headers, reads the message and
// passes it on by kind: a batch, a request of the modern revision, one
// for a stateless handler, or a message of a legacy session (servePostIn).
func (h *StreamableHandler) servePost(w http.ResponseWriter, r *http.Request) {
	// A wrong Content-Type (415, from readMessage) is reported before a
	// wrong Accept (406).
	accept := r.Header.Values("Accept")
	if mediaType(r.Header.Get("Content-Type")) == mediaJSON &&
		(!accepts(accept, mediaJSON) || (!h.opts.JSONResponse && !accepts(accept, mediaSSE))) {
		writeJSONError(w, http.StatusNotAcceptable, protocol.ID{}, protocol.NewError(protocol.CodeInvalidRequest, "Not Acceptable: the client must accept both application/json and text/event-stream"))
		return
	}
	msg, ok := readMessage(w, r, h.opts.MaxBodyBytes, h.opts.ReadBodyTimeout, &h.arrivals)
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
	h.servePostIn(w, r, msg, req, id, sid, principal)
}

// servePostIn serves msg, POSTed for the legacy session sid (none for
// initialize, which starts one): req is msg when it is a request, and id
// its id.
func (h *StreamableHandler) servePostIn(w http.ResponseWriter, r *http.Request, msg protocol.Message, req *protocol.Request, id protocol.ID, sid, principal string) {
	var (
		sess  *httpSession
		isNew bool
	)
	if sid == "" {
		if req == nil || !req.IsCall() || req.Method != protocol.MethodInitialize {
			badRequest(w, id, "missing "+HeaderSessionID+" header (send initialize first to start a session)")
			return
		}
		if sess = h.startSession(w, r, principal, req); sess == nil {
			return
		}
		isNew = true
	} else if sess = h.find(w, r, id, sid, principal); sess == nil {
		return
	}
	switch {
	case req == nil: // a response to a request the server sent
		h.serveResponse(w, r, sess, msg)
	case !req.IsCall():
		h.accept(w, r, sess, req)
	case h.isClosing():
		writeJSONError(w, http.StatusServiceUnavailable, req.ID, errShuttingDown)
	default:
		h.serveCall(w, r, sess, req, isNew)
	}
}

// startSession starts the session that the initialize request init
// opens, or answers the POST with why it cannot (and returns nil).
func (h *StreamableHandler) startSession(w http.ResponseWriter, r *http.Request, principal string, init *protocol.Request) *httpSession {
	sess, err := h.newSession(r.Context(), principal, init)
	switch {
	case errors.Is(err, errSessionLimit):
		h.refuseSession(w, init.ID)
	case errors.Is(err, ErrClosed):
		writeJSONError(w, http.StatusServiceUnavailable, init.ID, errShuttingDown)
	case err != nil:
		h.logger.Error("starting a shared MCP session failed", "error", err)
		writeJSONError(w, http.StatusServiceUnavailable, init.ID, errStoreDown)
	default:
		return sess
	}
	return nil
}

// serveResponse hands sess msg, the client's answer to a request the
// server sent: 202 Accepted. In a shared session, an answer to a request
// another replica sent goes to it over the bus.
func (h *StreamableHandler) serveResponse(w http.ResponseWriter, r *http.Request, sess *httpSession, msg protocol.Message) {
	if resp, ok := msg.(*protocol.Response); ok && h.shared != nil && h.shared.bus != nil && !h.shared.ownsID(resp.ID) {
		// Sent by another replica serving the session: the one
		// waiting for it takes it from the session's topic.
		raw, _ := protocol.AppendMessage(nil, resp)
		if err := h.shared.publish(r.Context(), sess.id, busMsg{Kind: busResponse, Msg: raw}); err != nil {
			h.logger.Error("passing a client's answer to another replica failed", "session", sess.id, "error", err)
			writeJSONError(w, http.StatusServiceUnavailable, protocol.ID{}, errStoreDown)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if !sess.deliver(r.Context(), msg) {
		writeJSONError(w, http.StatusNotFound, protocol.ID{}, errNoSession)
		return
	}
	w.WriteHeader(http.StatusAccepted)
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

// accept hands sess msg, a notification or a batch of notifications and
// responses, which get no answer: 202 Accepted.
func (h *StreamableHandler) accept(w http.ResponseWriter, r *http.Request, sess *httpSession, msg protocol.Message) {
	setExtra(msg, requestInfo(r, sess.id, sess.principal))
	if !sess.deliver(r.Context(), msg) {
		writeJSONError(w, http.StatusNotFound, protocol.ID{}, errNoSession)
		return
	}
	sess.cancelled(r.Context(), msg)
	w.WriteHeader(http.StatusAccepted)
}

func (h *StreamableHandler) serveCall(w http.ResponseWriter, r *http.Request, sess *httpSession, req *protocol.Request, isNew bool) {
	st, sk, err := sess.openStream(r, req) // sets req.Extra
	if err != nil {
		h.refuseOpen(w, req.ID, err, fmt.Sprintf("request id %s is already in use by a request in flight", req.ID.Raw()))
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
	if !sess.deliver(r.Context(), req) {
		sess.cancelStream(req.ID)
		return
	}
	h.answer(w, r, sess, st, sk, req.ID)
}

// refuseOpen answers a POST whose stream could not be opened, err being
// from httpSession.openLocked: 400 with inUse when a request in flight
// has one of its ids, 503 past MaxStreamsPerSession, 404 once the session
// has ended.
func (h *StreamableHandler) refuseOpen(w http.ResponseWriter, id protocol.ID, err error, inUse string) {
	switch {
	case errors.Is(err, errDuplicateID):
		badRequest(w, id, inUse)
	case errors.Is(err, errStreamLimit):
		h.refuseStream(w, id)
	default:
		writeJSONError(w, http.StatusNotFound, id, errNoSession)
	}
}

// answer writes what the session sends on st, the stream of a POST
// carrying the request id (the zero ID for a batch): one JSON body, or an
// SSE stream. Unless in JSON-response mode (every answer a JSON body) or
// JSONWindow is negative (every answer SSE), the answer is a JSON body
// when the response is the first message and comes within JSONWindow, and
// an SSE stream otherwise (see pump).
func (h *StreamableHandler) answer(w http.ResponseWriter, r *http.Request, sess *httpSession, st *stream, sk *sink, id protocol.ID) {
	if st.json {
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
	out := getBuf()
	defer putBuf(out)
	if h.opts.JSONWindow < 0 {
		h.commitSSE(w, sess, st, out)
		h.pump(w, r, sess, st, sk, out, nil, false)
		return
	}
	h.pump(w, r, sess, st, sk, out, nil, true)
}

// commitSSE starts the SSE answer of a POST: its headers, and the priming
// event in out (empty) when the session's revision primes streams.
func (h *StreamableHandler) commitSSE(w http.ResponseWriter, sess *httpSession, st *stream, out *[]byte) {
	setSSEHeaders(w)
	w.WriteHeader(http.StatusOK)
	if sess.primes() {
		*out = appendSSEPriming((*out)[:0], st.name, 0, h.opts.RetryInterval)
	}
}
