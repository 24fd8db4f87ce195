package session_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// gate is a handler whose calls block until released, counting how many
// run at once.
type gate struct {
	release chan struct{}
	started chan struct{}
	running atomic.Int32
	most    atomic.Int32
}

func newGate() *gate { return &gate{release: make(chan struct{}), started: make(chan struct{}, 100)} }

func (g *gate) Handle(ctx context.Context, req *session.Request) (any, error) {
	n := g.running.Add(1)
	defer g.running.Add(-1)
	for m := g.most.Load(); n > m && !g.most.CompareAndSwap(m, n); m = g.most.Load() {
	}
	g.started <- struct{}{}
	select {
	case <-g.release:
		return map[string]int{"n": 1}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// pairWith is pair with server options.
func pairWith(t *testing.T, opts session.Options) (srv, cli *session.Session) {
	t.Helper()
	cc, sc := transport.NewPipe()
	opts.Role = session.RoleServer
	opts.Handler = withInitialize(opts.Handler)
	opts.Logger = quiet
	srv = session.New(sc, opts)
	cli = session.New(cc, session.Options{Role: session.RoleClient, Logger: quiet})
	t.Cleanup(func() { cli.Close(); srv.Close() })
	if _, err := cli.Initialize(context.Background(), &protocol.InitializeParams{ProtocolVersion: protocol.LatestLegacyVersion}); err != nil {
		t.Fatalf("Initialize: %v", err)
	}
	return srv, cli
}

// TestMaxConcurrencyQueuesTheRest checks that no more than MaxConcurrency
// handlers run at once and that the requests beyond it wait their turn and
// are all answered.
func TestMaxConcurrencyQueuesTheRest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		_, cli := pairWith(t, session.Options{Handler: g, MaxConcurrency: 3})
		const calls = 10
		var wg sync.WaitGroup
		for range calls {
			wg.Go(func() {
				if err := cli.Call(context.Background(), "work", nil, nil); err != nil {
					t.Error(err)
				}
			})
		}
		for range 3 {
			<-g.started
		}
		// Every request has arrived and is read once the third call has
		// run for the read delay (the reading moves on only then); no
		// fourth handler starts.
		pastReadDelay()
		if n := len(g.started); n != 0 {
			t.Errorf("%d handlers started, want 3", 3+n)
		}
		close(g.release)
		wg.Wait()
		if n := 3 + len(g.started); n != calls {
			t.Errorf("%d handlers ran, want %d", n, calls)
		}
		if m := g.most.Load(); m != 3 {
			t.Errorf("at most %d handlers ran at once, want 3", m)
		}
	})
}

// TestQueuedRequestCancelled checks that a request cancelled while it
// waits for a turn is never run nor answered, and does not hold up the
// requests behind it.
func TestQueuedRequestCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		var ran atomic.Int32
		h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
			if req.Method == "quick" {
				ran.Add(1)
				return nil, nil
			}
			return g.Handle(ctx, req)
		})
		_, cli := pairWith(t, session.Options{Handler: h, MaxConcurrency: 1})
		blocked := make(chan error, 1)
		go func() { blocked <- cli.Call(context.Background(), "work", nil, nil) }()
		synctest.Wait() // "work" runs
		pastReadDelay() // and another worker reads on
		ctx, cancel := context.WithCancel(context.Background())
		queued := make(chan error, 1)
		go func() { queued <- cli.Call(ctx, "quick", nil, nil) }()
		synctest.Wait() // "quick" waits for its turn
		cancel()
		if err := <-queued; !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled call: %v", err)
		}
		synctest.Wait() // the cancellation has reached the server
		close(g.release)
		if err := <-blocked; err != nil {
			t.Fatal(err)
		}
		if err := cli.Call(context.Background(), "quick", nil, nil); err != nil {
			t.Fatal(err)
		}
		if n := ran.Load(); n != 1 {
			t.Errorf("quick ran %d times, want 1 (the cancelled one must not run)", n)
		}
	})
}

