package fastmcp_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/internal/proxytest"
)

// quietLogger discards log output.
var quietLogger = slog.New(slog.DiscardHandler)

// connect returns a client connected in memory to s (fastmcptest.NewClient,
// logging nothing), closed with s's connection when the test ends.
func connect(t testing.TB, s *fastmcp.Server, opts ...client.Option) *client.Client {
	t.Helper()
	return fastmcptest.NewClient(t, s, append([]client.Option{client.WithLogger(quietLogger)}, opts...)...)
}

func newServer(opts ...fastmcp.Option) *fastmcp.Server {
	return fastmcp.New("test", "1.0.0", append([]fastmcp.Option{fastmcp.Logger(quietLogger)}, opts...)...)
}

// closeNow shuts s down without waiting for the calls in flight: the
// endpoints ServeHTTP serves close every stream and session.
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

// eras are the two ways a client can talk to a server: the legacy
// handshake (2025-11-25) and stateless modern requests (2026-07-28).
var eras = []struct {
	name string
	opt  client.Option
}{
	{"legacy", client.WithProtocolVersion(fastmcptest.Legacy)},
	{"modern", client.WithProtocolVersion(fastmcptest.Modern)},
}

// bothEras runs fn once per era, in parallel subtests.
func bothEras(t *testing.T, fn func(t *testing.T, era client.Option, modern bool)) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			fn(t, e.opt, e.name == "modern")
		})
	}
}

var legacy = eras[0].opt

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

// The proxy's test backend (package proxy's tests use it too), for the
// mount tests that mount a proxy.
type proxyNameArgs = proxytest.NameArgs

var (
	proxyBackendServer = proxytest.Backend
	eachEraPair        = proxytest.EachEraPair
	hasTool            = proxytest.HasTool
)
