package fastmcp

import (
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// entry is something a list method publishes: a tool, prompt, resource or
// resource template.
type entry interface {
	// key identifies the entry and orders the list (name or URI).
	key() string
	// encoded is the entry's JSON as listed, built once at registration.
	encoded() jsontext.Value
}

// registry holds one kind of entry as an immutable snapshot, replaced on
// every change, so lookups and lists take no lock.
type registry[T entry] struct {
	snap atomic.Pointer[snapshot[T]]
}

type snapshot[T entry] struct {
	byKey  map[string]T
	sorted []T

	mu    sync.Mutex
	pages map[string]jsontext.Value // cursor → encoded list result
}

func (r *registry[T]) load() *snapshot[T] {
	if s := r.snap.Load(); s != nil {
		return s
	}
	return &snapshot[T]{}
}

// get returns the entry with key k.
func (r *registry[T]) get(k string) (T, bool) {
	v, ok := r.load().byKey[k]
	return v, ok
}

// len returns the number of entries.
func (r *registry[T]) len() int { return len(r.load().sorted) }

// update replaces the snapshot with fn's edit of a copy of the map. The
// caller serialises updates.
func (r *registry[T]) update(fn func(map[string]T)) {
	old := r.load()
	m := maps.Clone(old.byKey)
	if m == nil {
		m = map[string]T{}
	}
	fn(m)
	sorted, ok := resorted(old, m)
	if !ok {
		sorted = slices.SortedFunc(maps.Values(m), compareKeys[T])
	}
	r.snap.Store(&snapshot[T]{byKey: m, sorted: sorted})
}

func compareKeys[T entry](a, b T) int { return strings.Compare(a.key(), b.key()) }

// resorted derives the sorted entries of m from those of old when m
// differs from old.byKey by one added, removed or replaced entry (what
// every registration does), without sorting again; ok is false otherwise.
func resorted[T entry](old *snapshot[T], m map[string]T) (_ []T, ok bool) {
	switch len(m) - len(old.sorted) {
	case 1: // one added: insert it in place
		for k, v := range m {
			if _, had := old.byKey[k]; had {
				continue
			}
			i, _ := slices.BinarySearchFunc(old.sorted, k, func(e T, k string) int { return strings.Compare(e.key(), k) })
			out := make([]T, 0, len(m))
			out = append(append(append(out, old.sorted[:i]...), v), old.sorted[i:]...)
			return out, sameEntries(out, m)
		}
	case -1: // one removed
		for i, e := range old.sorted {
			if _, kept := m[e.key()]; !kept {
				out := append(slices.Clone(old.sorted[:i]), old.sorted[i+1:]...)
				return out, sameEntries(out, m)
			}
		}
	case 0: // values replaced under the same keys
		out := slices.Clone(old.sorted)
		for i, e := range out {
			v, kept := m[e.key()]
			if !kept {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	}
	return nil, false
}

// sameEntries reports whether sorted holds exactly the entries of m.
func sameEntries[T entry](sorted []T, m map[string]T) bool {
	if len(sorted) != len(m) {
		return false
	}
	for _, e := range sorted {
		if v, ok := m[e.key()]; !ok || any(v) != any(e) {
			return false
		}
	}
	return true
}

// page returns one page of the list as an encoded list result object
// ({"<field>":[...]} and, when more follow, "nextCursor"), cached per
// cursor until the list changes. The bytes are shared: callers must not
// modify them. An invalid cursor is an invalid-params error.
func (r *registry[T]) page(field, cursor string, size int) (jsontext.Value, error) {
	s := r.load()
	s.mu.Lock()
	if b, ok := s.pages[cursor]; ok {
		s.mu.Unlock()
		return b, nil
	}
	s.mu.Unlock()

	start := 0
	if cursor != "" {
		after, err := decodeCursor(cursor)
		if err != nil {
			return nil, err
		}
		start, _ = slices.BinarySearchFunc(s.sorted, after, func(e T, k string) int { return strings.Compare(e.key(), k) })
		if start < len(s.sorted) && s.sorted[start].key() == after {
			start++
		}
	}
	end := min(start+size, len(s.sorted))
	n := 64
	for _, e := range s.sorted[start:end] {
		n += len(e.encoded()) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, `{"`...)
	b = append(b, field...)
	b = append(b, `":[`...)
	for i, e := range s.sorted[start:end] {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e.encoded()...)
	}
	b = append(b, ']')
	if end < len(s.sorted) {
		b = append(b, `,"nextCursor":"`...)
		b = append(b, encodeCursor(s.sorted[end-1].key())...)
		b = append(b, '"')
	}
	b = slices.Clip(append(b, '}')) // shared: an append must not write into it
	s.mu.Lock()
	if s.pages == nil {
		s.pages = map[string]jsontext.Value{}
	}
	if len(s.pages) < 64 { // bound the cache: cursors come from clients
		s.pages[cursor] = b
	}
	s.mu.Unlock()
	return b, nil
}

const cursorPrefix = "after:"

func encodeCursor(key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + key))
}

func decodeCursor(c string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), cursorPrefix) {
		return "", fmt.Errorf("%w: invalid cursor %q", protocol.ErrInvalidParams, c)
	}
	return strings.TrimPrefix(string(b), cursorPrefix), nil
}