// pastReadDelay lets fake time pass the read hand-off delay, so that a
// worker still serving the call it read has handed the reading on, and
// waits until every goroutine of the bubble is blocked again.
func pastReadDelay() {
	time.Sleep(2 * session.ReadHandOffDelay)
	synctest.Wait()
}

// workers counts the session worker goroutines alive, less the one
// holding the reading role.
func workers() int {
	var buf bytes.Buffer
	_ = pprof.Lookup("goroutine").WriteTo(&buf, 2)
	n := 0
	for g := range bytes.SplitSeq(buf.Bytes(), []byte("\n\n")) {
		if bytes.Contains(g, []byte("session.(*Session).work(")) && !bytes.Contains(g, []byte("session.(*Session).read(")) {
			n++
		}
	}
	return n
}

// TestIdleWorkersExit checks that the workers a burst started stay parked
// while the session is busy and exit once it has been idle for a second.
func TestIdleWorkersExit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		_, cli := pairWith(t, session.Options{Handler: g})
		var wg sync.WaitGroup
		for i := range 5 {
			wg.Go(func() {
				if err := cli.Call(context.Background(), "work", map[string]int{"i": i}, nil); err != nil {
					t.Error(err)
				}
			})
		}
		for range 5 {
			<-g.started
		}
		close(g.release)
		wg.Wait()
		synctest.Wait()
		// Five served the calls, and the one that served the last reads
		// on; if the read delay passed while it ran, a sixth reads and the
		// five park.
		if n := workers(); n < 4 || n > 5 {
			t.Errorf("%d workers parked after the burst, want 4 (or 5)", n)
		}
		time.Sleep(500 * time.Millisecond)
		if err := cli.Call(context.Background(), "work", nil, nil); err != nil { // keeps the session busy
			t.Fatal(err)
		}
		time.Sleep(700 * time.Millisecond)
		synctest.Wait()
		if n := workers(); n == 0 {
			t.Errorf("the workers exited although the session served a request %v ago", 700*time.Millisecond)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if n := workers(); n != 0 {
			t.Errorf("%d workers left after 2s idle, want 0", n)
		}
	})
}

// TestSlowHandlerDoesNotHoldUpReading checks that, while the reading
// moves between the workers, a handler that does not return keeps neither other calls nor the
// cancellation of its own request from being read and served.
func TestSlowHandlerDoesNotHoldUpReading(t *testing.T) {
	for _, maxc := range []int{1, 2, 64} {
		t.Run(fmt.Sprint("max=", maxc), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cause := make(chan error, 1)
				h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
					if req.Method == "slow" {
						<-ctx.Done()
						cause <- context.Cause(ctx)
						return nil, ctx.Err()
					}
					return map[string]string{"m": req.Method}, nil
				})
				_, cli := pairWith(t, session.Options{Handler: h, MaxConcurrency: maxc})
				ctx, cancel := context.WithCancel(context.Background())
				slow := make(chan error, 1)
				go func() { slow <- cli.Call(ctx, "slow", nil, nil) }()
				synctest.Wait() // "slow" runs
				if maxc > 1 {
					for i := range 3 {
						if err := cli.Call(context.Background(), "quick", map[string]int{"i": i}, nil); err != nil {
							t.Fatalf("quick call %d while slow runs: %v", i, err)
						}
					}
				}
				cancel()
				if err := <-slow; !errors.Is(err, context.Canceled) {
					t.Fatalf("slow call: %v", err)
				}
				if err := <-cause; !errors.Is(err, session.ErrCancelledByPeer) {
					t.Fatalf("slow handler's cause = %v, want ErrCancelledByPeer", err)
				}
				if err := cli.Call(context.Background(), "quick", nil, nil); err != nil {
					t.Fatalf("quick call after the cancellation: %v", err)
				}
			})
		})
	}
}
