package client_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/protocol"
)

var quietLogger = slog.New(slog.NewTextHandler(io.Discard, nil))

// connect connects a quiet client to s over an in-memory pipe.
func connect(t testing.TB, s *fastmcp.Server, opts ...client.Option) *client.Client {
	t.Helper()
	return fastmcptest.NewClient(t, s, append([]client.Option{client.WithLogger(quietLogger)}, opts...)...)
}

// newServer is a quiet server named test.
func newServer(opts ...fastmcp.Option) *fastmcp.Server {
	return fastmcp.New("test", "1.0.0", append([]fastmcp.Option{fastmcp.Logger(quietLogger)}, opts...)...)
}

// closeNow shuts s down without waiting for the calls in flight.
func closeNow(s *fastmcp.Server) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.Shutdown(ctx)
}

// ctxT is a context that ends with the test, or after 10 s.
func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// legacy makes a client speak 2025-11-25 (the initialize handshake).
var legacy = client.WithProtocolVersion(fastmcptest.Legacy)

// bothEras runs fn once per era (legacy 2025-11-25, modern 2026-07-28),
// in parallel subtests.
func bothEras(t *testing.T, fn func(t *testing.T, era client.Option, modern bool)) {
	for _, modern := range []bool{false, true} {
		name, era := "legacy", legacy
		if modern {
			name, era = "modern", client.WithProtocolVersion(fastmcptest.Modern)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fn(t, era, modern)
		})
	}
}

// recvT receives from ch, failing the test when nothing comes within 10
// seconds (a lost message fails instead of hanging the package).
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

// textOf joins the text parts of a tool result with "|".
func textOf(t *testing.T, res *protocol.CallToolResult) string {
	t.Helper()
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*protocol.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "|")
}
