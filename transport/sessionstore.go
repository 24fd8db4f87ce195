package transport

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
)

// MemorySessionStore is a SessionStore in memory: it shares sessions
// between the handlers of one process (as in tests of several replicas).
// Expired records, and their subscriptions, are dropped when they are next
// looked at, and all at once when a session is created at least a minute
// after the last such sweep. It starts no goroutines.
type MemorySessionStore struct {
	mu      sync.Mutex
	records map[string]memRecord
	subs    map[string]map[string]struct{} // uri → ids of the subscribed sessions
	swept   time.Time                      // when Create last dropped every expired record
}

type memRecord struct {
	rec     store.SessionRecord
	subs    map[string]struct{} // the URIs subscribed to
	expires time.Time           // zero: never
}

// memSweepEvery is how often Create drops every expired record.
const memSweepEvery = time.Minute

var _ store.SessionStore = (*MemorySessionStore)(nil)

// NewMemorySessionStore returns an empty store.
func NewMemorySessionStore() *MemorySessionStore {
	return &MemorySessionStore{records: map[string]memRecord{}, subs: map[string]map[string]struct{}{}, swept: time.Now()}
}

func expiry(now time.Time, ttl time.Duration) time.Time {
	if ttl <= 0 {
		return time.Time{}
	}
	return now.Add(ttl)
}

// live returns the record of id, dropping it when expired; s.mu held.
func (s *MemorySessionStore) live(id string) (memRecord, bool) {
	r, ok := s.records[id]
	if ok && !r.expires.IsZero() && !time.Now().Before(r.expires) {
		s.drop(id)
		return memRecord{}, false
	}
	return r, ok
}

// drop removes the record of id and its subscriptions; s.mu held.
func (s *MemorySessionStore) drop(id string) {
	for uri := range s.records[id].subs {
		delete(s.subs[uri], id)
		if len(s.subs[uri]) == 0 {
			delete(s.subs, uri)
		}
	}
	delete(s.records, id)
}

// sweep drops every expired record, at most every memSweepEvery; s.mu
// held.
func (s *MemorySessionStore) sweep(now time.Time) {
	if now.Sub(s.swept) < memSweepEvery {
		return
	}
	s.swept = now
	for id := range s.records {
		s.live(id)
	}
}

// Create implements SessionStore.
func (s *MemorySessionStore) Create(ctx context.Context, rec *store.SessionRecord, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r := *rec
	r.InitializeParams = append(json.RawMessage(nil), rec.InitializeParams...)
	r.State = copyState(rec.State)
	r.Subscriptions = nil
	m := memRecord{rec: r, subs: map[string]struct{}{}, expires: expiry(time.Now(), ttl)}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(time.Now())
	s.drop(r.ID)
	s.records[r.ID] = m
	for _, uri := range rec.Subscriptions {
		s.subscribeLocked(r.ID, uri)
	}
	return nil
}

// Get implements SessionStore.
func (s *MemorySessionStore) Get(ctx context.Context, id string) (*store.SessionRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock() // r.subs is the live record's map: read it under the lock
	r, ok := s.live(id)
	if !ok {
		return nil, store.ErrSessionUnknown
	}
	rec := r.rec
	rec.InitializeParams = append(json.RawMessage(nil), r.rec.InitializeParams...)
	rec.State = copyState(r.rec.State)
	if len(r.subs) > 0 {
		rec.Subscriptions = slices.Sorted(maps.Keys(r.subs))
	}
	return &rec, nil
}

// Touch implements SessionStore.
func (s *MemorySessionStore) Touch(ctx context.Context, id string, now time.Time, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.live(id)
	if !ok {
		return store.ErrSessionUnknown
	}
	r.rec.LastActive = now
	r.expires = expiry(time.Now(), ttl)
	s.records[id] = r
	return nil
}

// SetState implements SessionStore.
func (s *MemorySessionStore) SetState(ctx context.Context, id, name string, value json.RawMessage) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.live(id)
	if !ok {
		return store.ErrSessionUnknown
	}
	// A new map: the records Get returned keep the old one.
	state := copyState(r.rec.State)
	if state == nil {
		state = map[string]json.RawMessage{}
	}
	state[name] = append(json.RawMessage(nil), value...)
	r.rec.State = state
	s.records[id] = r
	return nil
}

// copyState returns a deep copy of a record's State (nil for none).
func copyState(state map[string]json.RawMessage) map[string]json.RawMessage {
	if len(state) == 0 {
		return nil
	}
	out := make(map[string]json.RawMessage, len(state))
	for k, v := range state {
		out[k] = append(json.RawMessage(nil), v...)
	}
	return out
}

// Subscribe implements SessionStore.
func (s *MemorySessionStore) Subscribe(ctx context.Context, id, uri string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.live(id); !ok {
		return store.ErrSessionUnknown
	}
	s.subscribeLocked(id, uri)
	return nil
}

// subscribeLocked adds uri to the subscriptions of the live record id;
// s.mu held.
func (s *MemorySessionStore) subscribeLocked(id, uri string) {
	s.records[id].subs[uri] = struct{}{}
	ids := s.subs[uri]
	if ids == nil {
		ids = map[string]struct{}{}
		s.subs[uri] = ids
	}
	ids[id] = struct{}{}
}

// Unsubscribe implements SessionStore.
func (s *MemorySessionStore) Unsubscribe(ctx context.Context, id, uri string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	removed := false
	if r, ok := s.records[id]; ok {
		_, removed = r.subs[uri]
		delete(r.subs, uri)
	}
	delete(s.subs[uri], id)
	if len(s.subs[uri]) == 0 {
		delete(s.subs, uri)
	}
	return removed, nil
}

// Subscribers implements SessionStore.
func (s *MemorySessionStore) Subscribers(ctx context.Context, uri string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for id := range s.subs[uri] {
		if _, ok := s.live(id); ok { // an expired one is dropped
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// Delete implements SessionStore.
func (s *MemorySessionStore) Delete(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	s.drop(id)
	s.mu.Unlock()
	return nil
}
