package taskrun

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
)

// holdingTaskStore is a store.MemoryTaskStore that records the states it
// stores, per task, and holds the first Update of a record whose status
// message is hold until release is closed (or its ctx ends).
type holdingTaskStore struct {
	*store.MemoryTaskStore
	hold    string
	once    sync.Once
	entered chan struct{}
	release chan struct{}

	mu     sync.Mutex
	stored map[string][]string // task → "status message" of each Update stored
}

func (s *holdingTaskStore) Update(ctx context.Context, rec *store.TaskRecord) error {
	if s.hold != "" && rec.StatusMessage == s.hold {
		held := false
		s.once.Do(func() { held = true })
		if held {
			s.entered <- struct{}{}
			select {
			case <-s.release:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	err := s.MemoryTaskStore.Update(ctx, rec)
	if err == nil {
		s.mu.Lock()
		s.stored[rec.ID] = append(s.stored[rec.ID], string(rec.Status)+" "+rec.StatusMessage)
		s.mu.Unlock()
	}
	return err
}

func (s *holdingTaskStore) states(id string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.stored[id])
}

// notReturning fails the test when f has not returned after a bound far
// above what it takes: it is blocked behind the held write.
func notReturning(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second): // the held write's own bound is storeTimeout, 10 s
		t.Errorf("%s is blocked while the task's new state is being written", what)
	}
}

// TestTaskWriteOutsideLock: while a task's new state is being written (a
// task store, or a bus publishing the state, that stalls), the task's
// lock is free: ctx.Log's lookup of the task id, the bus worker passing on
// a tasks/cancel, and other tasks' changes go on; and the task's states
// are stored in the order they were made (the cancellation after the held
// change, the handler's outcome refused after it).
func TestTaskWriteOutsideLock(t *testing.T) {
	for _, where := range []string{"store", "bus"} {
		t.Run(where, func(t *testing.T) {
			ctx := context.Background()
			ts := &holdingTaskStore{MemoryTaskStore: store.NewMemoryTaskStore(), entered: make(chan struct{}, 1), release: make(chan struct{}), stored: map[string][]string{}}
			m := New(Config{Store: ts})
			defer func() {
				if err := m.Shutdown(ctx); err != nil {
					t.Error(err)
				}
			}()
			var (
				mu       sync.Mutex
				notified []string
				once     sync.Once
			)
			m.notify = func(r *store.TaskRecord) {
				if where == "bus" && r.StatusMessage == "held" {
					held := false
					once.Do(func() { held = true })
					if held {
						ts.entered <- struct{}{}
						<-ts.release
					}
				}
				mu.Lock()
				notified = append(notified, r.ID+" "+string(r.Status))
				mu.Unlock()
			}
			if where == "store" {
				ts.hold = "held"
			}
			actx, acancel := context.WithCancelCause(ctx)
			defer acancel(nil)
			a := &Task{m: m, cancel: acancel}
			recA, err := a.create(ctx, "p", "tool")
			if err != nil {
				t.Fatal(err)
			}
			b := &Task{m: m, cancel: func(error) {}}
			recB, err := b.create(ctx, "p", "tool")
			if err != nil {
				t.Fatal(err)
			}

			held := make(chan struct{})
			go func() {
				defer close(held)
				a.SetStatus("held") // ctx.Progress inside the task
			}()
			released := false
			release := func() {
				if !released {
					released = true
					close(ts.release)
				}
			}
			defer release()
			<-ts.entered

			notReturning(t, "ctx.Log inside the task (its id lookup)", func() {
				if id, ok := a.ID(); !ok || id != recA.ID {
					t.Errorf("createdID = %q, %v", id, ok)
				}
			})
			notReturning(t, "another task's status change", func() { b.SetStatus("b half way") })
			if got, _ := ts.Get(ctx, recB.ID); got.StatusMessage != "b half way" {
				t.Errorf("the other task's status message is %q", got.StatusMessage)
			}
			notReturning(t, "the bus worker passing on a tasks/cancel", func() {
				m.applyControl(recA.ID, control{Cancel: true})
			})
			finished := make(chan struct{})
			go func() {
				defer close(finished)
				<-actx.Done() // the cancellation reached the handler
				a.finish(actx, nil, context.Cause(actx))
			}()
			release()
			<-held
			<-finished

			want := []string{"working held", "cancelled cancelled by the client"}
			if got := ts.states(recA.ID); !slices.Equal(got, want) {
				t.Errorf("stored states of the task = %q, want %q", got, want)
			}
			if got, _ := ts.Get(ctx, recA.ID); got.Status != protocol.TaskCancelled {
				t.Errorf("the task ended %s, want cancelled", got.Status)
			}
			if cause := context.Cause(actx); !errors.Is(cause, errCancelled) {
				t.Errorf("the handler's context ended with %v", cause)
			}
			mu.Lock()
			defer mu.Unlock()
			var gotA []string
			for _, n := range notified {
				if id, status, _ := strings.Cut(n, " "); id == recA.ID {
					gotA = append(gotA, status)
				}
			}
			if want := []string{"working", "cancelled"}; !slices.Equal(gotA, want) {
				t.Errorf("notified states of the task = %q, want %q", gotA, want)
			}
		})
	}
}
