package transport

import (
	"context"
	"sync"

	"github.com/fastmcp-go/fastmcp/store"
)

// MemoryEventStoreOptions configures a MemoryEventStore. The zero value is
// ready to use.
type MemoryEventStoreOptions struct {
	// MaxEvents bounds the events kept per session; the oldest are
	// discarded first. Zero means 1024.
	MaxEvents int
	// MaxBytes bounds the bytes of event data kept per session; the oldest
	// events are discarded first (the newest event is always kept). Zero
	// means 8 MiB.
	MaxBytes int
	// MaxTotalBytes bounds the bytes of event data kept across all
	// sessions: past it the oldest events of any session are discarded
	// first (a later resumption from before them gets ErrEventsLost), so
	// that many sessions cannot together hold more. Zero means
	// DefaultMaxTotalEventBytes; negative means no bound but the
	// per-session ones.
	MaxTotalBytes int64
}

// DefaultMaxTotalEventBytes is the MemoryEventStore's default bound on the
// event data it keeps across all sessions (256 MiB): without it, 8 MiB a
// session times 1,000 sessions would let one client make a server hold
// 8 GiB.
const DefaultMaxTotalEventBytes = 256 << 20

// MemoryEventStore is an EventStore that keeps events in memory, bounded
// per session. It is the Streamable HTTP handler's default. It starts no
// goroutines and is safe for concurrent use.
//
// To report ErrEventsLost it remembers, per stream, the last event it
// discarded, for the streams of the last MaxEvents discarded events (so
// that its memory stays bounded however many streams a session has): a
// replay of an older stream whose events were all discarded finds nothing
// to replay rather than ErrEventsLost.
type MemoryEventStore struct {
	maxEvents int
	maxBytes  int
	maxTotal  int64 // <= 0: no global bound

	mu       sync.RWMutex
	sessions map[string]*memSession

	// The global bound: every event held, in append order across
	// sessions. Lock order: a session's mu, then gmu; gmu is never held
	// while taking a session's mu.
	gmu   sync.Mutex
	fifo  []*eventRecord // oldest first from fhead; dropped ones wait their turn
	fhead int
	dead  int   // dropped records in fifo[fhead:]
	total int64 // bytes of the records not dropped
}

// eventRecord is the global view of one event: its session and size, and
// whether its bytes still count (dropped: discarded, or about to be).
// Guarded by MemoryEventStore.gmu.
type eventRecord struct {
	ms      *memSession
	size    int
	dropped bool
}

type memSession struct {
	mu     sync.Mutex
	last   map[string]int64 // per stream numbered by AppendNext, its last seq
	events []memEvent       // oldest first; events[head:] are live
	head   int
	bytes  int
	lost   *memLost // nil until an event is discarded
}

// memLost records discarded events: per stream, the highest discarded seq,
// for the streams of the last maxEvents discards. order lists those
// discards, oldest first from head, and a stream's entry goes when the last
// discard that set it leaves the list. Without the bound a long-lived
// session would keep an entry for every stream it ever had.
type memLost struct {
	seq   map[string]int64
	order []memEvent // stream and seq of each recent discard (no data)
	head  int
}

type memEvent struct {
	stream string
	seq    int64
	data   []byte
	rec    *eventRecord // nil in memLost.order
}

// NewMemoryEventStore returns an empty store. opts may be nil.
func NewMemoryEventStore(opts *MemoryEventStoreOptions) *MemoryEventStore {
	s := &MemoryEventStore{maxEvents: 1024, maxBytes: 8 << 20, sessions: map[string]*memSession{}}
	if opts != nil {
		if opts.MaxEvents > 0 {
			s.maxEvents = opts.MaxEvents
		}
		if opts.MaxBytes > 0 {
			s.maxBytes = opts.MaxBytes
		}
	}
	s.maxTotal = DefaultMaxTotalEventBytes
	if opts != nil && opts.MaxTotalBytes != 0 {
		s.maxTotal = opts.MaxTotalBytes
	}
	return s
}

