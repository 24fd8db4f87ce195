package taskrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// TestDefaults: a zero Config takes the defaults fastmcp.TaskSettings
// documents.
func TestDefaults(t *testing.T) {
	m := New(Config{})
	if m.store == nil || m.ttl != time.Hour || m.max != DefaultMaxRunning || m.poll != time.Second ||
		m.leasePeriod != DefaultLeasePeriod || m.leaseTimeout != DefaultLeaseTimeout {
		t.Errorf("defaults: store %v, ttl %v, max %d, poll %v, lease %v/%v", m.store, m.ttl, m.max, m.poll, m.leasePeriod, m.leaseTimeout)
	}
	if m := New(Config{MaxRunning: -1}); m.max != 0 {
		t.Errorf("MaxRunning -1: bound %d, want none", m.max)
	}
}

// failingUpdates is a task store whose Update fails.
type failingUpdates struct{ store.TaskStore }

func (failingUpdates) Update(context.Context, *store.TaskRecord) error {
	return errors.New("store down")
}

// TestTaskStoreFailureLogged checks that a running task's change the store
// fails to record is logged, not lost silently, and notifies no one.
func TestTaskStoreFailureLogged(t *testing.T) {
	var logs bytes.Buffer
	m := New(Config{Store: failingUpdates{store.NewMemoryTaskStore()}, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	notified := false
	m.notify = func(*store.TaskRecord) { notified = true }
	rt := &Task{m: m}
	if _, err := rt.create(context.Background(), "p", "tool"); err != nil {
		t.Fatal(err)
	}
	rt.SetStatus("half way")
	if !strings.Contains(logs.String(), "recording the task's new state") || !strings.Contains(logs.String(), "store down") {
		t.Errorf("log = %q", logs.String())
	}
	if notified {
		t.Error("a change the store did not record was notified")
	}
}

// lapsingStore is a store.TaskLeaseStore in memory whose leases lapse when the
// test says so.
type lapsingStore struct {
	*store.MemoryTaskStore
	mu     sync.Mutex
	lapsed map[string]bool
}

func (l *lapsingStore) lapse(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lapsed[id] = true
}

func (l *lapsingStore) RenewLeases(_ context.Context, ids []string, _ time.Duration) (lapsed []string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range ids {
		if l.lapsed[id] {
			lapsed = append(lapsed, id)
		}
	}
	return lapsed, nil
}

func (l *lapsingStore) LeaseLapsed(_ context.Context, rec *store.TaskRecord) (lapsed, first bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lapsed[rec.ID], l.lapsed[rec.ID], nil
}

// TestTaskLapsedStaysFailed: a task whose lease lapsed is reported failed
// by another replica; the replica running it learns so at its next
// renewal and cancels the handler, whose late outcome (a success) leaves
// the task failed. A direct Update of the ended task is refused.
func TestTaskLapsedStaysFailed(t *testing.T) {
	for _, outcome := range []struct {
		name string
		res  any
		err  error
	}{
		{"completes late", json.RawMessage(`{"content":[]}`), nil},
		{"fails late", nil, errors.New("handler gave up")},
	} {
		t.Run(outcome.name, func(t *testing.T) {
			ctx := context.Background()
			ts := &lapsingStore{MemoryTaskStore: store.NewMemoryTaskStore(), lapsed: map[string]bool{}}
			m := New(Config{Store: ts, LeasePeriod: time.Millisecond, LeaseTimeout: time.Hour})
			defer func() {
				if err := m.Shutdown(ctx); err != nil {
					t.Error(err)
				}
			}()
			var notified []protocol.TaskStatus
			m.notify = func(r *store.TaskRecord) { notified = append(notified, r.Status) }
			hctx, cancel := context.WithCancelCause(ctx)
			defer cancel(nil)
			rt := &Task{m: m, cancel: cancel}
			rec, err := rt.create(ctx, "p", "tool")
			if err != nil {
				t.Fatal(err)
			}

			// Another replica finds the lease lapsed and records the end.
			failed := *rec
			failed.Status, failed.StatusMessage = protocol.TaskFailed, LapsedMessage
			if err := ts.Update(ctx, &failed); err != nil {
				t.Fatal(err)
			}
			ts.lapse(rec.ID)

			<-hctx.Done()
			if cause := context.Cause(hctx); !errors.Is(cause, errLapsed) {
				t.Errorf("the handler's context ended with %v, want errLapsed", cause)
			}
			// The handler's outcome comes late; the store raced with it
			// as well (a direct Update).
			late := *rec
			late.Status = protocol.TaskCompleted
			if err := ts.Update(ctx, &late); !errors.Is(err, store.ErrTaskEnded) {
				t.Errorf("Update of a failed task = %v, want store.ErrTaskEnded", err)
			}
			rt.finish(hctx, outcome.res, outcome.err)
			got, err := ts.Get(ctx, rec.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != protocol.TaskFailed || got.StatusMessage != LapsedMessage || got.Result != nil {
				t.Errorf("after the late outcome: %s %q result %s, want failed %q", got.Status, got.StatusMessage, got.Result, LapsedMessage)
			}
			if len(notified) != 0 {
				t.Errorf("notified %v: nothing was recorded", notified)
			}
		})
	}
}

// TestTaskLapseRacesCompletion: a replica finds a task's lease lapsed
// while the task completes (its replica was alive after all): the
// completion stands, and that is what the replica reports, notifying no
// one.
func TestTaskLapseRacesCompletion(t *testing.T) {
	ctx := context.Background()
	ts := &lapsingStore{MemoryTaskStore: store.NewMemoryTaskStore(), lapsed: map[string]bool{}}
	m := New(Config{Store: ts})
	notified := false
	m.notify = func(*store.TaskRecord) { notified = true }
	now := time.Now()
	seen := &store.TaskRecord{ID: "x", Principal: "p", Status: protocol.TaskWorking, CreatedAt: now, TTL: time.Hour, Runner: "elsewhere"}
	if err := ts.Create(ctx, seen); err != nil {
		t.Fatal(err)
	}
	done := *seen
	done.Status, done.Result = protocol.TaskCompleted, json.RawMessage(`{"content":[]}`)
	if err := ts.Update(ctx, &done); err != nil {
		t.Fatal(err)
	}
	ts.lapse("x")
	got, err := m.checkLease(ctx, func() *store.TaskRecord { c := *seen; return &c }())
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != protocol.TaskCompleted || string(got.Result) != `{"content":[]}` {
		t.Errorf("checkLease = %s %s, want the completion", got.Status, got.Result)
	}
	if stored, _ := ts.Get(ctx, "x"); stored.Status != protocol.TaskCompleted {
		t.Errorf("stored %s, want completed", stored.Status)
	}
	if notified {
		t.Error("a failure that was not recorded was notified")
	}
}
