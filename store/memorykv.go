package store

import (
	"context"
	"slices"
	"sync"
	"time"
)

// MemoryKV is a KV in one process: the default of the OAuth authorization
// server, whose state is then lost on restart and not shared with other
// processes. Expired values are dropped when they are read and, a few at a
// time, as values are written, so that memory follows what is live.
type MemoryKV struct {
	mu     sync.Mutex
	m      map[string]memoryEntry
	writes int
	now    func() time.Time
}

type memoryEntry struct {
	v   []byte
	exp time.Time // zero: no expiry
}

// NewMemoryKV returns an empty MemoryKV.
func NewMemoryKV() *MemoryKV {
	return &MemoryKV{m: map[string]memoryEntry{}, now: time.Now}
}

// sweepEvery is how many writes pass between two sweeps of the expired
// values; sweepBudget bounds the values a sweep looks at, so that a write
// never waits for a walk of the whole map.
const (
	sweepEvery  = 64
	sweepBudget = 256
)

// live returns the entry of key when it has not expired, and drops an
// expired one. The caller holds m.mu.
func (m *MemoryKV) live(key string, now time.Time) (memoryEntry, bool) {
	e, ok := m.m[key]
	if ok && !e.exp.IsZero() && !now.Before(e.exp) {
		delete(m.m, key)
		return e, false
	}
	return e, ok
}

// put stores value under key for ttl and sweeps now and then. The caller
// holds m.mu.
func (m *MemoryKV) put(key string, value []byte, ttl time.Duration, now time.Time) {
	e := memoryEntry{v: slices.Clone(value)}
	if ttl > 0 {
		e.exp = now.Add(ttl)
	}
	m.m[key] = e
	if m.writes++; m.writes%sweepEvery == 0 {
		n := 0
		for k, e := range m.m { // map order: a different sample each sweep
			if !e.exp.IsZero() && !now.Before(e.exp) {
				delete(m.m, k)
			}
			if n++; n == sweepBudget {
				break
			}
		}
	}
}

// Get implements KV.
func (m *MemoryKV) Get(_ context.Context, key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.live(key, m.now())
	if !ok {
		return nil, ErrKeyNotFound
	}
	return slices.Clone(e.v), nil
}

// Set implements KV.
func (m *MemoryKV) Set(_ context.Context, key string, value []byte, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.put(key, value, ttl, m.now())
	return nil
}

// Add implements KV.
func (m *MemoryKV) Add(_ context.Context, key string, value []byte, ttl time.Duration) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if _, ok := m.live(key, now); ok {
		return false, nil
	}
	m.put(key, value, ttl, now)
	return true, nil
}

// Take implements KV.
func (m *MemoryKV) Take(_ context.Context, key string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.live(key, m.now())
	if !ok {
		return nil, ErrKeyNotFound
	}
	delete(m.m, key)
	return e.v, nil
}

// Delete implements KV.
func (m *MemoryKV) Delete(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, key)
	return nil
}

// Len returns how many values m holds, expired ones not yet dropped
// included.
func (m *MemoryKV) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.m)
}
