package fastmcp

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/cursor"
)

// entry is something a list method publishes: a tool, prompt, resource or
// resource template.
type entry interface {
	// key identifies the entry and orders the list (name or URI).
	key() string
	// encoded is the entry's JSON as listed, built once at registration.
	encoded() jsontext.Value
	// requiredScopes are the scopes a caller over HTTP needs to use the
	// entry (RequireScopes); nil for most.
	requiredScopes() []string
	// component describes the entry to Selectors and Visibility.
	component() Component
}

// registry holds one kind of entry. Readers see an immutable snapshot and
// take no lock once it is built. Updates edit the registry's own map and
// drop the snapshot; the next reader builds a new one. So registering n
// entries before serving costs n map insertions and one snapshot, not n
// copies of a growing map.
type registry[T entry] struct {
	snap atomic.Pointer[snapshot[T]] // nil: stale, rebuilt from cur by load

	mu  sync.Mutex   // guards cur and the building of snapshots
	cur map[string]T // the entries; nil until the first update

	// switches, when set, leave disabled entries (Server.Disable) out of
	// snapshots: they are neither listed nor found by get.
	switches *switches
}

type snapshot[T entry] struct {
	byKey  map[string]T
	sorted []T
	scoped bool // some entry requires scopes

	mu    sync.Mutex
	pages map[string]jsontext.Value // cursor → encoded list result
}

// load returns the current snapshot, building it if an update dropped it.
func (r *registry[T]) load() *snapshot[T] {
	if s := r.snap.Load(); s != nil {
		return s
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.snap.Load(); s != nil {
		return s
	}
	m := maps.Clone(r.cur)
	if m == nil {
		m = map[string]T{}
	}
	if r.switches != nil && r.switches.rules.Load() != nil {
		maps.DeleteFunc(m, func(_ string, e T) bool { return !r.switches.enabled(e.component()) })
	}
	s := &snapshot[T]{byKey: m, sorted: slices.SortedFunc(maps.Values(m), compareKeys[T])}
	s.scoped = slices.ContainsFunc(s.sorted, func(e T) bool { return len(e.requiredScopes()) > 0 })
	r.snap.Store(s)
	return s
}

// get returns the entry with key k.
func (r *registry[T]) get(k string) (T, bool) {
	v, ok := r.load().byKey[k]
	return v, ok
}

// registered returns the entry with key k, enabled or not: for
// registration and removal, which act on what was registered.
func (r *registry[T]) registered(k string) (T, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.cur[k]
	return v, ok
}

// len returns the number of entries.
func (r *registry[T]) len() int { return len(r.load().sorted) }

// has reports whether an entry has key k, like get, but without building a
// snapshot: for registration, which checks names between updates.
func (r *registry[T]) has(k string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.cur[k]
	return ok
}

// count returns the number of entries, like len, without building a
// snapshot.
func (r *registry[T]) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.cur)
}

// update applies fn to the entries. The caller serialises updates.
func (r *registry[T]) update(fn func(map[string]T)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cur == nil {
		r.cur = map[string]T{}
	}
	fn(r.cur)
	r.snap.Store(nil)
}

func compareKeys[T entry](a, b T) int { return strings.Compare(a.key(), b.key()) }

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

	items, more, err := s.slice(cursor, size, nil)
	if err != nil {
		return nil, err
	}
	b := encodePage(field, items, more, "", nil)
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

// slice returns the (at most size) entries after cursor for which visible
// holds (all of them when visible is nil), and whether a visible entry
// follows them. Cursors name the last key listed, so entries hidden from
// one caller never shift another's pages.
func (s *snapshot[T]) slice(cur string, size int, visible func(T) bool) (items []T, more bool, err error) {
	start := 0
	if cur != "" {
		after, err := cursor.Decode(cur)
		if err != nil {
			return nil, false, err
		}
		start, _ = slices.BinarySearchFunc(s.sorted, after, func(e T, k string) int { return strings.Compare(e.key(), k) })
		if start < len(s.sorted) && s.sorted[start].key() == after {
			start++
		}
	}
	rest := s.sorted[start:]
	if visible == nil {
		end := min(size, len(rest))
		return rest[:end], end < len(rest), nil
	}
	for i, e := range rest {
		if !visible(e) {
			continue
		}
		if len(items) == size {
			return items, true, nil
		}
		if items == nil {
			items = make([]T, 0, min(size, len(rest)-i))
		}
		items = append(items, e)
	}
	return items, false, nil
}

// encodePage encodes a list result object holding items, with a
// nextCursor after the last of them when more follow; extra, when not
// empty, is one more member ("name":value) added at the end. enc encodes
// an entry; nil means its encoded form.
func encodePage[T entry](field string, items []T, more bool, extra string, enc func(T) jsontext.Value) jsontext.Value {
	if enc == nil {
		enc = func(e T) jsontext.Value { return e.encoded() }
	}
	n := 64 + len(extra)
	for _, e := range items {
		n += len(enc(e)) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, `{"`...)
	b = append(b, field...)
	b = append(b, `":[`...)
	for i, e := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, enc(e)...)
	}
	b = append(b, ']')
	if more && len(items) > 0 {
		b = append(b, `,"nextCursor":"`...)
		b = append(b, cursor.Encode(items[len(items)-1].key())...)
		b = append(b, '"')
	}
	if extra != "" {
		b = append(b, ',')
		b = append(b, extra...)
	}
	return slices.Clip(append(b, '}')) // shared: an append must not write into it
}

// ErrRegistration is matched (errors.Is) by the error Tool, Prompt,
// Resource and Mount panic with on a programmer error. Its text is the
// message saying how to fix the mistake, and it wraps the cause, so
// errors.Is and errors.As reach what it wraps. Registration is wiring code,
// as net/http's ServeMux.Handle is, so it panics; code that registers from
// data (a config file, a plugin list) recovers the error:
//
//	func register(s *fastmcp.Server, name string, fn any) (err error) {
//		defer func() {
//			if r := recover(); r != nil {
//				e, ok := r.(error)
//				if !ok || !errors.Is(e, fastmcp.ErrRegistration) {
//					panic(r)
//				}
//				err = e
//			}
//		}()
//		s.Tool(name, fn)
//		return nil
//	}
var ErrRegistration = errors.New("fastmcp: registration failed")

// registrationError is the value a registration panics with: err's text,
// matching ErrRegistration and wrapping err.
type registrationError struct{ err error }

func (e *registrationError) Error() string        { return e.err.Error() }
func (e *registrationError) Unwrap() error        { return e.err }
func (e *registrationError) Is(target error) bool { return target == ErrRegistration }

// mustRegister panics with err, when not nil, as a registrationError.
func mustRegister(err error) {
	if err != nil {
		panic(&registrationError{err})
	}
}
