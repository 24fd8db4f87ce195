package redisstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
	"github.com/fastmcp-go/fastmcp/transport"
)

// sessionStoreKinds builds each SessionStore under test: the in-memory
// one and the Redis store, which must behave alike.
func sessionStoreKinds(t *testing.T) map[string]func() store.SessionStore {
	rdb := startRedis(t).client(t)
	n := 0
	return map[string]func() store.SessionStore{
		"memory": func() store.SessionStore { return transport.NewMemorySessionStore() },
		"redis": func() store.SessionStore {
			n++ // each store its own keys
			return redisstore.NewSessionStore(rdb, &redisstore.SessionStoreOptions{Prefix: "t" + strconv.Itoa(n) + ":"})
		},
	}
}

// TestSessionStores runs the same behaviour table against the memory and
// the Redis session stores.
func TestSessionStores(t *testing.T) {
	ctx := context.Background()
	created := time.UnixMilli(1_700_000_000_000)
	rec := func(id string) *store.SessionRecord {
		return &store.SessionRecord{
			ID: id, Principal: "p:" + id, Version: "2025-11-25",
			InitializeParams: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"sampling":{},"experimental":{"x":[]}},"clientInfo":{"name":"c","version":"1.0"}}`),
			Created:          created, LastActive: created,
		}
	}
	show := func(r *store.SessionRecord, err error) string {
		if err != nil {
			if errors.Is(err, store.ErrSessionUnknown) {
				return "unknown"
			}
			return "error: " + err.Error()
		}
		return fmt.Sprintf("%s %s %s state=%s %s created=%d active=%d", r.ID, r.Principal, r.Version, showState(r.State), r.InitializeParams, r.Created.UnixMilli(), r.LastActive.UnixMilli())
	}
	full := func(id string, state map[string]json.RawMessage, active int64) string {
		return show(&store.SessionRecord{ID: id, Principal: "p:" + id, Version: "2025-11-25", State: state,
			InitializeParams: rec(id).InitializeParams, Created: created, LastActive: time.UnixMilli(active)}, nil)
	}
	tests := []struct {
		name string
		ops  func(s store.SessionStore) error
		id   string
		want string
	}{
		{"created record reads back exactly", func(s store.SessionStore) error {
			return s.Create(ctx, rec("a"), time.Hour)
		}, "a", full("a", nil, created.UnixMilli())},
		{"created with state", func(s store.SessionStore) error {
			r := rec("a")
			r.State = map[string]json.RawMessage{"logLevel": json.RawMessage(`"info"`), "x": json.RawMessage(`{"a":[1,2]}`)}
			return s.Create(ctx, r, time.Hour)
		}, "a", full("a", map[string]json.RawMessage{"logLevel": json.RawMessage(`"info"`), "x": json.RawMessage(`{"a":[1,2]}`)}, created.UnixMilli())},
		{"unknown id", func(s store.SessionStore) error { return nil }, "nope", "unknown"},
		{"touch sets last active", func(s store.SessionStore) error {
			if err := s.Create(ctx, rec("a"), time.Hour); err != nil {
				return err
			}
			return s.Touch(ctx, "a", time.UnixMilli(1_700_000_060_000), time.Hour)
		}, "a", full("a", nil, 1_700_000_060_000)},
		{"state", func(s store.SessionStore) error {
			if err := s.Create(ctx, rec("a"), 0); err != nil {
				return err
			}
			if err := s.SetState(ctx, "a", "logLevel", json.RawMessage(`"info"`)); err != nil {
				return err
			}
			if err := s.SetState(ctx, "a", "color", json.RawMessage(`{"hue":"blue"}`)); err != nil {
				return err
			}
			return s.SetState(ctx, "a", "logLevel", json.RawMessage(`"debug"`)) // replaces
		}, "a", full("a", map[string]json.RawMessage{"logLevel": json.RawMessage(`"debug"`), "color": json.RawMessage(`{"hue":"blue"}`)}, created.UnixMilli())},
		{"touch of an unknown session", func(s store.SessionStore) error {
			if err := s.Touch(ctx, "x", time.Now(), time.Hour); !errors.Is(err, store.ErrSessionUnknown) {
				return fmt.Errorf("Touch: %v, want ErrSessionUnknown", err)
			}
			if err := s.SetState(ctx, "x", "logLevel", json.RawMessage(`"info"`)); !errors.Is(err, store.ErrSessionUnknown) {
				return fmt.Errorf("SetState: %v, want ErrSessionUnknown", err)
			}
			return nil
		}, "x", "unknown"},
		{"delete", func(s store.SessionStore) error {
			if err := s.Create(ctx, rec("a"), time.Hour); err != nil {
				return err
			}
			if err := s.Delete(ctx, "a"); err != nil {
				return err
			}
			return s.Delete(ctx, "a") // twice is fine
		}, "a", "unknown"},
		{"create replaces", func(s store.SessionStore) error {
			if err := s.Create(ctx, rec("a"), time.Hour); err != nil {
				return err
			}
			if err := s.SetState(ctx, "a", "logLevel", json.RawMessage(`"debug"`)); err != nil {
				return err
			}
			return s.Create(ctx, rec("a"), time.Hour)
		}, "a", full("a", nil, created.UnixMilli())},
		{"no params", func(s store.SessionStore) error {
			r := rec("b")
			r.InitializeParams = nil
			return s.Create(ctx, r, time.Hour)
		}, "b", fmt.Sprintf(`b p:b 2025-11-25 state={}  created=%d active=%d`, created.UnixMilli(), created.UnixMilli())},
	}
	for kind, newStore := range sessionStoreKinds(t) {
		for _, tt := range tests {
			t.Run(kind+"/"+tt.name, func(t *testing.T) {
				s := newStore()
				if err := tt.ops(s); err != nil {
					t.Fatal(err)
				}
				if got := show(s.Get(ctx, tt.id)); got != tt.want {
					t.Errorf("Get(%q) =\n%s\nwant\n%s", tt.id, got, tt.want)
				}
			})
		}
	}
}

// showState shows a record's State with its members sorted.
func showState(state map[string]json.RawMessage) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(state)) {
		parts = append(parts, name+":"+string(state[name]))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// TestSessionStoreExpiry: Redis expires a record TTL after it was created
// or last touched; a zero TTL keeps it.
func TestSessionStoreExpiry(t *testing.T) {
	rdb := startRedis(t).client(t)
	ctx := context.Background()
	s := redisstore.NewSessionStore(rdb, nil)
	now := time.Now()
	for id, ttl := range map[string]time.Duration{"short": time.Minute, "forever": 0} {
		if err := s.Create(ctx, &store.SessionRecord{ID: id, Version: "2025-11-25", Created: now, LastActive: now}, ttl); err != nil {
			t.Fatal(err)
		}
	}
	if ttl := rdb.PTTL(ctx, "fastmcp:session:{short}").Val(); ttl <= 0 || ttl > time.Minute {
		t.Errorf("short: PTTL %v, want within (0, 1m]", ttl)
	}
	if ttl := rdb.PTTL(ctx, "fastmcp:session:{forever}").Val(); ttl != -1 {
		t.Errorf("forever: PTTL %v, want none (-1)", ttl)
	}
	if err := s.Touch(ctx, "short", now, time.Hour); err != nil {
		t.Fatal(err)
	}
	if ttl := rdb.PTTL(ctx, "fastmcp:session:{short}").Val(); ttl <= time.Minute || ttl > time.Hour {
		t.Errorf("after Touch: PTTL %v, want within (1m, 1h]", ttl)
	}
	if err := s.SetState(ctx, "short", "logLevel", json.RawMessage(`"debug"`)); err != nil {
		t.Fatal(err)
	}
	if ttl := rdb.PTTL(ctx, "fastmcp:session:{short}").Val(); ttl <= time.Minute {
		t.Errorf("SetState changed the expiry: PTTL %v", ttl)
	}
}

// TestSequencedEventStores: AppendNext numbers a stream's events from
// any number of writers sharing the store, each number once, in the
// order a replay returns them, and keeps counting past discarded events.
func TestSequencedEventStores(t *testing.T) {
	ctx := context.Background()
	rdb := startRedis(t).client(t)
	kinds := map[string]func() [2]store.SequencedEventStore{
		"memory": func() [2]store.SequencedEventStore {
			s := transport.NewMemoryEventStore(&transport.MemoryEventStoreOptions{MaxEvents: 50})
			return [2]store.SequencedEventStore{s, s}
		},
		"redis": func() [2]store.SequencedEventStore {
			// Two processes' views of one Redis.
			o := &redisstore.EventStoreOptions{MaxEvents: 50}
			return [2]store.SequencedEventStore{redisstore.NewEventStore(rdb, o), redisstore.NewEventStore(rdb, o)}
		},
	}
	for kind, newStores := range kinds {
		t.Run(kind, func(t *testing.T) {
			stores := newStores()
			var wg sync.WaitGroup
			seqs := make([][]int64, 2)
			for w := range 2 {
				wg.Go(func() {
					for i := range 20 {
						seq, err := stores[w].AppendNext(ctx, "s", "0", fmt.Appendf(nil, "w%d-%d", w, i))
						if err != nil {
							t.Error(err)
							return
						}
						seqs[w] = append(seqs[w], seq)
					}
				})
			}
			wg.Wait()
			seen := map[int64]bool{}
			for _, list := range seqs {
				for _, seq := range list {
					if seen[seq] || seq < 1 || seq > 40 {
						t.Fatalf("seq %d given twice or out of 1..40: %v", seq, seqs)
					}
					seen[seq] = true
				}
			}
			var got []int64
			err := stores[1].Replay(ctx, "s", "0", 30, func(seq int64, data []byte) error {
				got = append(got, seq)
				return nil
			})
			if err != nil || fmt.Sprint(got) != "[31 32 33 34 35 36 37 38 39 40]" {
				t.Fatalf("replay after 30: %v, %v", got, err)
			}
			// Past the bound the oldest go, and numbering goes on.
			for range 20 {
				if _, err := stores[0].AppendNext(ctx, "s", "0", []byte("x")); err != nil {
					t.Fatal(err)
				}
			}
			if seq, err := stores[1].AppendNext(ctx, "s", "0", []byte("y")); err != nil || seq != 61 {
				t.Fatalf("AppendNext after discards = %d, %v; want 61", seq, err)
			}
			if err := stores[0].Replay(ctx, "s", "0", 5, func(int64, []byte) error { return nil }); !errors.Is(err, store.ErrEventsLost) {
				t.Errorf("replay of discarded events: %v, want ErrEventsLost", err)
			}
			if err := stores[0].DeleteSession(ctx, "s"); err != nil {
				t.Fatal(err)
			}
			if seq, err := stores[1].AppendNext(ctx, "s", "0", []byte("z")); err != nil || seq != 1 {
				t.Errorf("AppendNext after DeleteSession = %d, %v; want 1", seq, err)
			}
		})
	}
}
