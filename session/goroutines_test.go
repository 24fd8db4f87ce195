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
		synctest.Wait() // every goroutine is durably blocked: no one spins
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
