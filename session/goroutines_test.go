package session_test

import (
	"bytes"
	"context"
	"runtime/pprof"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/fastmcp-go/fastmcp/session"
)

// stacks returns the stacks of the goroutines alive, one per element.
func stacks() [][]byte {
	var buf bytes.Buffer
	_ = pprof.Lookup("goroutine").WriteTo(&buf, 2)
	return bytes.Split(buf.Bytes(), []byte("\n\n"))
}

// census counts, among the session goroutines alive, the reader (the
// worker holding the reading role), the workers serving a handler, the
// workers parked, and any worker yielding (spinning).
type census struct{ readers, handlers, parked, spinning int }

func takeCensus() census {
	var c census
	for _, g := range stacks() {
		if !bytes.Contains(g, []byte("session.(*Session).work(")) {
			continue
		}
		switch {
		case bytes.Contains(g, []byte("session.(*Session).read(")):
			c.readers++
		case bytes.Contains(g, []byte("session.(*Session).serve(")):
			c.handlers++
		case bytes.Contains(g, []byte("runtime.Gosched")):
			c.spinning++
		default:
			c.parked++
		}
	}
	return c
}

// TestGoroutinesOfAStdioSession checks, from goroutine dumps, which
// goroutines a session over a stream has in each state: idle, only the reader; with N slow calls in flight, the reader
// and N handlers, none spinning; once they finish, the workers parked
// until the idle timer sheds them; after Close, none.
func TestGoroutinesOfAStdioSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		srv, cli := pairWith(t, session.Options{Handler: g})
		time.Sleep(2 * time.Second) // the worker that served initialize is shed
		synctest.Wait()
		if c := takeCensus(); c != (census{readers: 2}) {
			t.Fatalf("idle session: %+v, want only the two readers (client and server)", c)
		}
		const n = 5
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				if err := cli.Call(context.Background(), "work", map[string]int{"i": i}, nil); err != nil {
					t.Error(err)
				}
			})
		}
		for range n {
			<-g.started
		}
		pastReadDelay() // the last call has handed the reading on; no one spins
		if c := takeCensus(); c != (census{readers: 2, handlers: n}) {
			t.Fatalf("%d slow calls in flight: %+v, want the two readers and %d handlers", n, c, n)
		}
		close(g.release)
		wg.Wait()
		synctest.Wait()
		if c := takeCensus(); c != (census{readers: 2, parked: n}) {
			t.Fatalf("after the calls: %+v, want the two readers and %d parked workers", c, n)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if c := takeCensus(); c != (census{readers: 2}) {
			t.Fatalf("idle again: %+v, want only the two readers (client and server)", c)
		}
		cli.Close()
		srv.Close()
		synctest.Wait()
		if c := takeCensus(); c != (census{}) {
			t.Fatalf("after Close: %+v, want no session goroutine", c)
		}
	})
}

// slowOrQuick serves "slow" with g (blocking until released) and answers
// anything else at once.
func slowOrQuick(g *gate) session.Handler {
	return session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		if req.Method == "slow" {
			return g.Handle(ctx, req)
		}
		return map[string]string{"m": req.Method}, nil
	})
}

// TestFastCallsWakeNoWorker checks, from goroutine dumps, that fast calls
// one after another wake no second worker: the worker that read each call
// served it and read on.
func TestFastCallsWakeNoWorker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, cli := pairWith(t, session.Options{Handler: slowOrQuick(newGate())})
		for i := range 20 {
			if err := cli.Call(context.Background(), "quick", map[string]int{"i": i}, nil); err != nil {
				t.Fatal(err)
			}
		}
		synctest.Wait()
		if c := takeCensus(); c != (census{readers: 2}) {
			t.Fatalf("after 20 fast calls: %+v, want only the two readers (no worker woken)", c)
		}
	})
}

// TestSlowCallHandsReadingOn checks, from goroutine dumps, that the worker
// serving a call that blocks keeps the reading role only for the read
// delay; then another worker takes the reading over, so the next call is
// read and answered (by that reader itself) while the first still blocks.
func TestSlowCallHandsReadingOn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		_, cli := pairWith(t, session.Options{Handler: slowOrQuick(g)})
		slow := make(chan error, 1)
		go func() { slow <- cli.Call(context.Background(), "slow", nil, nil) }()
		<-g.started
		synctest.Wait()
		if c := takeCensus(); c != (census{readers: 1, handlers: 1}) {
			t.Fatalf("a slow call within the read delay: %+v, want the client's reader and the handler, which holds the reading", c)
		}
		if err := cli.Call(context.Background(), "quick", nil, nil); err != nil {
			t.Fatalf("quick call behind the slow one: %v", err)
		}
		synctest.Wait()
		if n := g.running.Load(); n != 1 {
			t.Fatalf("%d slow calls running, want 1 (still blocked)", n)
		}
		if c := takeCensus(); c != (census{readers: 2, handlers: 1}) {
			t.Fatalf("a quick call answered behind the slow one: %+v, want the two readers and the slow handler", c)
		}
		close(g.release)
		if err := <-slow; err != nil {
			t.Fatal(err)
		}
	})
}
