package skills_test

import (
	"context"
	"io/fs"
	"log/slog"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/skills"
)

var quietLogger = slog.New(slog.DiscardHandler)

// connect returns a client connected in memory to s, closed when the test
// ends.
func connect(t testing.TB, s *fastmcp.Server, opts ...client.Option) *client.Client {
	t.Helper()
	return fastmcptest.NewClient(t, s, append([]client.Option{client.WithLogger(quietLogger)}, opts...)...)
}

func newServer(opts ...fastmcp.Option) *fastmcp.Server {
	return fastmcp.New("test", "1.0.0", append([]fastmcp.Option{fastmcp.Logger(quietLogger)}, opts...)...)
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// bothEras runs fn once per protocol era: the legacy handshake and
// stateless modern requests.
func bothEras(t *testing.T, fn func(t *testing.T, era client.Option, modern bool)) {
	for _, v := range []string{fastmcptest.Legacy, fastmcptest.Modern} {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			fn(t, client.WithProtocolVersion(v), v == fastmcptest.Modern)
		})
	}
}

func mustAddFS(t testing.TB, s *fastmcp.Server, fsys fs.FS) {
	t.Helper()
	if err := skills.AddFS(s, fsys); err != nil {
		t.Fatal(err)
	}
}

func mustAdd(t testing.TB, s *fastmcp.Server, name string, fsys fs.FS) {
	t.Helper()
	if err := skills.Add(s, name, fsys); err != nil {
		t.Fatal(err)
	}
}
