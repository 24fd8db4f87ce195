package transport

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// This file holds stateless serving: modern (2026-07-28) requests, with
// their header checks, and HTTPOptions.Stateless, each in a one-shot Conn.

// isModernRequest decides whether a POST without a session id is a modern
// (2026-07-28) request: its _meta names a modern (or unknown) revision, or
// its MCP-Protocol-Version header names a revision that is not a legacy
// one, or it has no header but carries _meta (other than an initialize).
func isModernRequest(req *protocol.Request, hv string) bool {
	if hv != "" && !protocol.IsLegacy(hv) {
		return true
	}
	if req == nil {
		return false
	}
	meta, err := req.Meta()
	if err != nil {
		return hv == "" && req.Method != protocol.MethodInitialize
	}
	if v := meta.ProtocolVersion; v != "" && !protocol.IsLegacy(v) {
		return true
	}
	if hv == "" && req.Method != protocol.MethodInitialize {
		return meta.ProtocolVersion != "" || meta.ClientCapabilities != nil || meta.ClientInfo != nil
	}
	return false
}

// serveModern validates a modern request's headers against its body and
// serves it in a one-shot Conn.
func (h *StreamableHandler) serveModern(w http.ResponseWriter, r *http.Request, msg protocol.Message, hv string) {
	req, ok := msg.(*protocol.Request)
	if !ok {
		badRequest(w, protocol.ID{}, "clients of protocol "+protocol.LatestVersion+" do not send responses")
		return
	}
	fail := func(status int, e *protocol.Error) { writeJSONError(w, status, req.ID, e) }
	mismatch := func(format string, args ...any) {
		fail(http.StatusBadRequest, protocol.Errorf(protocol.CodeHeaderMismatch, "Header mismatch: "+format, args...))
	}
	if req.IsCall() {
		if hv == "" {
			mismatch("the %s header is required", HeaderProtocolVersion)
			return
		}
		meta, err := req.Meta()
		if err != nil {
			fail(http.StatusBadRequest, protocol.Errorf(protocol.CodeInvalidParams, "Invalid params: %v", err))
			return
		}
		if meta.ProtocolVersion == "" {
			fail(http.StatusBadRequest, protocol.NewError(protocol.CodeInvalidParams, "Invalid params: _meta must carry "+protocol.MetaProtocolVersion))
			return
		}
		if meta.ClientCapabilities == nil {
			fail(http.StatusBadRequest, protocol.NewError(protocol.CodeInvalidParams, "Invalid params: _meta must carry "+protocol.MetaClientCapabilities))
			return
		}
		if hv != meta.ProtocolVersion {
			mismatch("%s header %q does not match _meta %s %q", HeaderProtocolVersion, hv, protocol.MetaProtocolVersion, meta.ProtocolVersion)
			return
		}
		if v := meta.ProtocolVersion; !protocol.IsSupported(v) || protocol.EraOf(v) != protocol.Modern {
			fail(http.StatusBadRequest, protocol.NewError(protocol.CodeUnsupportedProtocolVersion, "Unsupported protocol version").
				WithData(protocol.UnsupportedProtocolVersionData{Supported: protocol.SupportedVersions(), Requested: v}))
			return
		}
		if e := checkStandardHeaders(r.Header, req); e != nil {
			fail(http.StatusBadRequest, e)
			return
		}
		if h.isClosing() {
			fail(http.StatusServiceUnavailable, errShuttingDown)
			return
		}
	}
	version := hv
	if protocol.EraOf(version) != protocol.Modern {
		version = protocol.LatestVersion
	}
	req.Extra = requestInfo(r, "", h.opts.Principal(r))
	h.serveOneShot(w, r, req, ConnInfo{Stateless: true, Version: version}, true)
}

// checkStandardHeaders checks Mcp-Method and Mcp-Name against the body
// (2026-07-28 "Server Validation").
func checkStandardHeaders(hdr http.Header, req *protocol.Request) *protocol.Error {
	mismatch := func(format string, args ...any) *protocol.Error {
		return protocol.Errorf(protocol.CodeHeaderMismatch, "Header mismatch: "+format, args...)
	}
	methods := hdr.Values(HeaderMethod)
	switch {
	case len(methods) == 0:
		return mismatch("the %s header is required", HeaderMethod)
	case len(methods) > 1:
		return mismatch("more than one %s header", HeaderMethod)
	case strings.Trim(methods[0], " \t") != req.Method:
		return mismatch("%s header %q does not match the body's method %q", HeaderMethod, methods[0], req.Method)
	}
	want, required, ok := nameParam(req.Method, req.Params)
	if !ok {
		return nil
	}
	names := hdr.Values(HeaderName)
	if len(names) == 0 {
		if required {
			return mismatch("the %s header is required for %s", HeaderName, req.Method)
		}
		return nil
	}
	if len(names) > 1 {
		return mismatch("more than one %s header", HeaderName)
	}
	got, err := DecodeHeaderValue(names[0])
	if err != nil {
		return mismatch("%s header: %v", HeaderName, strings.TrimPrefix(err.Error(), "transport: "))
	}
	if got != want {
		return mismatch("%s header value %q does not match body value %q", HeaderName, got, want)
	}
	return nil
}

