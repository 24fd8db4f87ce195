package oauthtest

import (
	"sync"
	"time"
)

// grant is what an authorization code or a refresh token stands for.
type grant struct {
	clientID    string
	subject     string
	scopes      []string
	resources   []string
	redirectURI string // as the authorization request named it ("" if it did not)
	challenge   string // PKCE S256 code_challenge
	expires     time.Time
}

// store holds single-use credentials (authorization codes, refresh
// tokens): take removes what it returns.
type store[T any] struct {
	mu sync.Mutex
	m  map[string]entry[T]
}

type entry[T any] struct {
	v       T
	expires time.Time // zero: never
}

func newStore[T any]() *store[T] { return &store[T]{m: map[string]entry[T]{}} }

func (s *store[T]) put(key string, v T, expires time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	for k, e := range s.m { // drop the expired ones as we go
		if !e.expires.IsZero() && now.After(e.expires) {
			delete(s.m, k)
		}
	}
	s.m[key] = entry[T]{v, expires}
}

// take removes key and returns its value, if it is there and not expired.
func (s *store[T]) take(key string) (T, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.m[key]
	delete(s.m, key)
	if !ok || (!e.expires.IsZero() && time.Now().After(e.expires)) {
		var zero T
		return zero, false
	}
	return e.v, true
}

// clear removes every entry.
func (s *store[T]) clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.m)
}
