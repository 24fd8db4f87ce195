package fastmcp_test

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/transport"
)

// blockingServer has a tool that blocks until its request is cancelled and
// reports how it ended.
func blockingServer(opts ...fastmcp.Option) (*fastmcp.Server, <-chan struct{}, <-chan error) {
	s := newServer(opts...)
	started := make(chan struct{}, 4)
	ended := make(chan error, 4)
	s.Tool("block", func(ctx *fastmcp.Context) (string, error) {
		started <- struct{}{}
		<-ctx.Done()
		ended <- context.Cause(ctx)
		return "", ctx.Err()
	}, fastmcp.Description("blocks until cancelled"))
	s.Tool("ping", func() string { return "pong" }, fastmcp.Description("answers"))
	return s, started, ended
}

// checkCancel calls block, cancels it, and checks the whole chain: the
// call returns context.Canceled, the handler's context ends, and the
// connection still works.
func checkCancel(t *testing.T, c *client.Client, started <-chan struct{}, ended <-chan error) {
	t.Helper()
	ctx, cancel := context.WithCancel(ctxT(t))
	errc := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, "block", nil)
		errc <- err
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("tool did not start")
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("CallTool = %v, want context.Canceled", err)
	}
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler's context was not cancelled")
	}
	if res, err := c.CallTool(ctxT(t), "ping", nil); err != nil || textOf(t, res) != "pong" {
		t.Fatalf("after cancelling: %v %v", res, err)
	}
}

func TestCancellationOverStdioPipes(t *testing.T) {
	t.Parallel()
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		s, started, ended := blockingServer()
		// Real newline-delimited framing over pipes, as between processes.
		cr, sw := io.Pipe()
		sr, cw := io.Pipe()
		ctx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); s.Serve(ctx, transport.NewStream(sr, sw, nil)) }()
		c, err := client.Connect(ctxT(t), transport.NewStream(cr, cw, nil), era, client.WithLogger(quietLogger))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { c.Close(); stop(); <-done }()
		checkCancel(t, c, started, ended)
	})
}

func TestCancellationOverHTTP(t *testing.T) {
	t.Parallel()
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		s, started, ended := blockingServer()
		h := s
		ts := httptest.NewServer(h)
		defer func() { closeNow(h); ts.Close() }()
		c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", era, client.WithLogger(quietLogger))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		checkCancel(t, c, started, ended)
	})
}
