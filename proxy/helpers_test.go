package proxy_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
)

var quietLogger = slog.New(slog.DiscardHandler)

// legacy pins a client to the legacy handshake (2025-11-25).
var legacy = client.WithProtocolVersion(fastmcptest.Legacy)

// connect returns a client connected in memory to s, logging nothing,
// closed with s's connection when the test ends.
func connect(t testing.TB, s *fastmcp.Server, opts ...client.Option) *client.Client {
	t.Helper()
	return fastmcptest.NewClient(t, s, append([]client.Option{client.WithLogger(quietLogger)}, opts...)...)
}

func newServer(opts ...fastmcp.Option) *fastmcp.Server {
	return fastmcp.New("test", "1.0.0", append([]fastmcp.Option{fastmcp.Logger(quietLogger)}, opts...)...)
}

// closeNow shuts s down without waiting for the calls in flight.
func closeNow(s *fastmcp.Server) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.Shutdown(ctx)
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// recvT receives from ch, failing the test when nothing comes within 10
// seconds.
func recvT[T any](t testing.TB, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("nothing received within 10s")
		panic("unreachable")
	}
}
