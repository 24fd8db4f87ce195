package redisstore_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/pubsubtest"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// TestBus runs the behaviour table with two buses on two clients of one
// Redis, as two replicas see it: every other bus the table asks for is on
// the second client.
func TestBus(t *testing.T) {
	srv := startRedis(t)
	buses := []*redisstore.Bus{
		redisstore.NewBus(srv.client(t), nil),
		redisstore.NewBus(srv.client(t), nil),
	}
	// Closed before the clients (cleanups run last-registered first).
	t.Cleanup(func() {
		for _, b := range buses {
			if err := b.Close(); err != nil {
				t.Error(err)
			}
		}
	})
	var n int
	pubsubtest.Run(t, func(*testing.T) store.Bus {
		n++
		return buses[n%2]
	})
}

// TestBusPrefix: buses with different prefixes do not hear each other.
func TestBusPrefix(t *testing.T) {
	srv := startRedis(t)
	rdb := srv.client(t)
	a := redisstore.NewBus(rdb, &redisstore.BusOptions{Prefix: "a:"})
	defer a.Close()
	b := redisstore.NewBus(rdb, &redisstore.BusOptions{Prefix: "b:"})
	defer b.Close()
	gotA, gotB := make(chan string, 10), make(chan string, 10)
	unA := mustSubscribe(t, a, "t", gotA)
	defer unA()
	unB := mustSubscribe(t, b, "t", gotB)
	defer unB()
	if err := a.Publish(context.Background(), "t", []byte("for a")); err != nil {
		t.Fatal(err)
	}
	if err := b.Publish(context.Background(), "t", []byte("for b")); err != nil {
		t.Fatal(err)
	}
	if got := <-gotA; got != "for a" {
		t.Errorf("bus a got %q", got)
	}
	if got := <-gotB; got != "for b" {
		t.Errorf("bus b got %q", got)
	}
	// Each bus got its own message first; had the other's crossed over,
	// it would sit in the channel now: publish a marker to be sure it
	// was all delivered.
	if err := a.Publish(context.Background(), "t", []byte("end")); err != nil {
		t.Fatal(err)
	}
	if got := <-gotA; got != "end" {
		t.Errorf("bus a got %q, want the marker", got)
	}
}

// TestBusRedisRestart: with Redis killed, Publish and Subscribe fail with
// ErrRedis; once a new Redis listens on the address, the bus reconnects,
// subscribes again on its own, and delivers.
func TestBusRedisRestart(t *testing.T) {
	srv := startRedis(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.addr, MaxRetries: -1})
	defer rdb.Close()
	bus := redisstore.NewBus(rdb, nil)
	defer bus.Close()
	ctx := context.Background()
	got := make(chan string, 100)
	un := mustSubscribe(t, bus, "t", got)
	defer un()

	srv.stop()
	if err := bus.Publish(ctx, "t", []byte("x")); !errors.Is(err, redisstore.ErrRedis) {
		t.Errorf("Publish with Redis down = %v, want ErrRedis", err)
	}
	// The subscription connection learns of the loss when it reads; a
	// Subscribe then finds no connection and fails.
	// The subscription connection learns of the loss when it reads; until
	// then a Subscribe may be written on it and wait in vain, so each try
	// is bounded, and once the loss is known Subscribe fails at once.
	for {
		tctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		_, err := bus.Subscribe(tctx, "other", func([]byte) {})
		cancel()
		if err == nil {
			t.Fatal("Subscribe confirmed with Redis down")
		}
		if errors.Is(err, redisstore.ErrRedis) {
			break
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Subscribe with Redis down = %v, want ErrRedis", err)
		}
	}

	srv.restart(t)
	// The bus subscribes again in the background; publish until the
	// message arrives (a wait, not a timing assertion).
	deadline := time.After(20 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if err := bus.Publish(ctx, "t", []byte("again")); err != nil && !errors.Is(err, redisstore.ErrRedis) {
			t.Fatal(err)
		}
		select {
		case m := <-got:
			if m != "again" {
				t.Fatalf("got %q", m)
			}
			// And a new subscription works too.
			got2 := make(chan string, 1)
			un2 := mustSubscribe(t, bus, "t2", got2)
			defer un2()
			if err := bus.Publish(ctx, "t2", []byte("new")); err != nil {
				t.Fatal(err)
			}
			if m := <-got2; m != "new" {
				t.Fatalf("got %q", m)
			}
			return
		case <-tick.C:
		case <-deadline:
			t.Fatal("the bus did not deliver after Redis came back")
		}
	}
}

