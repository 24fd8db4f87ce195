package oauthserver

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
)

// memKV is a store.KV in memory, until store.NewMemoryKV lands.
type memKV struct {
	mu sync.Mutex
	m  map[string]memEntry
}

type memEntry struct {
	v   []byte
	exp time.Time
}

func newMemKV() *memKV { return &memKV{m: map[string]memEntry{}} }

func (k *memKV) live(key string) (memEntry, bool) {
	e, ok := k.m[key]
	if ok && !e.exp.IsZero() && time.Now().After(e.exp) {
		delete(k.m, key)
		return e, false
	}
	return e, ok
}

func (k *memKV) Get(_ context.Context, key string) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e, ok := k.live(key)
	if !ok {
		return nil, store.ErrKeyNotFound
	}
	return slices.Clone(e.v), nil
}

func (k *memKV) Set(_ context.Context, key string, v []byte, ttl time.Duration) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	e := memEntry{v: slices.Clone(v)}
	if ttl > 0 {
		e.exp = time.Now().Add(ttl)
	}
	k.m[key] = e
	return nil
}

func (k *memKV) Add(ctx context.Context, key string, v []byte, ttl time.Duration) (bool, error) {
	k.mu.Lock()
	_, ok := k.live(key)
	k.mu.Unlock()
	if ok {
		return false, nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.live(key); ok {
		return false, nil
	}
	e := memEntry{v: slices.Clone(v)}
	if ttl > 0 {
		e.exp = time.Now().Add(ttl)
	}
	k.m[key] = e
	return true, nil
}

func (k *memKV) Take(_ context.Context, key string) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e, ok := k.live(key)
	if !ok {
		return nil, store.ErrKeyNotFound
	}
	delete(k.m, key)
	return e.v, nil
}

func (k *memKV) Delete(_ context.Context, key string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.m, key)
	return nil
}
