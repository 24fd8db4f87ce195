package fastmcp

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
)

func TestMemoryTaskStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	m := NewMemoryTaskStore()
	m.now = func() time.Time { return now }
	for _, r := range []*TaskRecord{
		{ID: "a", Principal: "alice", Status: protocol.TaskWorking, CreatedAt: now, TTL: time.Minute},
		{ID: "b", Principal: "bob", Status: protocol.TaskWorking, CreatedAt: now, TTL: time.Hour},
		{ID: "c", Principal: "alice", Status: protocol.TaskWorking, CreatedAt: now.Add(time.Second)},
	} {
		if err := m.Create(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Create(ctx, &TaskRecord{ID: "a"}); err == nil {
		t.Error("Create with a used id succeeded")
	}

	// Records are copies: changing one changes nothing stored.
	a, err := m.Get(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	a.Status, a.Result = protocol.TaskCompleted, json.RawMessage(`{"content":[]}`)
	if again, _ := m.Get(ctx, "a"); again.Status != protocol.TaskWorking {
		t.Errorf("stored record changed through a copy: %+v", again)
	}
	if err := m.Update(ctx, a); err != nil {
		t.Fatal(err)
	}
	if again, _ := m.Get(ctx, "a"); !again.Terminal() || string(again.Result) != `{"content":[]}` {
		t.Errorf("after Update: %+v", again)
	}

	list, _ := m.List(ctx, "alice")
	if len(list) != 2 || list[0].ID != "a" || list[1].ID != "c" {
		t.Errorf("List(alice) = %v", list)
	}

	// A minute later a is gone, b and c (no TTL) stay.
	now = now.Add(time.Minute)
	for id, want := range map[string]error{"a": ErrTaskNotFound, "b": nil, "c": nil, "zz": ErrTaskNotFound} {
		if _, err := m.Get(ctx, id); !errors.Is(err, want) {
			t.Errorf("Get(%s) = %v, want %v", id, err, want)
		}
	}
	if err := m.Update(ctx, a); !errors.Is(err, ErrTaskNotFound) {
		t.Errorf("Update of an expired task = %v", err)
	}
	if list, _ := m.List(ctx, "alice"); len(list) != 1 || list[0].ID != "c" {
		t.Errorf("List(alice) after expiry = %v", list)
	}

	// The record survives a JSON round trip (a shared store serialises it).
	b, _ := m.Get(ctx, "b")
	raw, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var back TaskRecord
	if err := json.Unmarshal(raw, &back); err != nil || back.ID != "b" || back.TTL != time.Hour || !back.CreatedAt.Equal(b.CreatedAt) {
		t.Errorf("round trip: %+v %v", back, err)
	}
}

// TestTasksOptionsAddUp checks that a later Tasks option keeps what an
// earlier one set and it does not.
func TestTasksOptionsAddUp(t *testing.T) {
	store := NewMemoryTaskStore()
	s := enableTasks(New("t", "1", Tasks(TaskSettings{Store: store, MaxRunning: 3}), Tasks(TaskSettings{TTL: time.Minute})))
	if s.tasks.store != store || s.tasks.ttl != time.Minute || s.tasks.max != 3 || s.tasks.poll != time.Second {
		t.Errorf("tasks: store kept %v, ttl %v, max %d, poll %v", s.tasks.store == store, s.tasks.ttl, s.tasks.max, s.tasks.poll)
	}
}

// enableTasks makes s run tasks, as registering its first tool with Task
// does.
func enableTasks(s *Server) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	taskCode{}.enable(s)
	return s
}

// failingUpdates is a task store whose Update fails.
type failingUpdates struct{ TaskStore }

func (failingUpdates) Update(context.Context, *TaskRecord) error { return errors.New("store down") }

// TestTaskStoreFailureLogged checks that a running task's change the store
// fails to record is logged, not lost silently, and notifies no one.
func TestTaskStoreFailureLogged(t *testing.T) {
	var logs bytes.Buffer
	m := newTaskManager(TaskSettings{Store: failingUpdates{NewMemoryTaskStore()}})
	m.logger = slog.New(slog.NewTextHandler(&logs, nil))
	notified := false
	m.notify = func(*TaskRecord) { notified = true }
	rt := &runningTask{m: m}
	if _, err := rt.create(context.Background(), "p", "tool"); err != nil {
		t.Fatal(err)
	}
	rt.status("half way")
	if !strings.Contains(logs.String(), "recording the task's new state") || !strings.Contains(logs.String(), "store down") {
		t.Errorf("log = %q", logs.String())
	}
	if notified {
		t.Error("a change the store did not record was notified")
	}
}

// lapsingStore is a TaskLeaseStore in memory whose leases lapse when the
// test says so.
type lapsingStore struct {
	*MemoryTaskStore
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

func (l *lapsingStore) LeaseLapsed(_ context.Context, rec *TaskRecord) (lapsed, first bool, err error) {
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
		res  *ToolResult
		err  error
	}{
		{"completes late", &ToolResult{}, nil},
		{"fails late", nil, errors.New("handler gave up")},
	} {
		t.Run(outcome.name, func(t *testing.T) {
			ctx := context.Background()
			store := &lapsingStore{MemoryTaskStore: NewMemoryTaskStore(), lapsed: map[string]bool{}}
			m := newTaskManager(TaskSettings{Store: store, LeasePeriod: time.Millisecond, LeaseTimeout: time.Hour})
			defer func() {
				if err := m.shutdown(ctx); err != nil {
					t.Error(err)
				}
			}()
			var notified []protocol.TaskStatus
			m.notify = func(r *TaskRecord) { notified = append(notified, r.Status) }
			hctx, cancel := context.WithCancelCause(ctx)
			defer cancel(nil)
			rt := &runningTask{m: m, cancel: cancel}
			rec, err := rt.create(ctx, "p", "tool")
			if err != nil {
				t.Fatal(err)
			}

			// Another replica finds the lease lapsed and records the end.
			failed := *rec
			failed.Status, failed.StatusMessage = protocol.TaskFailed, TaskLapsedMessage
			if err := store.Update(ctx, &failed); err != nil {
				t.Fatal(err)
			}
			store.lapse(rec.ID)

			<-hctx.Done()
			if cause := context.Cause(hctx); !errors.Is(cause, errTaskLapsed) {
				t.Errorf("the handler's context ended with %v, want errTaskLapsed", cause)
			}
			// The handler's outcome comes late; the store raced with it
			// as well (a direct Update).
			late := *rec
			late.Status = protocol.TaskCompleted
			if err := store.Update(ctx, &late); !errors.Is(err, ErrTaskEnded) {
				t.Errorf("Update of a failed task = %v, want ErrTaskEnded", err)
			}
			rt.finish(hctx, outcome.res, outcome.err)
			got, err := store.Get(ctx, rec.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != protocol.TaskFailed || got.StatusMessage != TaskLapsedMessage || got.Result != nil {
				t.Errorf("after the late outcome: %s %q result %s, want failed %q", got.Status, got.StatusMessage, got.Result, TaskLapsedMessage)
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
	store := &lapsingStore{MemoryTaskStore: NewMemoryTaskStore(), lapsed: map[string]bool{}}
	s := enableTasks(New("t", "1", Tasks(TaskSettings{Store: store})))
	notified := false
	s.tasks.notify = func(*TaskRecord) { notified = true }
	now := time.Now()
	seen := &TaskRecord{ID: "x", Principal: "p", Status: protocol.TaskWorking, CreatedAt: now, TTL: time.Hour, Runner: "elsewhere"}
	if err := store.Create(ctx, seen); err != nil {
		t.Fatal(err)
	}
	done := *seen
	done.Status, done.Result = protocol.TaskCompleted, json.RawMessage(`{"content":[]}`)
	if err := store.Update(ctx, &done); err != nil {
		t.Fatal(err)
	}
	store.lapse("x")
	got, err := s.checkLease(ctx, copyRecord(seen))
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != protocol.TaskCompleted || string(got.Result) != `{"content":[]}` {
		t.Errorf("checkLease = %s %s, want the completion", got.Status, got.Result)
	}
	if stored, _ := store.Get(ctx, "x"); stored.Status != protocol.TaskCompleted {
		t.Errorf("stored %s, want completed", stored.Status)
	}
	if notified {
		t.Error("a failure that was not recorded was notified")
	}
}
