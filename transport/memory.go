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
	// Both ends share one done, which pipeState closes; each reads the
	// messages already queued before reporting the close.
	return &pipeConn{chanConn: chanConn{in: ba, done: p.done, drain: true}, out: ab, p: p},
		&pipeConn{chanConn: chanConn{in: ab, done: p.done, drain: true}, out: ba, p: p}
}

type pipeState struct {
	once sync.Once
	done chan struct{}
}

type pipeConn struct {
	chanConn
	out chan<- protocol.Message
	p   *pipeState
}

func (c *pipeConn) Write(ctx context.Context, m protocol.Message) error {
	if c.isClosed() {
		return ErrClosed
	}
	return sendOrClosed(ctx, c.out, m, c.done)
}

func (c *pipeConn) Close() error {
	c.p.once.Do(func() { close(c.p.done) })
	return nil
}