func (s *MemoryEventStore) session(id string, create bool) *memSession {
	s.mu.RLock()
	ms := s.sessions[id]
	s.mu.RUnlock()
	if ms != nil || !create {
		return ms
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ms = s.sessions[id]; ms == nil {
		ms = &memSession{}
		s.sessions[id] = ms
	}
	return ms
}

var _ store.SequencedEventStore = (*MemoryEventStore)(nil)

// Append implements EventStore.
func (s *MemoryEventStore) Append(_ context.Context, session, stream string, seq int64, data []byte) error {
	ms := s.session(session, true)
	ms.mu.Lock()
	s.appendLocked(ms, stream, seq, data)
	ms.mu.Unlock()
	s.trimGlobal()
	return nil
}

// AppendNext implements SequencedEventStore.
func (s *MemoryEventStore) AppendNext(_ context.Context, session, stream string, data []byte) (int64, error) {
	ms := s.session(session, true)
	ms.mu.Lock()
	if ms.last == nil {
		ms.last = map[string]int64{}
	}
	seq := ms.last[stream] + 1
	ms.last[stream] = seq
	s.appendLocked(ms, stream, seq, data)
	ms.mu.Unlock()
	s.trimGlobal()
	return seq, nil
}

// appendLocked adds an event to ms, discarding the oldest past the
// bounds; ms.mu held.
func (s *MemoryEventStore) appendLocked(ms *memSession, stream string, seq int64, data []byte) {
	rec := &eventRecord{ms: ms, size: len(data)}
	ms.events = append(ms.events, memEvent{stream: stream, seq: seq, data: append([]byte(nil), data...), rec: rec})
	ms.bytes += len(data)
	s.gmu.Lock()
	s.fifo = append(s.fifo, rec)
	s.total += int64(rec.size)
	s.gmu.Unlock()
	for live := len(ms.events) - ms.head; live > 1 && (live > s.maxEvents || ms.bytes > s.maxBytes); live-- {
		s.evictHead(ms)
	}
	ms.compact()
}

// evictHead discards ms's oldest live event; ms.mu held.
func (s *MemoryEventStore) evictHead(ms *memSession) {
	e := &ms.events[ms.head]
	ms.noteEvicted(e.stream, e.seq, s.maxEvents)
	ms.bytes -= len(e.data)
	s.gmu.Lock()
	s.dropLocked(e.rec)
	s.gmu.Unlock()
	*e = memEvent{}
	ms.head++
}

// dropLocked stops counting rec's bytes; s.gmu held.
func (s *MemoryEventStore) dropLocked(rec *eventRecord) {
	if rec == nil || rec.dropped {
		return
	}
	rec.dropped = true
	s.total -= int64(rec.size)
	s.dead++
}

// trimGlobal discards the oldest events of any session while the store
// holds more than its global bound. It takes the victims under gmu, then
// each victim's session lock (never both at once the other way round).
func (s *MemoryEventStore) trimGlobal() {
	s.gmu.Lock()
	var victims []*memSession
	for s.maxTotal > 0 && s.total > s.maxTotal && s.fhead < len(s.fifo) {
		rec := s.fifo[s.fhead]
		s.fifo[s.fhead] = nil
		s.fhead++
		if rec.dropped {
			s.dead--
			continue
		}
		s.dropLocked(rec)
		s.dead-- // dropped and already out of the queue
		victims = append(victims, rec.ms)
	}
	// Forget records dropped by their session (per-session bounds,
	// deleted sessions) once they are as many as the live ones.
	if s.dead > 0 && s.dead >= len(s.fifo)-s.fhead-s.dead {
		live := s.fifo[:0]
		for _, rec := range s.fifo[s.fhead:] {
			if !rec.dropped {
				live = append(live, rec)
			}
		}
		clear(s.fifo[len(live):])
		s.fifo, s.fhead, s.dead = live, 0, 0
	} else if s.fhead > 0 && s.fhead >= len(s.fifo)-s.fhead {
		n := copy(s.fifo, s.fifo[s.fhead:])
		clear(s.fifo[n:])
		s.fifo, s.fhead = s.fifo[:n], 0
	}
	s.gmu.Unlock()
	for _, ms := range victims {
		ms.mu.Lock()
		// A session's events enter the queue in its own order, so the
		// dropped ones are its oldest.
		for ms.head < len(ms.events) && s.isDropped(ms.events[ms.head].rec) {
			s.evictHead(ms)
		}
		ms.compact()
		ms.mu.Unlock()
	}
}

// isDropped reads rec.dropped under gmu.
func (s *MemoryEventStore) isDropped(rec *eventRecord) bool {
	s.gmu.Lock()
	defer s.gmu.Unlock()
	return rec != nil && rec.dropped
}

// compact drops the dead prefix of ms.events once it is as long as the
// live part; ms.mu held.
func (ms *memSession) compact() {
	if ms.head > 0 && ms.head >= len(ms.events)-ms.head {
		n := copy(ms.events, ms.events[ms.head:])
		clear(ms.events[n:])
		ms.events = ms.events[:n]
		ms.head = 0
	}
}

// noteEvicted records that event seq of stream was discarded, keeping the
// records of the last max discards.
func (ms *memSession) noteEvicted(stream string, seq int64, max int) {
	l := ms.lost
	if l == nil {
		l = &memLost{seq: map[string]int64{}}
		ms.lost = l
	}
	if seq > l.seq[stream] {
		l.seq[stream] = seq
	}
	l.order = append(l.order, memEvent{stream: stream, seq: seq})
	if len(l.order)-l.head > max {
		old := &l.order[l.head]
		if l.seq[old.stream] == old.seq { // no later discard of its stream
			delete(l.seq, old.stream)
		}
		*old = memEvent{}
		l.head++
		if l.head >= len(l.order)-l.head {
			n := copy(l.order, l.order[l.head:])
			clear(l.order[n:])
			l.order, l.head = l.order[:n], 0
		}
	}
}

// lostAfter reports whether an event of stream after seq was discarded
// (as far as the records go).
func (ms *memSession) lostAfter(stream string, after int64) bool {
	return ms.lost != nil && ms.lost.seq[stream] > after
}

// Replay implements EventStore.
func (s *MemoryEventStore) Replay(_ context.Context, session, stream string, after int64, fn func(seq int64, data []byte) error) error {
	ms := s.session(session, false)
	if ms == nil {
		return nil
	}
	ms.mu.Lock()
	if ms.lostAfter(stream, after) {
		ms.mu.Unlock()
		return store.ErrEventsLost
	}
	var out []memEvent
	for _, e := range ms.events[ms.head:] {
		if e.stream == stream && e.seq > after {
			out = append(out, e) // the data slices are never modified, only dropped
		}
	}
	ms.mu.Unlock()
	for _, e := range out {
		if err := fn(e.seq, e.data); err != nil {
			return err
		}
	}
	return nil
}

// DeleteSession implements EventStore.
func (s *MemoryEventStore) DeleteSession(_ context.Context, session string) error {
	s.mu.Lock()
	ms := s.sessions[session]
	delete(s.sessions, session)
	s.mu.Unlock()
	if ms != nil {
		ms.mu.Lock()
		s.gmu.Lock()
		for _, e := range ms.events[ms.head:] {
			s.dropLocked(e.rec)
		}
		s.gmu.Unlock()
		ms.mu.Unlock()
		s.trimGlobal() // forgets the dropped records when they are many
	}
	return nil
}

// totalBytes reports the event bytes counted against the global bound,
// for tests.
func (s *MemoryEventStore) totalBytes() int64 {
	s.gmu.Lock()
	defer s.gmu.Unlock()
	return s.total
}

// evictionRecords reports how many streams session has discard records
// for, for tests.
func (s *MemoryEventStore) evictionRecords(session string) int {
	ms := s.session(session, false)
	if ms == nil {
		return 0
	}
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.lost == nil {
		return 0
	}
	return len(ms.lost.seq)
}

// len reports how many events are held, for tests.
func (s *MemoryEventStore) len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := 0
	for _, ms := range s.sessions {
		ms.mu.Lock()
		n += len(ms.events) - ms.head
		ms.mu.Unlock()
	}
	return n
}
