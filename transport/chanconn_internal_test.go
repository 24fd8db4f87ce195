package transport

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

func note(method string) protocol.Message {
	return &protocol.Request{Method: method}
}

func methodOf(m protocol.Message) string {
	if r, ok := m.(*protocol.Request); ok {
		return r.Method
	}
	return ""
}

// TestChanConnRead drives chanConn.Read through each way it can end, with
// the messages and errors queued beforehand, and checks what each Read
// returns, in order.
func TestChanConnRead(t *testing.T) {
	errEnd := errors.New("input ended")
	errCall := errors.New("one call failed")
	type step struct {
		method string // the message's method, or "" for an error
		err    error
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name  string
		setup func(c *chanConn)
		ctx   context.Context
		want  []step
	}{{
		name: "order kept",
		setup: func(c *chanConn) {
			for _, m := range []string{"a", "b", "c"} {
				if err := c.put(context.Background(), note(m)); err != nil {
					t.Fatal(err)
				}
			}
		},
		want: []step{{method: "a"}, {method: "b"}, {method: "c"}},
	}, {
		name:  "closed: ErrClosed for good",
		setup: func(c *chanConn) { c.shut(nil) },
		want:  []step{{err: ErrClosed}, {err: ErrClosed}},
	}, {
		name:  "ctx cancelled",
		setup: func(c *chanConn) {},
		ctx:   cancelled,
		want:  []step{{err: context.Canceled}},
	}, {
		name: "drain: queued before close and ctx",
		setup: func(c *chanConn) {
			c.drain = true
			_ = c.put(context.Background(), note("a"))
			_ = c.put(context.Background(), note("b"))
			c.shut(nil)
		},
		want: []step{{method: "a"}, {method: "b"}, {err: ErrClosed}},
	}, {
		name: "drain: queued before a cancelled ctx",
		setup: func(c *chanConn) {
			c.drain = true
			_ = c.put(context.Background(), note("a"))
		},
		ctx:  cancelled,
		want: []step{{method: "a"}, {err: context.Canceled}},
	}, {
		name: "ended: queued, then the end error",
		setup: func(c *chanConn) {
			c.errs, c.ended = make(chan error, 1), make(chan struct{})
			c.end = func() error { return errEnd }
			_ = c.put(context.Background(), note("a"))
			_ = c.put(context.Background(), note("b"))
			close(c.ended)
		},
		want: []step{{method: "a"}, {method: "b"}, {err: errEnd}, {err: errEnd}},
	}, {
		name: "ended: queued errors, then the end error",
		setup: func(c *chanConn) {
			c.errs, c.ended = make(chan error, 1), make(chan struct{})
			c.end = func() error { return errEnd }
			_ = c.report(errCall)
			close(c.ended)
		},
		want: []step{{err: errCall}, {err: errEnd}},
	}, {
		name: "ended: nothing queued",
		setup: func(c *chanConn) {
			c.ended = make(chan struct{})
			c.end = func() error { return io.EOF }
			close(c.ended)
		},
		want: []step{{err: io.EOF}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			// Where Read's select may pick either of two ready cases
			// (a queued message and the end), the result must not
			// depend on the pick: run each case many times.
			for range 50 {
				c := newChanConn(4)
				tc.setup(&c)
				got := make([]step, 0, len(tc.want))
				for range tc.want {
					m, err := c.Read(ctx)
					got = append(got, step{method: methodOf(m), err: err})
				}
				for i, w := range tc.want {
					if got[i].method != w.method || !errors.Is(got[i].err, w.err) || (w.err == nil) != (got[i].err == nil) {
						t.Fatalf("read %d: got (%q, %v), want (%q, %v); all: %v", i, got[i].method, got[i].err, w.method, w.err, got)
					}
				}
			}
		})
	}
}

