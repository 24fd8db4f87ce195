package fastmcp_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/transport"
)

// quietLogger discards log output.
var quietLogger = slog.New(slog.DiscardHandler)

// connect serves s over an in-memory pipe and returns a connected client;
// both are closed when the test ends.
func connect(t testing.TB, s *fastmcp.Server, opts ...fastmcp.ClientOption) *fastmcp.Client {
	t.Helper()
	cc, sc := transport.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Serve(ctx, sc)
	}()
	opts = append([]fastmcp.ClientOption{fastmcp.WithLogger(quietLogger)}, opts...)
	hctx, hcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer hcancel()
	c, err := fastmcp.Connect(hctx, cc, opts...)
	if err != nil {
		cancel()
		<-done
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() {
		c.Close()
		cancel()
		<-done
	})
	return c
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
	opt  fastmcp.ClientOption
}{
	{"legacy", fastmcp.WithProtocolVersion("2025-11-25")},
	{"modern", fastmcp.WithProtocolVersion("2026-07-28")},
}

// bothEras runs fn once per era, in parallel subtests.
func bothEras(t *testing.T, fn func(t *testing.T, era fastmcp.ClientOption, modern bool)) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			fn(t, e.opt, e.name == "modern")
		})
	}
}

var legacy = eras[0].opt
