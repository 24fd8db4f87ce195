package transport

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func event(data string, seq int64, final bool) outEvent {
	b := getBuf()
	*b = append((*b)[:0], data...)
	return outEvent{data: b, seq: seq, final: final}
}

// TestSSEWriterBatch: batch frames an event and those queued behind it
// into one write, with event ids when numbered; it stops at the final
// event (leaving later ones queued) and at maxHeldOutput bytes.
func TestSSEWriterBatch(t *testing.T) {
	for _, tc := range []struct {
		name      string
		first     outEvent
		queued    []outEvent
		wantFinal bool
		want      string
		left      int // events still queued after the batch
	}{{
		name:   "queued events join the write",
		first:  event(`{"a":1}`, 0, false),
		queued: []outEvent{event(`{"b":2}`, 0, false)},
		want:   "event: message\ndata: {\"a\":1}\n\nevent: message\ndata: {\"b\":2}\n\n",
	}, {
		name:      "numbered, up to the final event",
		first:     event(`{"a":1}`, 3, false),
		queued:    []outEvent{event(`{"r":1}`, 4, true), event(`{"late":1}`, 0, false)},
		wantFinal: true,
		want:      "id: S_3\nevent: message\ndata: {\"a\":1}\n\nid: S_4\nevent: message\ndata: {\"r\":1}\n\n",
		left:      1,
	}, {
		name:   "held output is bounded",
		first:  event(`"`+strings.Repeat("x", maxHeldOutput)+`"`, 0, false),
		queued: []outEvent{event(`{"b":2}`, 0, false)},
		left:   1,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			out := getBuf()
			defer putBuf(out)
			sw := newSSEWriter(rec, out, "S")
			ch := make(chan outEvent, len(tc.queued))
			for _, ev := range tc.queued {
				ch <- ev
			}
			if final := sw.batch(tc.first, ch); final != tc.wantFinal {
				t.Errorf("final = %v, want %v", final, tc.wantFinal)
			}
			if len(ch) != tc.left {
				t.Errorf("%d events left queued, want %d", len(ch), tc.left)
			}
			for len(ch) > 0 {
				putBuf((<-ch).data)
			}
			if !sw.flush() {
				t.Fatal("flush failed")
			}
			if !rec.Flushed {
				t.Error("not flushed")
			}
			if got := rec.Body.String(); tc.want != "" && got != tc.want {
				t.Errorf("wrote %q, want %q", got, tc.want)
			}
			if len(*out) != 0 {
				t.Errorf("%d bytes held after flush", len(*out))
			}
			sw.keepAlive()
			sw.write()
			if !strings.HasSuffix(rec.Body.String(), string(sseKeepAlive)) {
				t.Error("keep-alive not written")
			}
		})
	}
}