// TestBusSubscribeCancelled: a Subscribe with an ended context fails with
// the context's error and leaves the topic free for the next.
func TestBusSubscribeCancelled(t *testing.T) {
	srv := startRedis(t)
	bus := redisstore.NewBus(srv.client(t), nil)
	defer bus.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := bus.Subscribe(ctx, "t", func([]byte) {}); !errors.Is(err, context.Canceled) {
		t.Errorf("Subscribe with a cancelled context = %v", err)
	}
	got := make(chan string, 1)
	un := mustSubscribe(t, bus, "t", got)
	defer un()
	if err := bus.Publish(context.Background(), "t", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if m := <-got; m != "x" {
		t.Errorf("got %q", m)
	}
}

// TestBusResubscribe: a topic dropped by its last subscriber and taken
// again at once is delivered (the UNSUBSCRIBE and SUBSCRIBE are ordered).
func TestBusResubscribe(t *testing.T) {
	srv := startRedis(t)
	bus := redisstore.NewBus(srv.client(t), nil)
	defer bus.Close()
	for i := range 50 {
		got := make(chan string, 1)
		un := mustSubscribe(t, bus, "t", got)
		if err := bus.Publish(context.Background(), "t", []byte("x")); err != nil {
			t.Fatal(err)
		}
		if m := <-got; m != "x" {
			t.Fatalf("round %d: got %q", i, m)
		}
		un()
	}
}

// TestBusConcurrentSubscribers: many goroutines subscribing to a few
// topics at once each get the message published after their Subscribe.
func TestBusConcurrentSubscribers(t *testing.T) {
	srv := startRedis(t)
	bus := redisstore.NewBus(srv.client(t), nil)
	defer bus.Close()
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			topic := []string{"a", "b", "c"}[i%3]
			got := make(chan string, 100)
			un := mustSubscribe(t, bus, topic, got)
			defer un()
			want := topic + string(rune('0'+i%10))
			if err := bus.Publish(context.Background(), topic, []byte(want)); err != nil {
				t.Error(err)
				return
			}
			for m := range got {
				if m == want {
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestBusClose(t *testing.T) {
	srv := startRedis(t)
	var logs bytes.Buffer
	bus := redisstore.NewBus(srv.client(t), &redisstore.BusOptions{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	got := make(chan string, 1)
	mustSubscribe(t, bus, "t", got)
	if err := bus.Close(); err != nil {
		t.Fatal(err)
	}
	if err := bus.Publish(context.Background(), "t", nil); !errors.Is(err, store.ErrBusClosed) {
		t.Errorf("Publish after Close: %v", err)
	}
	if _, err := bus.Subscribe(context.Background(), "t", func([]byte) {}); !errors.Is(err, store.ErrBusClosed) {
		t.Errorf("Subscribe after Close: %v", err)
	}
	if err := bus.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("warnings logged: %s", logs.String())
	}
}

func mustSubscribe(t *testing.T, b store.Bus, topic string, got chan<- string) func() {
	t.Helper()
	un, err := b.Subscribe(context.Background(), topic, func(msg []byte) { got <- string(msg) })
	if err != nil {
		t.Fatal(err)
	}
	return un
}

// TestOptionsBusPrefix: a bus whose prefix is not the Config's is refused,
// with the fix in the message.
func TestOptionsBusPrefix(t *testing.T) {
	rdb := startRedis(t).client(t)
	bus := redisstore.NewBus(rdb, nil)
	defer bus.Close()
	_, err := options(context.Background(), rdb, &redisstore.Config{Prefix: "app:", Bus: bus})
	if err == nil || !strings.Contains(err.Error(), `BusOptions{Prefix: "app:"}`) {
		t.Errorf("Options with a bus of another prefix = %v", err)
	}
	mine := redisstore.NewBus(rdb, &redisstore.BusOptions{Prefix: "app:"})
	defer mine.Close()
	opts, err := options(context.Background(), rdb, &redisstore.Config{Prefix: "app:", Bus: mine})
	if err != nil {
		t.Fatalf("Options with a bus of the same prefix = %v", err)
	}
	// The key ring Options started stops when a server given it shuts down.
	if err := fastmcp.New("unused", "1", opts...).Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
}
