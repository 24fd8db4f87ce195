package transport

import (
	"net/http"
	"time"
)

// maxHeldOutput is how many bytes of queued events an SSE writer gathers
// into one write before it writes and flushes them.
const maxHeldOutput = 32 << 10

// sseWriter writes the events of one SSE response: the writing shared by
// the three loops that feed one (pump for a Streamable HTTP session's
// stream, writeOneShot for a stateless request, SSEHandler.serveStream for
// a legacy SSE session). Events are framed into out (pooled, owned by the
// caller), then written and flushed in one go; the write deadline comes
// from the progressWriter around w (withWriteTimeout).
type sseWriter struct {
	w    http.ResponseWriter
	rc   http.ResponseController // by value: a pointer here would escape to the heap
	out  *[]byte
	name string // the stream's name in event ids
	last int64  // the sequence number of the last event framed; 0 if none
}

func newSSEWriter(w http.ResponseWriter, out *[]byte, name string) sseWriter {
	return sseWriter{w: w, rc: *http.NewResponseController(w), out: out, name: name}
}

// frame adds ev to the output, with its event id when it has one, and
// gives its buffer back; it reports whether ev ends the stream.
func (s *sseWriter) frame(ev outEvent) (final bool) {
	if ev.seq > 0 {
		*s.out = appendSSEEventID(*s.out, s.name, ev.seq)
		s.last = ev.seq
	}
	*s.out = appendSSEMessage(*s.out, "", *ev.data)
	putBuf(ev.data)
	return ev.final
}

// batch frames ev and then the events already queued on ch behind it, up
// to the final one or maxHeldOutput bytes; it reports whether the final
// event was framed.
func (s *sseWriter) batch(ev outEvent, ch <-chan outEvent) (final bool) {
	final = s.frame(ev)
	for !final && len(*s.out) < maxHeldOutput {
		select {
		case ev = <-ch:
			final = s.frame(ev)
			continue
		default:
		}
		break
	}
	return final
}

// keepAlive adds an SSE comment line, which keeps a quiet stream's
// connection open.
func (s *sseWriter) keepAlive() { *s.out = append(*s.out, sseKeepAlive...) }

// write writes the output, if any, without flushing; false when the
// client is gone.
func (s *sseWriter) write() bool {
	if len(*s.out) == 0 {
		return true
	}
	_, err := s.w.Write(*s.out)
	*s.out = (*s.out)[:0]
	return err == nil
}

// flush writes the output and flushes it to the client; false when the
// client is gone.
func (s *sseWriter) flush() bool {
	return s.write() && s.rc.Flush() == nil
}

// keepAliveTicks is the keep-alive clock of an SSE response: C fires
// every interval; it is nil (never ready) when keep-alives are off.
type keepAliveTicks struct {
	C <-chan time.Time
	t *time.Ticker
}

// newKeepAliveTicks starts the clock; d <= 0 means no keep-alives.
func newKeepAliveTicks(d time.Duration) keepAliveTicks {
	if d <= 0 {
		return keepAliveTicks{}
	}
	t := time.NewTicker(d)
	return keepAliveTicks{C: t.C, t: t}
}

// stop stops the clock.
func (k keepAliveTicks) stop() {
	if k.t != nil {
		k.t.Stop()
	}
}
