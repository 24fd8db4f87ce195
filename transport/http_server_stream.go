package transport

import (
	"net/http"
	"sync"
	"time"
)

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

// outEvent is one message on its way to an HTTP response.
type outEvent struct {
	seq   int64   // event sequence number; 0 when the stream has no event ids
	data  *[]byte // the encoded message (pooled; the receiver puts it back)
	final bool    // the response that ends the stream
	code  int64   // error code of a final error response
}

// coalesceWindow is how long a new SSE response (a GET stream) may hold
// back its headers (and priming event) waiting for its first message, so
// that a quick first message travels in one write. The answer to a POST
// waits HTTPOptions.JSONWindow instead.
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
//
// jsonFirst marks the answer to a POST whose headers are not written
// yet: if the response is the first event and comes within JSONWindow,
// it is written as one application/json body; anything else first (a
// message, the window passing, the stream closed for polling) commits
// the answer to SSE, with its priming event. The commit is recorded in
// st.sse under st.mu, so from then on send numbers and stores the
// response; one sent before is already in sk.ch and still goes as JSON.
func (h *StreamableHandler) pump(w http.ResponseWriter, r *http.Request, sess *httpSession, st *stream, sk *sink, out *[]byte, pre []outEvent, jsonFirst bool) {
	sw := newSSEWriter(w, out, st.name)
	flush := func() bool {
		if !sw.flush() {
			return false
		}
		if sw.last > 0 && st == sess.standalone {
			st.delivered.Store(sw.last)
		}
		return true
	}
	committed := !jsonFirst // the SSE headers are written
	// first handles the first event of an uncommitted answer: the
	// response becomes the JSON body (true); anything else commits.
	first := func(ev outEvent) bool {
		if committed {
			return false
		}
		if ev.final {
			writeJSONBody(w, http.StatusOK, *ev.data)
			putBuf(ev.data)
			return true
		}
		committed = true
		h.commitSSE(w, sess, st, out)
		return false
	}
	// seal commits an answer that has no event yet to SSE on the stream's
	// side, and returns a response sent before it, if any.
	seal := func() (outEvent, bool) {
		st.mu.Lock()
		st.sse = true
		st.mu.Unlock()
		select {
		case ev := <-sk.ch:
			return ev, true
		default:
			return outEvent{}, false
		}
	}
	for i, ev := range pre {
		if sw.frame(ev) {
			for _, rest := range pre[i+1:] {
				putBuf(rest.data)
			}
			sw.write()
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
	// events writes ev and the events queued behind it; true when the
	// answer is over.
	events := func(ev outEvent) bool {
		if first(ev) {
			return true
		}
		if sw.batch(ev, sk.ch) {
			sw.write()
			return true
		}
		if !flush() {
			return true
		}
		pending = false
		return false
	}
	wait := coalesceWindow
	switch {
	case jsonFirst:
		wait = h.opts.jsonWindow()
	case !pending:
		wait = h.opts.KeepAlive
	}
	var timer *time.Timer
	var tick <-chan time.Time
	if wait > 0 {
		timer = getTimer(wait)
		defer putTimer(timer)
		tick = timer.C
	}
	replayed := sk.after // a shared GET stream: the last event taken from the store
	// A followed stream: ask now and then whether its request still runs.
	var probe *time.Timer
	var probeC <-chan time.Time
	probing := false // a probe is unanswered
	if st.follow {
		probe = time.NewTimer(h.opts.reprobeEvery())
		defer probe.Stop()
		probeC = probe.C
	}
	for {
		select {
		case <-probeC:
			if probing {
				h.logger.Warn("followed MCP stream is gone: no replica runs its request", "session", sess.id, "stream", st.name)
				flush()
				return // the client resumes, and gets 410 Gone
			}
			sess.probe(r.Context(), st.name)
			probing = true
			probe.Reset(h.opts.ProbeTimeout)
		case <-st.alive: // nil but for a followed stream
			probing = false
			probe.Reset(h.opts.reprobeEvery())
		case <-sk.wake: // nil but for the GET stream of a shared session
			evs, err := sess.replay(r.Context(), st.name, replayed)
			if err != nil {
				h.logger.Warn("reading a shared MCP session's GET stream from the event store failed", "session", sess.id, "error", err)
				flush()
				return // the client reconnects with Last-Event-ID
			}
			for i, ev := range evs {
				if ev.seq <= replayed {
					putBuf(ev.data)
					continue
				}
				replayed = ev.seq
				if st.follow && isAnswer(*ev.data) {
					sw.frame(ev)
					for _, rest := range evs[i+1:] {
						putBuf(rest.data)
					}
					sw.write()
					return
				}
				sw.frame(ev)
			}
			if len(*out) == 0 && !pending {
				continue
			}
			if probe != nil {
				probing = false
				probe.Reset(h.opts.reprobeEvery())
			}
			if !flush() {
				return
			}
			pending = false
		case ev := <-sk.ch:
			if events(ev) {
				return
			}
		case <-tick:
			sealed := false
			if !committed {
				if ev, ok := seal(); ok {
					sealed = true
					if events(ev) {
						return
					}
				} else {
					committed = true
					h.commitSSE(w, sess, st, out)
				}
			}
			if !sealed {
				if !pending {
					sw.keepAlive()
				}
				if !flush() {
					return
				}
				pending = false
			}
			if h.opts.KeepAlive > 0 {
				timer.Reset(h.opts.KeepAlive)
			} else {
				tick = nil
			}
		case <-sk.end:
			if !committed {
				if ev, ok := seal(); ok && events(ev) {
					return
				}
				if !committed {
					committed = true
					h.commitSSE(w, sess, st, out)
				}
			}
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
					if first(ev) {
						return
					}
					if sw.frame(ev) {
						sw.write()
						return
					}
					continue
				default:
				}
				break
			}
			if !committed {
				h.commitSSE(w, sess, st, out)
			}
			flush()
			return
		}
	}
}