// TestChanConnCloseWhileReading: a Read waiting for input returns
// ErrClosed when the Conn closes, and a delivery waiting for a reader
// gives up with ErrClosed.
func TestChanConnCloseWhileReading(t *testing.T) {
	c := newChanConn(0) // unbuffered, and no reader: put waits
	read := make(chan error, 1)
	go func() {
		_, err := c.Read(context.Background())
		read <- err
	}()
	put := make(chan error, 1)
	go func() {
		put <- c.put(context.Background(), note("x"))
	}()
	// The two may meet before the close: then both succeed.
	c.shut(nil)
	rerr, perr := <-read, <-put
	if (rerr == nil) != (perr == nil) {
		t.Fatalf("Read = %v but put = %v: a message was lost or invented", rerr, perr)
	}
	if rerr != nil && (!errors.Is(rerr, ErrClosed) || !errors.Is(perr, ErrClosed)) {
		t.Fatalf("across close: Read = %v, put = %v; want ErrClosed", rerr, perr)
	}
	// Nothing waiting: both see the close.
	c2 := newChanConn(0)
	go func() {
		_, err := c2.Read(context.Background())
		read <- err
	}()
	c2.shut(nil)
	if err := <-read; !errors.Is(err, ErrClosed) {
		t.Fatalf("Read across close: %v, want ErrClosed", err)
	}
}

// TestChanConnAfterClose: closing twice runs the close work once; a
// message or error handed over after the close is refused with ErrClosed
// (never blocks), and sendOrClosed says the same.
func TestChanConnAfterClose(t *testing.T) {
	c := newChanConn(0) // unbuffered: nothing can be handed over without a reader
	c.errs = make(chan error)
	runs := 0
	if !c.shut(func() { runs++ }) {
		t.Fatal("first shut did not close")
	}
	if c.shut(func() { runs++ }) {
		t.Fatal("second shut closed again")
	}
	if runs != 1 {
		t.Fatalf("close work ran %d times, want 1", runs)
	}
	if !c.isClosed() {
		t.Fatal("isClosed = false after shut")
	}
	if err := c.put(context.Background(), note("late")); !errors.Is(err, ErrClosed) {
		t.Fatalf("put after close: %v, want ErrClosed", err)
	}
	if err := c.report(errors.New("late")); !errors.Is(err, ErrClosed) {
		t.Fatalf("report after close: %v, want ErrClosed", err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	open := newChanConn(0)
	if err := open.put(cancelled, note("x")); !errors.Is(err, context.Canceled) {
		t.Fatalf("put with a cancelled ctx: %v, want context.Canceled", err)
	}
	if open.isClosed() {
		t.Fatal("isClosed = true on an open Conn")
	}
}

// TestChanConnReadWaits: Read blocks until a message comes, and returns it
// (a message put by another goroutine is not lost or duplicated).
func TestChanConnReadWaits(t *testing.T) {
	c := newChanConn(0)
	const n = 100
	go func() {
		for i := range n {
			if err := c.put(context.Background(), &protocol.Request{Method: "m", ID: protocol.Int64ID(int64(i))}); err != nil {
				return
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i := range n {
		m, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if id := m.(*protocol.Request).ID; id != protocol.Int64ID(int64(i)) {
			t.Fatalf("message %d has id %v", i, id)
		}
	}
	c.shut(nil)
}

// TestChanConnQueuedAtClose: without drain, a Read after the close returns
// either the next queued message (in order) or ErrClosed, as the select
// picks; it never blocks and never reorders.
func TestChanConnQueuedAtClose(t *testing.T) {
	sawMsg, sawClosed := false, false
	for range 50 {
		c := newChanConn(4)
		for _, m := range []string{"a", "b", "c"} {
			_ = c.put(context.Background(), note(m))
		}
		c.shut(nil)
		next := 0
		for range 10 {
			m, err := c.Read(context.Background())
			switch {
			case errors.Is(err, ErrClosed):
				sawClosed = true
			case err != nil:
				t.Fatalf("Read after close: %v", err)
			case methodOf(m) != []string{"a", "b", "c"}[next]:
				t.Fatalf("Read after close returned %q, want %q", methodOf(m), []string{"a", "b", "c"}[next])
			default:
				next++
				sawMsg = true
			}
		}
	}
	if !sawClosed || !sawMsg {
		t.Logf("over 50 runs: saw a queued message %v, saw ErrClosed %v", sawMsg, sawClosed)
	}
}
