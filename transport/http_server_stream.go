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
//
// The work is a pumper's: pump sets one up with its clocks and runs its
// loop, one method a kind of wake-up.
func (h *StreamableHandler) pump(w http.ResponseWriter, r *http.Request, sess *httpSession, st *stream, sk *sink, out *[]byte, pre []outEvent, jsonFirst bool) {
	p := pumper{
		h: h, w: w, r: r, sess: sess, st: st, sk: sk, out: out,
		sw:        newSSEWriter(w, out, st.name),
		committed: !jsonFirst,
		pending:   true,
		replayed:  sk.after, // a shared GET stream: the last event taken from the store
	}
	if p.replay(pre) {
		return
	}
	wait := coalesceWindow
	switch {
	case jsonFirst:
		wait = h.opts.jsonWindow()
	case !p.pending:
		wait = h.opts.KeepAlive
	}
	if wait > 0 {
		p.timer = getTimer(wait)
		defer putTimer(p.timer)
		p.tick = p.timer.C
	}
	// A followed stream: ask now and then whether its request still runs.
	if st.follow {
		p.probe = time.NewTimer(h.opts.reprobeEvery())
		defer p.probe.Stop()
		p.probeC = p.probe.C
	}
	p.loop()
}

// pumper is one run of pump: the response it writes and where it stands.
type pumper struct {
	h    *StreamableHandler
	w    http.ResponseWriter
	r    *http.Request
	sess *httpSession
	st   *stream
	sk   *sink
	out  *[]byte
	sw   sseWriter

	committed bool  // the SSE headers are written (or the answer is SSE from the start)
	pending   bool  // headers (and priming) not flushed yet
	replayed  int64 // a shared GET stream: the last event taken from the store

	timer *time.Timer // the JSON window, the coalesce window, then keep-alives
	tick  <-chan time.Time

	probe   *time.Timer // a followed stream's probe clock
	probeC  <-chan time.Time
	probing bool // a probe is unanswered
}

// loop waits for what the response needs to do next, until it is over.
func (p *pumper) loop() {
	st, sk := p.st, p.sk
	for {
		var over bool
		select {
		case <-p.probeC:
			over = p.probed()
		case <-st.alive: // nil but for a followed stream
			p.probing = false
			p.probe.Reset(p.h.opts.reprobeEvery())
		case <-sk.wake: // nil but for the GET stream of a shared session
			over = p.woken()
		case ev := <-sk.ch:
			over = p.events(ev)
		case <-p.tick:
			over = p.ticked()
		case <-sk.end:
			p.ended()
			return
		case <-p.r.Context().Done():
			return
		case <-p.sess.done:
			p.sessionDone()
			return
		}
		if over {
			return
		}
	}
}

// flush writes and flushes the output; false when the client is gone.
func (p *pumper) flush() bool {
	if !p.sw.flush() {
		return false
	}
	if p.sw.last > 0 && p.st == p.sess.standalone {
		p.st.delivered.Store(p.sw.last)
	}
	return true
}

// commit writes the SSE headers (and the priming event) of an answer
// that was waiting to be JSON.
func (p *pumper) commit() {
	p.committed = true
	p.h.commitSSE(p.w, p.sess, p.st, p.out)
}

// first handles the first event of an uncommitted answer: the response
// becomes the JSON body (true); anything else commits.
func (p *pumper) first(ev outEvent) bool {
	if p.committed {
		return false
	}
	if ev.final {
		writeJSONBody(p.w, http.StatusOK, *ev.data)
		putBuf(ev.data)
		return true
	}
	p.commit()
	return false
}

// seal commits an answer that has no event yet to SSE on the stream's
// side, and returns a response sent before it, if any.
func (p *pumper) seal() (outEvent, bool) {
	p.st.mu.Lock()
	p.st.sse = true
	p.st.mu.Unlock()
	select {
	case ev := <-p.sk.ch:
		return ev, true
	default:
		return outEvent{}, false
	}
}

