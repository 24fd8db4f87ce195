package redisstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// taskStoreKinds builds each TaskStore under test: the in-memory default
// and the Redis store, which must behave alike.
func taskStoreKinds(t *testing.T) map[string]func() store.TaskStore {
	rdb := startRedis(t).client(t)
	n := 0
	return map[string]func() store.TaskStore{
		"memory": func() store.TaskStore { return store.NewMemoryTaskStore() },
		"redis": func() store.TaskStore {
			n++
			return redisstore.NewTaskStore(rdb, &redisstore.TaskStoreOptions{Prefix: "t" + strconv.Itoa(n) + ":"})
		},
	}
}

func ids(recs []*store.TaskRecord) string {
	var s []string
	for _, r := range recs {
		s = append(s, r.ID)
	}
	return strings.Join(s, ",")
}

// TestTaskStores runs the same behaviour checks against the memory and
// the Redis task stores.
func TestTaskStores(t *testing.T) {
	now := time.Now().Truncate(time.Millisecond)
	for kind, newStore := range taskStoreKinds(t) {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			s := newStore()
			for _, r := range []*store.TaskRecord{
				{ID: "a", Principal: "alice", Tool: "t", Status: protocol.TaskWorking, CreatedAt: now, TTL: time.Hour},
				{ID: "b", Principal: "bob", Status: protocol.TaskWorking, CreatedAt: now, TTL: time.Hour},
				{ID: "c", Principal: "alice", Status: protocol.TaskWorking, CreatedAt: now.Add(-time.Second)},
				{ID: "d", Principal: "alice", Status: protocol.TaskWorking, CreatedAt: now.Add(-2 * time.Hour), TTL: time.Hour},
				{ID: "e", Principal: "alice", Status: protocol.TaskWorking, CreatedAt: now, TTL: time.Hour},
			} {
				if err := s.Create(ctx, r); err != nil {
					t.Fatalf("Create(%s): %v", r.ID, err)
				}
			}
			if err := s.Create(ctx, &store.TaskRecord{ID: "a", Principal: "mallory", CreatedAt: now}); err == nil {
				t.Error("Create with a used id succeeded")
			}
			if got, _ := s.Get(ctx, "a"); got == nil || got.Principal != "alice" {
				t.Errorf("a duplicate Create changed the task: %+v", got)
			}

			a, err := s.Get(ctx, "a")
			if err != nil || a.Tool != "t" || !a.CreatedAt.Equal(now) || a.TTL != time.Hour {
				t.Fatalf("Get(a) = %+v, %v", a, err)
			}
			a.Status, a.Result = protocol.TaskCompleted, json.RawMessage(`{"content":[]}`)
			if again, _ := s.Get(ctx, "a"); again.Status != protocol.TaskWorking {
				t.Errorf("stored record changed through a copy: %+v", again)
			}
			a.Error = &protocol.Error{Code: -1, Message: "m"}
			a.InputRequests = protocol.InputRequests{"k": {Method: "elicitation/create"}}
			if err := s.Update(ctx, a); err != nil {
				t.Fatal(err)
			}
			if got, _ := s.Get(ctx, "a"); !got.Terminal() || string(got.Result) != `{"content":[]}` ||
				got.Error.Message != "m" || got.InputRequests["k"].Method != "elicitation/create" {
				t.Errorf("after Update: %+v", got)
			}

			for id, want := range map[string]error{"b": nil, "c": nil, "d": store.ErrTaskNotFound, "zz": store.ErrTaskNotFound} {
				if _, err := s.Get(ctx, id); !errors.Is(err, want) {
					t.Errorf("Get(%s) = %v, want %v", id, err, want)
				}
			}
			for _, r := range []*store.TaskRecord{
				{ID: "zz", CreatedAt: now, TTL: time.Hour},
				{ID: "d", Principal: "alice", CreatedAt: now.Add(-2 * time.Hour), TTL: time.Hour},
			} {
				if err := s.Update(ctx, r); !errors.Is(err, store.ErrTaskNotFound) {
					t.Errorf("Update(%s) = %v, want ErrTaskNotFound", r.ID, err)
				}
			}
			for p, want := range map[string]string{"alice": "c,a,e", "bob": "b", "nobody": ""} {
				if list, err := s.List(ctx, p); err != nil || ids(list) != want {
					t.Errorf("List(%s) = %q, %v; want %q", p, ids(list), err, want)
				}
			}
		})
	}
}

