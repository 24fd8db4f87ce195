package transport

import (
	"context"
	"fmt"
	"net/http"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// This file holds the serving of JSON-RPC batches POSTed to a Streamable
// HTTP endpoint (protocol revision 2025-03-26 only). The batch is handed
// to the session engine whole, through Read; the engine answers it with
// one message written with WithBatchReply, which is the POST's answer.

// setExtra sets info as the Extra of msg, when it is a request, or of each
// request of the batch msg.
func setExtra(msg protocol.Message, info *HTTPRequestInfo) {
	switch m := msg.(type) {
	case *protocol.Request:
		m.Extra = info
	case *protocol.Batch:
		for _, e := range m.Messages {
			if r, ok := e.(*protocol.Request); ok {
				r.Extra = info
			}
		}
	}
}

// callIDs returns the ids of the calls in b, and false with the id when
// two calls share it.
func callIDs(b *protocol.Batch) ([]protocol.ID, protocol.ID, bool) {
	var ids []protocol.ID
	seen := map[protocol.ID]bool{}
	for _, m := range b.Messages {
		if r, ok := m.(*protocol.Request); ok && r.IsCall() {
			if seen[r.ID] {
				return nil, r.ID, false
			}
			seen[r.ID] = true
			ids = append(ids, r.ID)
		}
	}
	return ids, protocol.ID{}, true
}

// serveBatch serves a POSTed batch. It is refused (400) unless the session
// negotiated protocol.BatchVersion (stateless servers serve it at that
// revision) and the MCP-Protocol-Version header, when present, names it. A batch of notifications and responses only is
// answered 202 once handed to the session; any other is answered like a
// call, with one JSON body (the array of responses) or an SSE stream that
// carries the messages related to its calls and ends with that array.
func (h *StreamableHandler) serveBatch(w http.ResponseWriter, r *http.Request, b *protocol.Batch, sid, hv string) {
	refuse := func(version string) {
		writeJSONError(w, http.StatusBadRequest, protocol.ID{}, protocol.BatchError(version))
	}
	if hv != "" && !protocol.HasBatches(hv) {
		refuse(hv)
		return
	}
	if h.opts.Stateless {
		// Served like a stateless request, as if initialize had
		// negotiated 2025-03-26 (initialize cannot be in a batch).
		setExtra(b, requestInfo(r, "", h.opts.Principal(r)))
		h.serveOneShot(w, r, b, ConnInfo{Stateless: true, Version: protocol.BatchVersion}, false)
		return
	}
	if sid == "" {
		badRequest(w, protocol.ID{}, "missing "+HeaderSessionID+" header (a batch cannot start a session: send initialize first, on its own)")
		return
	}
	sess := h.find(w, r, protocol.ID{}, sid, h.opts.Principal(r))
	if sess == nil {
		return
	}
	if v := sess.negotiated(); !protocol.HasBatches(v) {
		refuse(v)
		return
	}
	ids, dup, ok := callIDs(b)
	if !ok {
		badRequest(w, protocol.ID{}, fmt.Sprintf("request id %s appears twice in the batch", dup.Raw()))
		return
	}
	if len(ids) == 0 && len(b.Invalid) == 0 {
		h.accept(w, r, sess, b)
		return
	}
	if h.isClosing() {
		writeJSONError(w, http.StatusServiceUnavailable, protocol.ID{}, errShuttingDown)
		return
	}
	st, sk, err := sess.openBatchStream(r, b, ids) // sets the requests' Extra
	if err != nil {
		h.refuseOpen(w, protocol.ID{}, err, "a request id of the batch is already in use by a request in flight")
		return
	}
	defer st.detach(sk)
	if !sess.deliver(r.Context(), b) {
		sess.endBatch(b)
		return
	}
	sess.cancelled(r.Context(), b)
	h.answer(w, r, sess, st, sk, protocol.ID{})
}

// openBatchStream registers the stream of a batch whose calls have ids,
// with a connection attached, and sets the Extra of the batch's requests
// to the request info of r. The stream is not resumable: it carries no
// event ids.
func (s *httpSession) openBatchStream(r *http.Request, b *protocol.Batch, ids []protocol.ID) (*stream, *sink, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, err := s.openLocked(r, false, ids...)
	if err != nil {
		return nil, nil, err
	}
	c.st.batch, c.st.ids = b, ids
	setExtra(b, &c.info)
	s.batches[b] = &c.st
	return &c.st, &c.sk, nil
}

// takeBatch unregisters the stream of batch b and returns it (nil when b
// has none: it needed no answer, or was answered already).
func (s *httpSession) takeBatch(b *protocol.Batch) *stream {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.batches[b]
	if st == nil {
		return nil
	}
	delete(s.batches, b)
	for _, id := range st.ids {
		if s.streams[id] == st {
			delete(s.streams, id)
		}
	}
	return st
}

// endBatch ends the stream of batch b without an answer.
func (s *httpSession) endBatch(b *protocol.Batch) {
	if st := s.takeBatch(b); st != nil {
		st.end()
	}
}

// writeBatchReply sends msg, the answer to batch b, as the last message of
// b's stream. An empty batch (every call was cancelled) ends the stream
// without a message.
func (s *httpSession) writeBatchReply(ctx context.Context, b *protocol.Batch, msg protocol.Message) error {
	st := s.takeBatch(b)
	if st == nil {
		return nil
	}
	buf := getBuf()
	data, err := protocol.AppendMessage(*buf, msg)
	if err != nil || len(data) == 0 {
		putBuf(buf)
		st.end()
		if err != nil {
			return fmt.Errorf("transport: encoding message: %w", err)
		}
		return nil
	}
	*buf = data
	var code int64
	if resp, ok := msg.(*protocol.Response); ok && resp.Error != nil {
		code = resp.Error.Code
	}
	return st.send(ctx, buf, true, code)
}
