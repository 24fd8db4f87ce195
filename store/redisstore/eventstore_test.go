package redisstore_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
	"github.com/fastmcp-go/fastmcp/transport"
)

// eventStoreKinds builds each EventStore under test with the given bounds:
// the in-memory default and the Redis store, which must behave alike.
func eventStoreKinds(t *testing.T) map[string]func(maxEvents, maxBytes int) store.EventStore {
	srv := startRedis(t)
	rdb := srv.client(t)
	n := 0
	return map[string]func(int, int) store.EventStore{
		"memory": func(maxEvents, maxBytes int) store.EventStore {
			return transport.NewMemoryEventStore(&transport.MemoryEventStoreOptions{MaxEvents: maxEvents, MaxBytes: maxBytes})
		},
		"redis": func(maxEvents, maxBytes int) store.EventStore {
			n++ // each store its own keys
			return redisstore.NewEventStore(rdb, &redisstore.EventStoreOptions{
				Prefix: "t" + strconv.Itoa(n) + ":", MaxEvents: maxEvents, MaxBytes: maxBytes})
		},
	}
}

type appendOp struct {
	session, stream string
	seq             int64
	data            string
}

type replayCheck struct {
	session, stream string
	after           int64
	want            string // events' data joined by ","
	lost            bool   // want ErrEventsLost
}

// TestEventStores runs the same behaviour table against the memory and
// the Redis event stores.
func TestEventStores(t *testing.T) {
	// appends builds n events a session's streams receive in turn.
	many := func(streams, per int) []appendOp {
		var ops []appendOp
		for i := range streams {
			for seq := 1; seq <= per; seq++ {
				ops = append(ops, appendOp{"s", strconv.Itoa(i + 1), int64(seq), string(rune('a' + seq - 1))})
			}
		}
		return ops
	}
	tests := []struct {
		name                string
		maxEvents, maxBytes int
		appends             []appendOp
		deleteSession       string
		checks              []replayCheck
	}{{
		name:      "replay after an id, per stream",
		maxEvents: 4,
		appends: []appendOp{{"s1", "1", 1, "a"}, {"s1", "2", 1, "x"}, {"s1", "1", 2, "b"},
			{"s1", "2", 2, "y"}, {"s1", "1", 3, "c"}, {"s1", "2", 3, "z"}},
		checks: []replayCheck{
			{session: "s1", stream: "2", after: 1, want: "y,z"},
			{session: "s1", stream: "1", after: 0, lost: true}, // six events, room for four
			{session: "s1", stream: "1", after: 1, want: "b,c"},
			{session: "s1", stream: "1", after: 2, want: "c"},
			{session: "s1", stream: "1", after: 3, want: ""},
			{session: "s1", stream: "3", after: 0, want: ""},
			{session: "other", stream: "1", after: 0, want: ""},
		},
	}, {
		name:     "byte bound keeps the newest",
		maxBytes: 10,
		appends: []appendOp{{"s", "1", 1, "12345"}, {"s", "1", 2, "12345"}, {"s", "1", 3, "12345"},
			{"s", "1", 4, "123456789012"}},
		checks: []replayCheck{
			{session: "s", stream: "1", after: 3, want: "123456789012"},
			{session: "s", stream: "1", after: 2, lost: true},
		},
	}, {
		name:      "sessions are bounded apart",
		maxEvents: 2,
		appends:   []appendOp{{"a", "1", 1, "a1"}, {"b", "1", 1, "b1"}, {"a", "1", 2, "a2"}, {"b", "1", 2, "b2"}},
		checks: []replayCheck{
			{session: "a", stream: "1", after: 0, want: "a1,a2"},
			{session: "b", stream: "1", after: 0, want: "b1,b2"},
		},
	}, {
		name:          "delete session",
		appends:       []appendOp{{"a", "1", 1, "a1"}, {"b", "1", 1, "b1"}},
		deleteSession: "a",
		checks: []replayCheck{
			{session: "a", stream: "1", after: 0, want: ""},
			{session: "b", stream: "1", after: 0, want: "b1"},
		},
	}, {
		name:      "discard records bounded to the last MaxEvents discards",
		maxEvents: 4,
		appends:   many(100, 2),
		checks: []replayCheck{
			{session: "s", stream: "98", after: 0, lost: true},
			{session: "s", stream: "98", after: 1, lost: true},
			{session: "s", stream: "98", after: 2, want: ""},
			{session: "s", stream: "97", after: 1, lost: true},
			{session: "s", stream: "99", after: 0, want: "a,b"},
			{session: "s", stream: "5", after: 0, want: ""}, // forgotten, as documented
		},
	}, {
		name:      "a stream discarded again keeps its record",
		maxEvents: 2,
		appends: []appendOp{{"s", "0", 1, "x"}, {"s", "a", 1, "x"}, {"s", "0", 2, "x"}, {"s", "b", 1, "x"},
			{"s", "c", 1, "x"}, {"s", "d", 1, "x"}},
		checks: []replayCheck{
			{session: "s", stream: "0", after: 1, lost: true},
			{session: "s", stream: "b", after: 0, lost: true},
			{session: "s", stream: "a", after: 0, want: ""},
		},
	}, {
		name: "names and data with separators",
		appends: []appendOp{{"s}{x", "3:a_b:", 1, ":1:\n\"x\""}, {"s}{x", "3:a_b:", 2, ""},
			{"s}{x", "3:a", 1, "other"}},
		checks: []replayCheck{
			{session: "s}{x", stream: "3:a_b:", after: 0, want: ":1:\n\"x\","},
			{session: "s}{x", stream: "3:a", after: 0, want: "other"},
		},
	}}
	for kind, newStore := range eventStoreKinds(t) {
		for _, tt := range tests {
			t.Run(kind+"/"+tt.name, func(t *testing.T) {
				ctx := context.Background()
				s := newStore(tt.maxEvents, tt.maxBytes)
				for _, op := range tt.appends {
					if err := s.Append(ctx, op.session, op.stream, op.seq, []byte(op.data)); err != nil {
						t.Fatalf("Append(%+v): %v", op, err)
					}
				}
				if tt.deleteSession != "" {
					if err := s.DeleteSession(ctx, tt.deleteSession); err != nil {
						t.Fatal(err)
					}
				}
				for _, c := range tt.checks {
					var got []string
					err := s.Replay(ctx, c.session, c.stream, c.after, func(_ int64, d []byte) error {
						got = append(got, string(d))
						return nil
					})
					switch {
					case c.lost && !errors.Is(err, store.ErrEventsLost):
						t.Errorf("Replay(%s, %s, after %d) = %q, %v; want ErrEventsLost", c.session, c.stream, c.after, got, err)
					case c.lost && got != nil:
						t.Errorf("Replay(%s, %s, after %d) called fn with %q before ErrEventsLost", c.session, c.stream, c.after, got)
					case !c.lost && (err != nil || strings.Join(got, ",") != c.want):
						t.Errorf("Replay(%s, %s, after %d) = %q, %v; want %q", c.session, c.stream, c.after, strings.Join(got, ","), err, c.want)
					}
				}
			})
		}
	}
}