// replay writes the replayed events pre first; true when the answer is
// over (the final event was among them, or the client is gone).
func (p *pumper) replay(pre []outEvent) bool {
	for i, ev := range pre {
		if p.sw.frame(ev) {
			for _, rest := range pre[i+1:] {
				putBuf(rest.data)
			}
			p.sw.write()
			return true
		}
	}
	if len(pre) == 0 {
		return false
	}
	p.pending = false
	return !p.flush()
}

// events writes ev and the events queued behind it; true when the answer
// is over.
func (p *pumper) events(ev outEvent) bool {
	if p.first(ev) {
		return true
	}
	if p.sw.batch(ev, p.sk.ch) {
		p.sw.write()
		return true
	}
	if !p.flush() {
		return true
	}
	p.pending = false
	return false
}

// probed runs on the probe clock of a followed stream: it asks the
// replicas whether the request still runs, or ends the response when the
// last probe went unanswered (the client resumes, and gets 410 Gone).
func (p *pumper) probed() bool {
	if p.probing {
		p.h.logger.Warn("followed MCP stream is gone: no replica runs its request", "session", p.sess.id, "stream", p.st.name)
		p.flush()
		return true
	}
	p.sess.probe(p.r.Context(), p.st.name)
	p.probing = true
	p.probe.Reset(p.h.opts.ProbeTimeout)
	return false
}

// woken writes the events appended to the store since the last replay
// (the GET stream of a shared session, or a followed stream); true when
// the answer is over.
func (p *pumper) woken() bool {
	evs, err := p.sess.replay(p.r.Context(), p.st.name, p.replayed)
	if err != nil {
		p.h.logger.Warn("reading a shared MCP session's GET stream from the event store failed", "session", p.sess.id, "error", err)
		p.flush()
		return true // the client reconnects with Last-Event-ID
	}
	for i, ev := range evs {
		if ev.seq <= p.replayed {
			putBuf(ev.data)
			continue
		}
		p.replayed = ev.seq
		if p.st.follow && isAnswer(*ev.data) {
			p.sw.frame(ev)
			for _, rest := range evs[i+1:] {
				putBuf(rest.data)
			}
			p.sw.write()
			return true
		}
		p.sw.frame(ev)
	}
	if len(*p.out) == 0 && !p.pending {
		return false
	}
	if p.probe != nil {
		p.probing = false
		p.probe.Reset(p.h.opts.reprobeEvery())
	}
	if !p.flush() {
		return true
	}
	p.pending = false
	return false
}

// ticked runs on the response's clock: the JSON window has passed (the
// answer commits to SSE), the coalesce window has (the headers go out), or
// it is time for a keep-alive. True when the answer is over.
func (p *pumper) ticked() bool {
	sealed := false
	if !p.committed {
		if ev, ok := p.seal(); ok {
			sealed = true
			if p.events(ev) {
				return true
			}
		} else {
			p.commit()
		}
	}
	if !sealed {
		if !p.pending {
			p.sw.keepAlive()
		}
		if !p.flush() {
			return true
		}
		p.pending = false
	}
	if ka := p.h.opts.KeepAlive; ka > 0 {
		p.timer.Reset(ka)
	} else {
		p.tick = nil
	}
	return false
}

// ended ends a response whose stream ended early: cancelled, or closed
// for polling (then with a retry field, telling the client to come back).
func (p *pumper) ended() {
	if !p.committed {
		if ev, ok := p.seal(); ok && p.events(ev) {
			return
		}
		if !p.committed {
			p.commit()
		}
	}
	if p.sk.resume.Load() {
		*p.out = appendSSERetry(*p.out, p.h.opts.RetryInterval)
		*p.out = append(*p.out, '\n')
	}
	p.flush()
}

// sessionDone ends the response when the session has ended, writing what
// was queued before (a response sent just before Shutdown closed the
// session).
func (p *pumper) sessionDone() {
	for {
		select {
		case ev := <-p.sk.ch:
			if p.first(ev) {
				return
			}
			if p.sw.frame(ev) {
				p.sw.write()
				return
			}
			continue
		default:
		}
		break
	}
	if !p.committed {
		p.h.commitSSE(p.w, p.sess, p.st, p.out)
	}
	p.flush()
}