// nameParam returns the body value Mcp-Name mirrors for method, whether
// the header is required, and whether the method has one at all.
func nameParam(method string, params []byte) (value string, required, ok bool) {
	var field string
	switch method {
	case protocol.MethodToolsCall, protocol.MethodPromptsGet:
		field, required = "name", true
	case protocol.MethodResourcesRead:
		field, required = "uri", true
	case protocol.MethodTasksGet, protocol.MethodTasksUpdate, protocol.MethodTasksCancel:
		field = "taskId" // tasks extension: validated when sent
	default:
		return "", false, false
	}
	var p struct {
		Name   string `json:"name"`
		URI    string `json:"uri"`
		TaskID string `json:"taskId"`
	}
	if len(params) > 0 {
		_ = protocol.Unmarshal(params, &p) // a bad body is the handler's to report
	}
	switch field {
	case "name":
		return p.Name, required, true
	case "uri":
		return p.URI, required, true
	}
	return p.TaskID, required, true
}

// modernStatus is the HTTP status of a modern request answered directly
// with an error (2026-07-28: unknown methods get 404, malformed or
// unservable requests 400).
func modernStatus(code int64) int {
	switch code {
	case protocol.CodeMethodNotFound:
		return http.StatusNotFound
	case protocol.CodeHeaderMismatch, protocol.CodeMissingRequiredClientCapability,
		protocol.CodeUnsupportedProtocolVersion, protocol.CodeInvalidRequest, protocol.CodeParseError:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// oneShot is the Conn of one stateless request: Read returns the message,
// Write forwards what relates to it, and it ends with the answer.
type oneShot struct {
	chanConn // no input after msg: Read waits for the close
	h        *StreamableHandler
	msg      protocol.Message
	id       protocol.ID // the request's id; the zero ID for a notification or a batch
	out      chan outEvent

	batch   *protocol.Batch // the batch, when msg is one
	answers bool            // an answer will be written: msg is a call, or a batch with calls or invalid elements
	listen  bool            // msg is a subscriptions/listen request

	mu    sync.Mutex
	read  bool
	final bool
}

func (h *StreamableHandler) newOneShot(msg protocol.Message) *oneShot {
	c := &oneShot{chanConn: chanConn{done: make(chan struct{})}, h: h, msg: msg, out: make(chan outEvent, 16)}
	switch m := msg.(type) {
	case *protocol.Request:
		c.id, c.answers, c.listen = m.ID, m.IsCall(), m.Method == protocol.MethodSubscriptionsListen
	case *protocol.Batch:
		ids, _, _ := callIDs(m)
		c.batch, c.answers = m, len(ids) > 0 || len(m.Invalid) > 0
	}
	h.mu.Lock()
	h.oneShots[c] = struct{}{}
	h.mu.Unlock()
	return c
}

// Read implements Conn.
func (c *oneShot) Read(ctx context.Context) (protocol.Message, error) {
	c.mu.Lock()
	if !c.read {
		c.read = true
		m := c.msg
		c.msg = nil
		c.mu.Unlock()
		return m, nil
	}
	c.mu.Unlock()
	if !c.answers {
		return nil, io.EOF // notifications: nothing more will come
	}
	// Nothing comes in: this waits for the close (the client went away),
	// which abandons the call, not answered as after a peer's end of input
	// (io.EOF), or for ctx.
	return c.chanConn.Read(ctx)
}

// Write implements Conn: messages related to the request go on its
// answer; anything else has nowhere to go and is dropped.
//
// The answer to a batch is the message written with WithBatchReply, and
// every message related to one of its calls goes on that answer too.
func (c *oneShot) Write(ctx context.Context, msg protocol.Message) error {
	resp, isResp := msg.(*protocol.Response)
	var related, final bool
	if b, ok := BatchReply(ctx, msg); ok {
		related, final = b == c.batch, true
	} else if isResp {
		related, final = resp.ID == c.id && c.batch == nil, true
	} else {
		id, ok := RelatedRequest(ctx)
		related = ok && (id == c.id || c.batch != nil)
	}
	c.mu.Lock()
	if !related || c.final || !c.answers {
		c.mu.Unlock()
		c.h.logger.Debug("dropping message with no stream on a stateless request")
		return nil
	}
	c.final = final
	c.mu.Unlock()
	buf := getBuf()
	b, err := protocol.AppendMessage(*buf, msg)
	if err != nil || len(b) == 0 {
		putBuf(buf)
		if err != nil {
			return fmt.Errorf("transport: encoding message: %w", err)
		}
		// An empty batch: every call was dropped, as the Conn is ending.
		return c.Close()
	}
	*buf = b
	ev := outEvent{data: buf, final: final}
	if isResp && resp.Error != nil {
		ev.code = resp.Error.Code
	}
	return sendOrFree(ctx, c.out, ev, buf, c.done)
}

// Close implements Conn.
func (c *oneShot) Close() error {
	c.shut(func() {
		c.h.mu.Lock()
		delete(c.h.oneShots, c)
		c.h.mu.Unlock()
	})
	return nil
}

// CloseStream implements the stream-closing interface of the session Conn;
// stateless streams cannot be resumed, so it always fails.
func (c *oneShot) CloseStream(id protocol.ID) error {
	return fmt.Errorf("transport: the stream of request %s cannot be resumed (stateless request)", id)
}

// serveOneShot serves a request of no session (a stateless handler's, or
// one of the modern revision) on a Conn of its own, and answers the POST
// with what the engine writes (writeOneShot); a notification gets 202
// Accepted. modern sets the status of an error answer by its code.
func (h *StreamableHandler) serveOneShot(w http.ResponseWriter, r *http.Request, msg protocol.Message, info ConnInfo, modern bool) {
	c := h.newOneShot(msg)
	if !c.answers {
		h.connect(c, info)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if h.isClosing() {
		c.Close()
		writeJSONError(w, http.StatusServiceUnavailable, c.id, errShuttingDown)
		return
	}
	if c.listen {
		if !h.acquireListen(w, c.id) {
			c.Close()
			return
		}
		defer h.releaseListen()
	}
	h.callStarted()
	defer h.callEnded()
	defer c.Close()
	defer c.drainOut()
	h.connect(c, info)
	h.writeOneShot(w, r, c, modern)
}

// drainOut gives back the buffers of messages never written.
func (c *oneShot) drainOut() {
	for {
		select {
		case ev := <-c.out:
			putBuf(ev.data)
		default:
			return
		}
	}
}

// writeOneShot writes what the engine sends on c to the POST's answer: a
// JSON body when the response comes first (the answer is JSON only in
// JSON-response mode, but for subscriptions/listen), an SSE stream
// otherwise, until the response, the client's going or the Conn's end.
func (h *StreamableHandler) writeOneShot(w http.ResponseWriter, r *http.Request, c *oneShot, modern bool) {
	committed := false
	out := getBuf()
	defer putBuf(out)
	sw := newSSEWriter(w, out, "")
	commit := func() {
		committed = true
		setSSEHeaders(w)
		w.WriteHeader(http.StatusOK)
	}
	// A subscriptions/listen answer is a stream by nature: never JSON.
	jsonOnly := h.opts.JSONResponse && !c.listen
	keepAlive := h.opts.KeepAlive
	if jsonOnly {
		keepAlive = 0 // nothing to keep alive: the answer is one body
	}
	ticks := newKeepAliveTicks(keepAlive)
	defer ticks.stop()
	for {
		var ev outEvent
		select {
		case ev = <-c.out:
		case <-ticks.C:
			if !committed {
				commit()
			}
			sw.keepAlive()
			if !sw.flush() {
				return
			}
			continue
		case <-r.Context().Done():
			return // the client went away: closing the Conn cancels the request
		case <-c.done:
			select {
			case ev = <-c.out:
			default:
				if !committed {
					writeJSONError(w, http.StatusServiceUnavailable, c.id, errShuttingDown)
				}
				return
			}
		}
		if !committed {
			if ev.final {
				status := http.StatusOK
				if modern {
					status = modernStatus(ev.code)
				}
				writeJSONBody(w, status, *ev.data)
				putBuf(ev.data)
				return
			}
			if jsonOnly {
				putBuf(ev.data)
				continue
			}
			commit()
		}
		if final := sw.batch(ev, c.out); !sw.flush() || final {
			return
		}
	}
}
