package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// TestSessionStoreSubscriptions runs the same behaviour table for the
// resources/subscribe subscriptions against the memory and the Redis
// session stores: what the record lists, and what Subscribers finds.
func TestSessionStoreSubscriptions(t *testing.T) {
	ctx := context.Background()
	create := func(s store.SessionStore, ttl time.Duration, ids ...string) error {
		for _, id := range ids {
			now := time.Now()
			if err := s.Create(ctx, &store.SessionRecord{ID: id, Version: "2025-11-25", Created: now, LastActive: now}, ttl); err != nil {
				return err
			}
		}
		return nil
	}
	subscribe := func(s store.SessionStore, id string, uris ...string) error {
		for _, uri := range uris {
			if err := s.Subscribe(ctx, id, uri); err != nil {
				return fmt.Errorf("Subscribe(%s, %s): %w", id, uri, err)
			}
		}
		return nil
	}
	tests := []struct {
		name string
		ops  func(s store.SessionStore) error
		// want: for each session, its record's subscriptions; for each
		// URI, its subscribers.
		want string
	}{
		{"subscribed", func(s store.SessionStore) error {
			if err := create(s, time.Hour, "a", "b"); err != nil {
				return err
			}
			if err := subscribe(s, "a", "r://1", "r://2"); err != nil {
				return err
			}
			return subscribe(s, "b", "r://2", "r://2") // twice is once
		}, "a[r://1 r://2] b[r://2] | r://1[a] r://2[a b] r://3[]"},
		{"unsubscribed", func(s store.SessionStore) error {
			if err := create(s, time.Hour, "a", "b"); err != nil {
				return err
			}
			if err := subscribe(s, "a", "r://1", "r://2"); err != nil {
				return err
			}
			if err := subscribe(s, "b", "r://2"); err != nil {
				return err
			}
			for _, u := range []struct {
				id, uri string
				removed bool
			}{{"a", "r://2", true}, {"a", "r://2", false}, {"a", "r://3", false}, {"x", "r://1", false}} { // not subscribed: no error
				removed, err := s.Unsubscribe(ctx, u.id, u.uri)
				if err != nil {
					return err
				}
				if removed != u.removed {
					return fmt.Errorf("Unsubscribe(%s, %s) removed = %v, want %v", u.id, u.uri, removed, u.removed)
				}
			}
			return nil
		}, "a[r://1] b[r://2] | r://1[a] r://2[b] r://3[]"},
		{"deleted session", func(s store.SessionStore) error {
			if err := create(s, time.Hour, "a", "b"); err != nil {
				return err
			}
			if err := subscribe(s, "a", "r://1", "r://2"); err != nil {
				return err
			}
			if err := subscribe(s, "b", "r://1"); err != nil {
				return err
			}
			return s.Delete(ctx, "a")
		}, "a- b[r://1] | r://1[b] r://2[] r://3[]"},
		{"unknown session", func(s store.SessionStore) error {
			if err := s.Subscribe(ctx, "a", "r://1"); !errors.Is(err, store.ErrSessionUnknown) {
				return fmt.Errorf("Subscribe: %v, want ErrSessionUnknown", err)
			}
			return nil
		}, "a- b- | r://1[] r://2[] r://3[]"},
		{"create replaces the subscriptions", func(s store.SessionStore) error {
			if err := create(s, time.Hour, "a"); err != nil {
				return err
			}
			if err := subscribe(s, "a", "r://1"); err != nil {
				return err
			}
			now := time.Now()
			return s.Create(ctx, &store.SessionRecord{ID: "a", Version: "2025-11-25", Created: now, LastActive: now,
				Subscriptions: []string{"r://3", "r://2"}}, 0)
		}, "a[r://2 r://3] b- | r://1[] r://2[a] r://3[a]"},
		{"touch keeps them", func(s store.SessionStore) error {
			if err := create(s, time.Hour, "a"); err != nil {
				return err
			}
			if err := subscribe(s, "a", "r://1"); err != nil {
				return err
			}
			return s.Touch(ctx, "a", time.Now(), 2*time.Hour)
		}, "a[r://1] b- | r://1[a] r://2[] r://3[]"},
		{"expired session", func(s store.SessionStore) error {
			if err := create(s, time.Hour, "b"); err != nil {
				return err
			}
			if err := create(s, 20*time.Millisecond, "a"); err != nil {
				return err
			}
			if err := subscribe(s, "a", "r://1"); err != nil && !errors.Is(err, store.ErrSessionUnknown) {
				return err
			}
			if err := subscribe(s, "b", "r://1"); err != nil {
				return err
			}
			// Wait for the record to expire: nothing is asserted on time.
			for {
				if _, err := s.Get(ctx, "a"); errors.Is(err, store.ErrSessionUnknown) {
					return nil
				}
				time.Sleep(5 * time.Millisecond)
			}
		}, "a- b[r://1] | r://1[b] r://2[] r://3[]"},
	}
	show := func(s store.SessionStore) string {
		var parts []string
		for _, id := range []string{"a", "b"} {
			rec, err := s.Get(ctx, id)
			switch {
			case errors.Is(err, store.ErrSessionUnknown):
				parts = append(parts, id+"-")
			case err != nil:
				parts = append(parts, id+" error: "+err.Error())
			default:
				parts = append(parts, fmt.Sprintf("%s%v", id, rec.Subscriptions))
			}
		}
		parts = append(parts, "|")
		for _, uri := range []string{"r://1", "r://2", "r://3"} {
			ids, err := s.Subscribers(ctx, uri)
			if err != nil {
				parts = append(parts, uri+" error: "+err.Error())
				continue
			}
			slices.Sort(ids)
			parts = append(parts, fmt.Sprintf("%s%v", uri, ids))
		}
		return strings.Join(parts, " ")
	}
	for kind, newStore := range sessionStoreKinds(t) {
		for _, tt := range tests {
			t.Run(kind+"/"+tt.name, func(t *testing.T) {
				s := newStore()
				if err := tt.ops(s); err != nil {
					t.Fatal(err)
				}
				if got := show(s); got != tt.want {
					t.Errorf("got  %s\nwant %s", got, tt.want)
				}
			})
		}
	}
}

