package transport

import (
	"context"
	"sync"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// chanConn is the read side and the lifetime shared by every Conn whose
// input arrives on a channel: the Streamable HTTP and SSE server sessions,
// a stateless request, the in-memory pipe, and the HTTP clients. The
// owning type embeds it, fills in (put, report) and writes its own
// Write; Read and the end of the Conn are here.
//
// Read returns, whichever comes first: a message from in, an error from
// errs, ErrClosed once done is closed (see shut), ctx.Err() once ctx ends,
// or — once ended is closed (the input ended for good: the peer went away,
// the session expired) — what is still queued and then end(). Messages
// queued when done closes may be returned or dropped (the select picks),
// unless drain is set: then Read returns every queued message first, even
// over a cancelled ctx.
type chanConn struct {
	in   chan protocol.Message
	done chan struct{} // closed by shut (or, when shared, by the owner)
	once sync.Once

	errs  chan error    // errors about one message or call; nil if none
	ended chan struct{} // closed when input ends for good; nil if never
	end   func() error  // Read's error once ended is closed
	drain bool          // queued messages come before close and ctx
}

// newChanConn returns a chanConn whose in holds up to n messages.
func newChanConn(n int) chanConn {
	return chanConn{in: make(chan protocol.Message, n), done: make(chan struct{})}
}

// Read implements Conn's Read (see chanConn).
func (c *chanConn) Read(ctx context.Context) (protocol.Message, error) {
	if c.drain {
		select {
		case m := <-c.in:
			return m, nil
		default:
		}
	}
	select {
	case m := <-c.in:
		return m, nil
	case err := <-c.errs:
		return nil, err
	case <-c.done:
		return nil, ErrClosed
	case <-c.ended:
		select {
		case m := <-c.in:
			return m, nil
		case err := <-c.errs:
			return nil, err
		default:
		}
		return nil, c.end()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// put hands m to Read. It fails with ErrClosed once the Conn is closed,
// or ctx.Err() once ctx ends, whichever comes first.
func (c *chanConn) put(ctx context.Context, m protocol.Message) error {
	return sendOrClosed(ctx, c.in, m, c.done)
}

// report hands Read an error about one message or call. It fails with
// ErrClosed if the Conn closes first.
func (c *chanConn) report(err error) error {
	return sendOrClosed(context.Background(), c.errs, err, c.done)
}

// isClosed reports whether the Conn is closed.
func (c *chanConn) isClosed() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// shut closes done and then runs then, the first time only; it reports
// whether this call did it.
func (c *chanConn) shut(then func()) bool {
	first := false
	c.once.Do(func() {
		first = true
		close(c.done)
		if then != nil {
			then()
		}
	})
	return first
}

// sendOrClosed puts v on ch. It fails with ErrClosed once done is closed,
// or ctx.Err() once ctx ends, whichever comes first.
func sendOrClosed[T any](ctx context.Context, ch chan<- T, v T, done <-chan struct{}) error {
	select {
	case ch <- v:
		return nil
	case <-done:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sendOrFree is sendOrClosed for a message encoded in buf, which goes back
// to the pool when it is not sent.
func sendOrFree[T any](ctx context.Context, ch chan<- T, v T, buf *[]byte, done <-chan struct{}) error {
	err := sendOrClosed(ctx, ch, v, done)
	if err != nil {
		putBuf(buf)
	}
	return err
}
