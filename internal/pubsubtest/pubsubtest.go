// Package pubsubtest checks that a store.Bus behaves as the interface
// says, so that every implementation runs the same table.
package pubsubtest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
)

// Run checks the behaviour of the buses newBus returns, one subtest per
// case of busCases. Each call of newBus returns a new bus handle onto one
// shared medium (two processes' views of one Redis), so messages published
// on one reach the subscribers of the other.
func Run(t *testing.T, newBus func(t *testing.T) store.Bus) {
	for _, c := range busCases {
		t.Run(c.name, func(t *testing.T) { c.run(t, newBus) })
	}
}

// busCase is one behaviour a store.Bus must have.
type busCase struct {
	name string
	run  func(t *testing.T, newBus func(t *testing.T) store.Bus)
}

// busCases are the cases Run runs, in order.
var busCases = []busCase{
	{"DeliversToEverySubscriberInOrder", deliversToEverySubscriberInOrder},
	{"TopicsAreSeparate", topicsAreSeparate},
	{"UnsubscribeStopsDelivery", unsubscribeStopsDelivery},
	{"PublishDoesNotKeepMsg", publishDoesNotKeepMsg},
	{"CallbackMayPublishAndUnsubscribe", callbackMayPublishAndUnsubscribe},
	{"CancelledContext", cancelledContext},
}

// deliversToEverySubscriberInOrder: every subscriber of a topic, on either
// handle, gets each message published on it, in the order published.
func deliversToEverySubscriberInOrder(t *testing.T, newBus func(t *testing.T) store.Bus) {
	ctx := context.Background()
	a, b := newBus(t), newBus(t)
	topic := t.Name()
	got1, un1 := collect(t, a, topic)
	defer un1()
	got2, un2 := collect(t, b, topic)
	defer un2()
	for i := range 50 {
		if err := a.Publish(ctx, topic, fmt.Appendf(nil, "m%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	for _, got := range []*recorder{got1, got2} {
		msgs := got.wait(t, 50)
		for i, m := range msgs {
			if want := fmt.Sprintf("m%d", i); m != want {
				t.Fatalf("message %d = %q, want %q", i, m, want)
			}
		}
	}
}

// topicsAreSeparate: a subscriber gets only its own topic's messages.
func topicsAreSeparate(t *testing.T, newBus func(t *testing.T) store.Bus) {
	ctx := context.Background()
	a := newBus(t)
	other, unOther := collect(t, a, t.Name()+"/other")
	defer unOther()
	mine, unMine := collect(t, a, t.Name())
	defer unMine()
	if err := a.Publish(ctx, t.Name(), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := a.Publish(ctx, t.Name()+"/other", []byte("y")); err != nil {
		t.Fatal(err)
	}
	if got := mine.wait(t, 1); got[0] != "x" {
		t.Fatalf("got %q", got)
	}
	if got := other.wait(t, 1); got[0] != "y" {
		t.Fatalf("got %q", got)
	}
}

// unsubscribeStopsDelivery: an ended subscription gets nothing more (and
// ending it twice is fine), while the others on the topic still do.
func unsubscribeStopsDelivery(t *testing.T, newBus func(t *testing.T) store.Bus) {
	ctx := context.Background()
	a := newBus(t)
	topic := t.Name()
	gone, unGone := collect(t, a, topic)
	stay, unStay := collect(t, a, topic)
	defer unStay()
	unGone()
	unGone() // twice is fine
	if err := a.Publish(ctx, topic, []byte("after")); err != nil {
		t.Fatal(err)
	}
	stay.wait(t, 1)
	// Publish a second message and wait for it too: the first one,
	// had it gone to the ended subscription, would have arrived first.
	if err := a.Publish(ctx, topic, []byte("after2")); err != nil {
		t.Fatal(err)
	}
	stay.wait(t, 2)
	if n := gone.count(); n != 0 {
		t.Fatalf("ended subscription got %d messages", n)
	}
}

// publishDoesNotKeepMsg: Publish does not keep the caller's slice.
func publishDoesNotKeepMsg(t *testing.T, newBus func(t *testing.T) store.Bus) {
	ctx := context.Background()
	a := newBus(t)
	topic := t.Name()
	got, un := collect(t, a, topic)
	defer un()
	buf := []byte("first")
	if err := a.Publish(ctx, topic, buf); err != nil {
		t.Fatal(err)
	}
	copy(buf, "XXXXX")
	if m := got.wait(t, 1); m[0] != "first" {
		t.Fatalf("got %q", m[0])
	}
}

// callbackMayPublishAndUnsubscribe: a callback may publish and end its own
// subscription without deadlocking the bus.
func callbackMayPublishAndUnsubscribe(t *testing.T, newBus func(t *testing.T) store.Bus) {
	ctx := context.Background()
	a := newBus(t)
	topic := t.Name()
	echo, unEcho := collect(t, a, topic+"/echo")
	defer unEcho()
	var un func()
	var mu sync.Mutex // un is set under it before the callback reads it
	mu.Lock()
	un, err := a.Subscribe(ctx, topic, func(msg []byte) {
		if err := a.Publish(context.Background(), topic+"/echo", msg); err != nil {
			t.Error(err)
		}
		mu.Lock()
		defer mu.Unlock()
		un()
	})
	mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Publish(ctx, topic, []byte("ping")); err != nil {
		t.Fatal(err)
	}
	if m := echo.wait(t, 1); m[0] != "ping" {
		t.Fatalf("got %q", m[0])
	}
}

// cancelledContext: Publish and Subscribe fail on a context already done.
func cancelledContext(t *testing.T, newBus func(t *testing.T) store.Bus) {
	ctx := context.Background()
	a := newBus(t)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := a.Publish(cctx, t.Name(), []byte("x")); err == nil {
		t.Error("Publish with a cancelled context succeeded")
	}
	if _, err := a.Subscribe(cctx, t.Name(), func([]byte) {}); err == nil {
		t.Error("Subscribe with a cancelled context succeeded")
	}
}

type recorder struct {
	mu   sync.Mutex
	msgs []string
	more chan struct{}
}

func collect(t *testing.T, b store.Bus, topic string) (*recorder, func()) {
	t.Helper()
	r := &recorder{more: make(chan struct{}, 1)}
	un, err := b.Subscribe(context.Background(), topic, func(msg []byte) {
		r.mu.Lock()
		r.msgs = append(r.msgs, string(msg))
		r.mu.Unlock()
		select {
		case r.more <- struct{}{}:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return r, un
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.msgs)
}

// wait returns the first n messages once they have arrived; it fails the
// test after a generous time (a hang, not a timing assertion).
func (r *recorder) wait(t *testing.T, n int) []string {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		r.mu.Lock()
		if len(r.msgs) >= n {
			msgs := append([]string(nil), r.msgs[:n]...)
			r.mu.Unlock()
			return msgs
		}
		r.mu.Unlock()
		select {
		case <-r.more:
		case <-deadline:
			t.Fatalf("got %d of %d messages", r.count(), n)
		}
	}
}
