package transport

import (
	"context"
	"sync"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// NewPipe returns two connected in-memory Conns: what one writes, the other
// reads. Messages are passed without encoding, so it suits tests and
// in-process use. Closing either end closes both. It starts no goroutines.
func NewPipe() (client, server Conn) {
	ab := make(chan protocol.Message, 64)
	ba := make(chan protocol.Message, 64)
	p := &pipeState{done: make(chan struct{})}
	return &pipeConn{in: ba, out: ab, p: p}, &pipeConn{in: ab, out: ba, p: p}
}

type pipeState struct {
	once sync.Once
	done chan struct{}
}

type pipeConn struct {
	in  <-chan protocol.Message
	out chan<- protocol.Message
	p   *pipeState
}

func (c *pipeConn) Read(ctx context.Context) (protocol.Message, error) {
	select {
	case m := <-c.in:
		return m, nil
	default:
	}
	select {
	case m := <-c.in:
		return m, nil
	case <-c.p.done:
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *pipeConn) Write(ctx context.Context, m protocol.Message) error {
	select {
	case <-c.p.done:
		return ErrClosed
	default:
	}
	select {
	case c.out <- m:
		return nil
	case <-c.p.done:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *pipeConn) Close() error {
	c.p.once.Do(func() { close(c.p.done) })
	return nil
}