// TestEventStoreReplayStops: an error from fn stops the replay and is
// returned, on both stores.
func TestEventStoreReplayStops(t *testing.T) {
	stop := errors.New("stop")
	for kind, newStore := range eventStoreKinds(t) {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			s := newStore(0, 0)
			for i := int64(1); i <= 3; i++ {
				_ = s.Append(ctx, "s", "1", i, []byte("x"))
			}
			calls := 0
			err := s.Replay(ctx, "s", "1", 0, func(int64, []byte) error { calls++; return stop })
			if !errors.Is(err, stop) || calls != 1 {
				t.Errorf("Replay = %v after %d calls; want stop after 1", err, calls)
			}
		})
	}
}

// TestEventStoreExpiry: a session's keys expire TTL after its last
// Append, so the log of a session whose replica died does not stay.
func TestEventStoreExpiry(t *testing.T) {
	rdb := startRedis(t).client(t)
	ctx := context.Background()
	s := redisstore.NewEventStore(rdb, &redisstore.EventStoreOptions{MaxEvents: 1, TTL: time.Minute})
	_ = s.Append(ctx, "s", "1", 1, []byte("a"))
	_ = s.Append(ctx, "s", "1", 2, []byte("b")) // discards 1: every key exists
	keys, err := rdb.Keys(ctx, "fastmcp:ev:*").Result()
	if err != nil || len(keys) != 4 {
		t.Fatalf("keys %v, %v; want the session's 4", keys, err)
	}
	for _, k := range keys {
		if ttl := rdb.PTTL(ctx, k).Val(); ttl <= 0 || ttl > time.Minute {
			t.Errorf("%s: PTTL %v, want within (0, 1m]", k, ttl)
		}
	}
	if err := s.DeleteSession(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	if keys, _ := rdb.Keys(ctx, "fastmcp:ev:*").Result(); len(keys) != 0 {
		t.Errorf("after DeleteSession: %v", keys)
	}
}
