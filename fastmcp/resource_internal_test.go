package fastmcp

import (
	"log/slog"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/transport"
)

// TestSubscriptionsDropEndedSessions checks that a session's subscriptions
// are forgotten when it ends, without a goroutine per session.
func TestSubscriptionsDropEndedSessions(t *testing.T) {
	t.Parallel()
	s := New("t", "1", Logger(slog.New(slog.DiscardHandler)))
	cc, sc := transport.NewPipe()
	sess := s.ll.NewSession(sc)
	s.resources.subs.add(sess, "x://a")
	s.resources.subs.add(sess, "x://b")
	if got := len(s.resources.subs.subscribers("x://a")); got != 1 {
		t.Fatalf("subscribers = %d, want 1", got)
	}
	cc.Close()
	sess.Wait()
	// The cleanup runs on its own goroutine once the session's context is
	// done; wait for it, bounded.
	deadline := time.Now().Add(5 * time.Second)
	for {
		s.resources.subs.mu.Lock()
		n := len(s.resources.subs.by)
		s.resources.subs.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the ended session's subscriptions were not dropped")
		}
		time.Sleep(time.Millisecond)
	}
	// Subscribing on a session that already ended leaves nothing behind.
	s.resources.subs.add(sess, "x://c")
	deadline = time.Now().Add(5 * time.Second)
	for len(s.resources.subs.subscribers("x://c")) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("a subscription on an ended session was kept")
		}
		time.Sleep(time.Millisecond)
	}
}
