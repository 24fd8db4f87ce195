package transport

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/store"
)

// TestMemoryEventStoreGlobalBudget: many sessions together hold no more
// than MaxTotalBytes; the oldest events of any session go first, and a
// resumption from before them gets store.ErrEventsLost; a deleted session's
// bytes no longer count.
func TestMemoryEventStoreGlobalBudget(t *testing.T) {
	ctx := context.Background()
	const event, budget = 1 << 10, 64 << 10
	s := NewMemoryEventStore(&MemoryEventStoreOptions{MaxTotalBytes: budget})
	data := make([]byte, event)
	for i := range 200 { // 200 KiB over 20 sessions, 10 events each, in turn
		sess := fmt.Sprint("s", i%20)
		if _, err := s.AppendNext(ctx, sess, "st", data); err != nil {
			t.Fatal(err)
		}
		if got := s.totalBytes(); got > budget {
			t.Fatalf("after %d appends the store counts %d bytes, over the %d budget", i+1, got, budget)
		}
	}
	if got, want := s.len(), budget/event; got != want {
		t.Errorf("%d events held, want %d (the budget's worth)", got, want)
	}
	// The oldest went first: every session lost its first events, and
	// each holds only its newest.
	for i := range 20 {
		sess := fmt.Sprint("s", i)
		if err := s.Replay(ctx, sess, "st", 0, func(int64, []byte) error { return nil }); !errors.Is(err, store.ErrEventsLost) {
			t.Errorf("%s: replay from the start = %v, want store.ErrEventsLost", sess, err)
		}
		var seqs []int64
		if err := s.Replay(ctx, sess, "st", 7, func(seq int64, _ []byte) error { seqs = append(seqs, seq); return nil }); err != nil {
			t.Errorf("%s: replay of the newest: %v", sess, err)
		}
		if len(seqs) == 0 || seqs[len(seqs)-1] != 10 {
			t.Errorf("%s: newest events %v, want ...10", sess, seqs)
		}
	}
	for i := range 20 {
		s.DeleteSession(ctx, fmt.Sprint("s", i))
	}
	if got := s.totalBytes(); got != 0 {
		t.Errorf("after deleting every session the store counts %d bytes", got)
	}
	s.gmu.Lock()
	queued := len(s.fifo) - s.fhead
	s.gmu.Unlock()
	if queued != 0 {
		t.Errorf("%d records left in the global queue after every session went", queued)
	}
}

// TestMemoryEventStoreGlobalBudgetConcurrent: appends and deletes from
// many goroutines keep the count within the budget (run with -race).
func TestMemoryEventStoreGlobalBudgetConcurrent(t *testing.T) {
	ctx := context.Background()
	const budget = 32 << 10
	s := NewMemoryEventStore(&MemoryEventStoreOptions{MaxTotalBytes: budget})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			data := make([]byte, 512)
			for i := range 300 {
				sess := fmt.Sprint("g", g, "-", i%5)
				s.AppendNext(ctx, sess, "st", data)
				if i%50 == 49 {
					s.DeleteSession(ctx, sess)
				}
			}
		})
	}
	wg.Wait()
	if got := s.totalBytes(); got > budget {
		t.Errorf("the store counts %d bytes, over the %d budget", got, budget)
	}
	held := 0
	s.mu.RLock()
	for _, ms := range s.sessions {
		ms.mu.Lock()
		held += ms.bytes
		ms.mu.Unlock()
	}
	s.mu.RUnlock()
	if int64(held) != s.totalBytes() {
		t.Errorf("sessions hold %d bytes, the global count says %d", held, s.totalBytes())
	}
}