// TestSessionStoreSubscriptionIndexExpiry: in Redis, a URI's index of
// subscribers expires with the last record of its sessions, moved on when
// a record is touched, and never when a session never expires.
func TestSessionStoreSubscriptionIndexExpiry(t *testing.T) {
	rdb := startRedis(t).client(t)
	ctx := context.Background()
	s := redisstore.NewSessionStore(rdb, nil)
	now := time.Now()
	for id, ttl := range map[string]time.Duration{"short": time.Minute, "forever": 0} {
		if err := s.Create(ctx, &store.SessionRecord{ID: id, Version: "2025-11-25", Created: now, LastActive: now}, ttl); err != nil {
			t.Fatal(err)
		}
		if err := s.Subscribe(ctx, id, "r://"+id); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Subscribe(ctx, "short", "r://forever"); err != nil {
		t.Fatal(err)
	}
	if ttl := rdb.PTTL(ctx, "fastmcp:subscribers:{r://short}").Val(); ttl <= 0 || ttl > time.Minute {
		t.Errorf("r://short: PTTL %v, want within (0, 1m]", ttl)
	}
	if ttl := rdb.PTTL(ctx, "fastmcp:subscribers:{r://forever}").Val(); ttl != -1 {
		t.Errorf("r://forever: PTTL %v, want -1 (no expiry: a session that never expires subscribes)", ttl)
	}
	if err := s.Touch(ctx, "short", time.Now(), time.Hour); err != nil {
		t.Fatal(err)
	}
	if ttl := rdb.PTTL(ctx, "fastmcp:subscribers:{r://short}").Val(); ttl <= time.Minute || ttl > time.Hour {
		t.Errorf("r://short after a touch for an hour: PTTL %v, want within (1m, 1h]", ttl)
	}
	if err := s.Delete(ctx, "short"); err != nil {
		t.Fatal(err)
	}
	if n := rdb.Exists(ctx, "fastmcp:subscribers:{r://short}").Val(); n != 0 {
		t.Errorf("r://short: the index outlived its last session's Delete")
	}
}

// TestSessionStoreTouchHealsIndex: an entry lost from a URI's index (an
// index write that failed after the record was written) is back after the
// session's next touch, with the record's expiry; an entry of a
// subscription removed is not brought back for good.
func TestSessionStoreTouchHealsIndex(t *testing.T) {
	rdb := startRedis(t).client(t)
	ctx := context.Background()
	s := redisstore.NewSessionStore(rdb, nil)
	now := time.Now()
	for _, id := range []string{"a", "b"} {
		if err := s.Create(ctx, &store.SessionRecord{ID: id, Version: "2025-11-25", Created: now, LastActive: now}, time.Minute); err != nil {
			t.Fatal(err)
		}
		if err := s.Subscribe(ctx, id, "r://x"); err != nil {
			t.Fatal(err)
		}
	}
	// Each entry lost in turn comes back with its session's touch.
	for _, tc := range []struct {
		lose string
		want string
	}{
		{"a", "a,b"},
		{"b", "a,b"},
	} {
		if err := rdb.ZRem(ctx, "fastmcp:subscribers:{r://x}", tc.lose).Err(); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Subscribers(ctx, "r://x"); err != nil || strings.Contains(strings.Join(got, ","), tc.lose) {
			t.Fatalf("Subscribers after losing %s = %v, %v", tc.lose, got, err)
		}
		if err := s.Touch(ctx, tc.lose, time.Now(), time.Hour); err != nil {
			t.Fatal(err)
		}
		got, err := s.Subscribers(ctx, "r://x")
		slices.Sort(got)
		if err != nil || strings.Join(got, ",") != tc.want {
			t.Errorf("Subscribers after %s's touch = %v, %v; want %s", tc.lose, got, err, tc.want)
		}
		score, err := rdb.ZScore(ctx, "fastmcp:subscribers:{r://x}", tc.lose).Result()
		if left := time.Until(time.UnixMilli(int64(score))); err != nil || left <= time.Minute || left > time.Hour {
			t.Errorf("%s's entry expires in %v (%v), want within (1m, 1h]", tc.lose, left, err)
		}
	}
	// The index itself gone: the touch brings it back.
	if err := rdb.Del(ctx, "fastmcp:subscribers:{r://x}").Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.Touch(ctx, "a", time.Now(), time.Hour); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Subscribers(ctx, "r://x"); err != nil || strings.Join(got, ",") != "a" {
		t.Errorf("Subscribers after the index was lost and a touched = %v, %v; want a", got, err)
	}
	if ttl := rdb.PTTL(ctx, "fastmcp:subscribers:{r://x}").Val(); ttl <= time.Minute || ttl > time.Hour {
		t.Errorf("the index rebuilt by a touch: PTTL %v, want within (1m, 1h]", ttl)
	}
}
