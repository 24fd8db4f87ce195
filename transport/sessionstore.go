package transport

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"sync"
	"time"
)

// A SessionStore keeps a record of each legacy (2025-11-25 and older)
// Streamable HTTP session, so that any replica of a server sharing the
// store can serve the session's requests (see HTTPOptions.Sessions): a
// replica that gets a request for a session it does not know looks the id
// up and adopts the session.
//
// A record lives until Delete, or until ttl has passed since it was last
// created or touched (ttl zero: no expiry). Implementations must be safe
// for concurrent use and must not keep the records they are given.
type SessionStore interface {
	// Create stores rec under rec.ID, replacing any record of that id, to
	// expire ttl from now.
	Create(ctx context.Context, rec *SessionRecord, ttl time.Duration) error
	// Get returns the record of id. It fails with an error matching
	// ErrSessionUnknown when there is none (never created, deleted or
	// expired).
	Get(ctx context.Context, id string) (*SessionRecord, error)
	// Touch marks the session active at now: its LastActive becomes now
	// and its expiry ttl from now. It fails with an error matching
	// ErrSessionUnknown when there is no record.
	Touch(ctx context.Context, id string, now time.Time, ttl time.Duration) error
	// SetLogLevel records the level the client set with logging/setLevel.
	// It fails with an error matching ErrSessionUnknown when there is no
	// record.
	SetLogLevel(ctx context.Context, id, level string) error
	// Subscribe records that the client of session id subscribed to
	// updates of uri (resources/subscribe): uri joins the record's
	// Subscriptions and the session is among Subscribers(uri) for as long
	// as its record lives. It fails with an error matching
	// ErrSessionUnknown when there is no record.
	Subscribe(ctx context.Context, id, uri string) error
	// Unsubscribe undoes Subscribe (resources/unsubscribe) and reports
	// whether the session was subscribed to uri; a uri the session did not
	// subscribe to, or a session without a record, is not an error.
	Unsubscribe(ctx context.Context, id, uri string) (removed bool, err error)
	// Subscribers returns the ids of the sessions subscribed to uri whose
	// records live (not deleted nor expired), in no particular order.
	Subscribers(ctx context.Context, uri string) ([]string, error)
	// Delete removes the record of id, if any, and its subscriptions.
	Delete(ctx context.Context, id string) error
}

// ErrSessionUnknown is reported by a SessionStore for a session it has no
// record of.
var ErrSessionUnknown = errors.New("transport: no such session in the session store")

// SessionRecord is what a SessionStore keeps of a legacy session: enough
// for another replica to serve it as if it had seen its initialize.
type SessionRecord struct {
	// ID is the session's Mcp-Session-Id.
	ID string `json:"id"`
	// Principal is the caller that created the session
	// (HTTPOptions.Principal); only requests with the same principal may
	// use it.
	Principal string `json:"principal,omitempty"`
	// Version is the protocol revision initialize negotiated.
	Version string `json:"version"`
	// InitializeParams are the params of the client's initialize request,
	// as sent (its capabilities and clientInfo).
	InitializeParams json.RawMessage `json:"initializeParams,omitempty"`
	// LogLevel is the level the client last set with logging/setLevel, or
	// "" when it set none.
	LogLevel string `json:"logLevel,omitempty"`
	// Subscriptions are the URIs the client subscribed to with
	// resources/subscribe and did not unsubscribe from, sorted.
	Subscriptions []string `json:"subscriptions,omitempty"`
	// Created and LastActive are when the session started and when a
	// replica last reported activity (at most every ttl/4 per replica).
	Created    time.Time `json:"created"`
	LastActive time.Time `json:"lastActive"`
}

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
	rec     SessionRecord
	subs    map[string]struct{} // the URIs subscribed to
	expires time.Time           // zero: never
}

// memSweepEvery is how often Create drops every expired record.
const memSweepEvery = time.Minute

var _ SessionStore = (*MemorySessionStore)(nil)

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
func (s *MemorySessionStore) Create(ctx context.Context, rec *SessionRecord, ttl time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r := *rec
	r.InitializeParams = append(json.RawMessage(nil), rec.InitializeParams...)
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
func (s *MemorySessionStore) Get(ctx context.Context, id string) (*SessionRecord, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock() // r.subs is the live record's map: read it under the lock
	r, ok := s.live(id)
	if !ok {
		return nil, ErrSessionUnknown
	}
	rec := r.rec
	rec.InitializeParams = append(json.RawMessage(nil), r.rec.InitializeParams...)
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
		return ErrSessionUnknown
	}
	r.rec.LastActive = now
	r.expires = expiry(time.Now(), ttl)
	s.records[id] = r
	return nil
}

// SetLogLevel implements SessionStore.
func (s *MemorySessionStore) SetLogLevel(ctx context.Context, id, level string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.live(id)
	if !ok {
		return ErrSessionUnknown
	}
	r.rec.LogLevel = level
	s.records[id] = r
	return nil
}

// Subscribe implements SessionStore.
func (s *MemorySessionStore) Subscribe(ctx context.Context, id, uri string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.live(id); !ok {
		return ErrSessionUnknown
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