// TestTaskStoreExpiry: Redis expires a task at CreatedAt+TTL, and the
// principal's index with its last task.
func TestTaskStoreExpiry(t *testing.T) {
	rdb := startRedis(t).client(t)
	ctx := context.Background()
	s := redisstore.NewTaskStore(rdb, nil)
	now := time.Now().Truncate(time.Millisecond)
	for _, r := range []*store.TaskRecord{
		{ID: "short", Principal: "p", CreatedAt: now, TTL: time.Minute},
		{ID: "long", Principal: "p", CreatedAt: now, TTL: time.Hour + 1500*time.Millisecond},
		{ID: "mid", Principal: "p", CreatedAt: now, TTL: 2 * time.Minute},
		{ID: "forever", Principal: "q", CreatedAt: now},
	} {
		if err := s.Create(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	for key, want := range map[string]time.Time{
		"fastmcp:task:short": now.Add(time.Minute),
		"fastmcp:task:long":  now.Add(time.Hour + 1500*time.Millisecond),
		"fastmcp:tasks-of:p": now.Add(time.Hour + 1500*time.Millisecond),
	} {
		if got := rdb.PExpireTime(ctx, key).Val(); got != time.Duration(want.UnixMilli())*time.Millisecond {
			t.Errorf("%s expires at %v, want %v", key, got, time.Duration(want.UnixMilli())*time.Millisecond)
		}
	}
	for _, key := range []string{"fastmcp:task:forever", "fastmcp:tasks-of:q"} {
		if got := rdb.PExpireTime(ctx, key).Val(); got != -1 {
			t.Errorf("%s expires at %v, want never (-1)", key, got)
		}
	}
	// Update keeps the expiry.
	if err := s.Update(ctx, &store.TaskRecord{ID: "short", Principal: "p", CreatedAt: now, TTL: time.Minute, Status: protocol.TaskCompleted}); err != nil {
		t.Fatal(err)
	}
	if got := rdb.PExpireTime(ctx, "fastmcp:task:short").Val(); got != time.Duration(now.Add(time.Minute).UnixMilli())*time.Millisecond {
		t.Errorf("after Update, expires at %v", got)
	}
	// A task Redis dropped is left out of List.
	rdb.Del(ctx, "fastmcp:task:mid")
	if list, err := s.List(ctx, "p"); err != nil || ids(list) != "long,short" {
		t.Errorf("List = %q, %v", ids(list), err)
	}
}

// TestTaskStoresKeepEnd: in both stores, once a task's stored status is
// final, Update refuses to change it (store.ErrTaskEnded) and the stored
// outcome stays, whichever final status comes late.
func TestTaskStoresKeepEnd(t *testing.T) {
	now := time.Now().Truncate(time.Millisecond)
	for kind, newStore := range taskStoreKinds(t) {
		for _, end := range []protocol.TaskStatus{protocol.TaskCompleted, protocol.TaskFailed, protocol.TaskCancelled} {
			t.Run(kind+"/"+string(end), func(t *testing.T) {
				ctx := context.Background()
				s := newStore()
				rec := &store.TaskRecord{ID: "x", Principal: "p", Status: protocol.TaskWorking, CreatedAt: now, TTL: time.Hour}
				if err := s.Create(ctx, rec); err != nil {
					t.Fatal(err)
				}
				working := *rec
				working.Status, working.StatusMessage = protocol.TaskInputRequired, "asks"
				if err := s.Update(ctx, &working); err != nil {
					t.Fatalf("Update of a working task: %v", err)
				}
				ended := *rec
				ended.Status, ended.StatusMessage = end, "the end"
				if err := s.Update(ctx, &ended); err != nil {
					t.Fatalf("Update to %s: %v", end, err)
				}
				for _, late := range []protocol.TaskStatus{protocol.TaskWorking, protocol.TaskCompleted, protocol.TaskFailed, protocol.TaskCancelled} {
					r := *rec
					r.Status, r.StatusMessage = late, "late"
					if err := s.Update(ctx, &r); !errors.Is(err, store.ErrTaskEnded) {
						t.Errorf("Update of a %s task to %s = %v, want ErrTaskEnded", end, late, err)
					}
				}
				got, err := s.Get(ctx, "x")
				if err != nil || got.Status != end || got.StatusMessage != "the end" {
					t.Fatalf("stored %+v %v, want %s", got, err, end)
				}
				if err := s.Update(ctx, &store.TaskRecord{ID: "none", CreatedAt: now, TTL: time.Hour}); !errors.Is(err, store.ErrTaskNotFound) {
					t.Errorf("Update of an unknown task = %v, want ErrTaskNotFound", err)
				}
			})
		}
	}
}

// TestTaskLeasesReportLapsed: RenewLeases returns the tasks whose leases
// were found lapsed (and renews the others), so that their runner stops
// them.
func TestTaskLeasesReportLapsed(t *testing.T) {
	ctx := context.Background()
	srv := startRedis(t)
	rdb := srv.client(t)
	s := redisstore.NewTaskStore(rdb, nil)
	now := time.Now()
	lapsed, err := s.RenewLeases(ctx, []string{"live", "dead"}, time.Hour)
	if err != nil || len(lapsed) != 0 {
		t.Fatalf("first renewal: lapsed %v, %v", lapsed, err)
	}
	// The lease of "dead" ends (its replica stalled); another replica
	// finds it lapsed.
	if err := rdb.Del(ctx, redisstore.DefaultPrefix+"task-lease:dead").Err(); err != nil {
		t.Fatal(err)
	}
	if l, first, err := s.LeaseLapsed(ctx, &store.TaskRecord{ID: "dead", CreatedAt: now, TTL: time.Hour}); err != nil || !l || !first {
		t.Fatalf("LeaseLapsed = %v %v %v", l, first, err)
	}
	lapsed, err = s.RenewLeases(ctx, []string{"live", "dead"}, time.Hour)
	if err != nil || len(lapsed) != 1 || lapsed[0] != "dead" {
		t.Fatalf("renewal after the lapse: lapsed %v, %v; want [dead]", lapsed, err)
	}
	if l, _, err := s.LeaseLapsed(ctx, &store.TaskRecord{ID: "live", CreatedAt: now, TTL: time.Hour}); err != nil || l {
		t.Errorf("the live lease: lapsed %v, %v", l, err)
	}
}
