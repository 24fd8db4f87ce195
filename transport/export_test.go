package transport

import (
	"io"
	"time"
)

// SSEEventForTest is an event read by the SSE parser.
type SSEEventForTest struct {
	Type, Data, ID string
	HasID          bool
	Retry          time.Duration
	// TooLarge is set for an event over the limit; TooLargeID is the id of
	// its message, as recovered.
	TooLarge   bool
	TooLargeID string
}

// ParseSSEForTest runs the SSE parser over r with the size limit max and
// returns every event up to the first error (io.EOF at the end).
func ParseSSEForTest(r io.Reader, max int) ([]SSEEventForTest, error) {
	p := newSSEReader(r, max)
	var out []SSEEventForTest
	for {
		ev, err := p.next()
		if err != nil {
			return out, err
		}
		e := SSEEventForTest{Type: ev.Type, Data: string(ev.Data), ID: ev.ID, HasID: ev.HasID, Retry: ev.Retry}
		if ev.TooLarge != nil {
			e.TooLarge, e.TooLargeID = true, ev.TooLarge.ID.String()
		}
		out = append(out, e)
	}
}

// StoredEventsForTest reports how many events a MemoryEventStore holds.
func StoredEventsForTest(s *MemoryEventStore) int { return s.len() }

// EvictionRecordsForTest reports how many streams of session a
// MemoryEventStore remembers discarded events of.
func EvictionRecordsForTest(s *MemoryEventStore, session string) int {
	return s.evictionRecords(session)
}

// SessionTopicForTest is the bus topic of the shared session id.
func SessionTopicForTest(id string) string { return sessionTopic(id) }
