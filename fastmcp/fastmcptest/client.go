package fastmcptest

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/logsink"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// The protocol revisions a test pins with fastmcp.ProtocolVersion to choose
// an era. Without it a client speaks Modern to a fastmcp server.
const (
	// Legacy is the newest revision with the initialize handshake and
	// sessions (2025-11-25).
	Legacy = protocol.LatestLegacyVersion
	// Modern is the stateless revision (2026-07-28): no handshake, every
	// request carries its protocol version.
	Modern = protocol.LatestVersion
)

// Versions returns the revisions a server's tests should cover, Legacy
// then Modern, to run a test once per era:
//
//	for _, v := range fastmcptest.Versions() {
//		t.Run(v, func(t *testing.T) {
//			c := fastmcptest.NewClient(t, s, client.WithProtocolVersion(v))
//			...
//		})
//	}
func Versions() []string { return []string{Legacy, Modern} }

// connectTimeout bounds the handshake of the clients this package connects.
const connectTimeout = 10 * time.Second

// quiet is the default client logger: a test's output stays its own. A
// client.WithLogger option replaces it.
var quiet = slog.New(slog.DiscardHandler)

// routeServerLogs sends what s's default logger writes (the server's own
// lines, and a handler's ctx.Info and the like) to t.Log, each line
// beginning "server: ", until the test ends. It is called before the
// caller registers its cleanups, so the lines logged while the server
// shuts down reach the test too; after the test, the logger writes to
// standard error again, and never calls t.Log. A server built with
// fastmcp.Logger keeps the logger it was given (see Logger).
func routeServerLogs(t testing.TB, s *fastmcp.Server) {
	h, ok := s.Logger().Handler().(*logsink.Handler)
	if !ok {
		return
	}
	t.Cleanup(h.Writer().Attach(t, func(line string) { t.Log("server: " + line) }))
}

// Logger returns a text logger (at level Info) that writes to t.Log until
// the test ends and drops what comes later, never calling t.Log after the
// test. A server without the fastmcp.Logger option needs none: NewClient,
// NewHTTPClient and NewHTTPServer route its logs to the test already. Pass
// it to fastmcp.Logger to see, in the test's log, what a server with a
// logger of its own writes, from the registrations on.
func Logger(t testing.TB) *slog.Logger {
	w := logsink.NewWriter(io.Discard)
	t.Cleanup(w.Attach(t, func(line string) { t.Log(line) }))
	return slog.New(slog.NewTextHandler(w, nil))
}

// NewClient serves s over an in-memory connection and returns a client
// connected to it, after the handshake (initialize on Legacy, none on
// Modern). opts configure the client as for client.Connect: pin the era
// with client.WithProtocolVersion(Legacy) or (Modern), answer the server's
// requests with client.WithElicitation, WithSampling, WithRoots. The
// client logs nowhere unless opts include client.WithLogger.
//
// When the test ends (t.Cleanup) the client is closed and the server's
// goroutines for this connection have returned, so go.uber.org/goleak
// finds none left behind. A failed connection fails the test.
//
// s may be served to several clients at once, each with its own NewClient.
func NewClient(t testing.TB, s *fastmcp.Server, opts ...client.Option) *client.Client {
	t.Helper()
	cc, sc := transport.NewPipe()
	return connect(t, s, cc, sc, opts)
}

// connect serves s on sc and connects a client over cc.
func connect(t testing.TB, s *fastmcp.Server, cc, sc transport.Conn, opts []client.Option) *client.Client {
	t.Helper()
	routeServerLogs(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, sc) }()
	stop := func() {
		cancel()
		// Over the in-memory pipe the server sees the client's Close as
		// its own connection closing.
		if err := <-done; err != nil && !errors.Is(err, transport.ErrClosed) {
			t.Errorf("fastmcptest: serving: %v", err)
		}
	}
	hctx, hcancel := context.WithTimeout(context.Background(), connectTimeout)
	defer hcancel()
	c, err := client.Connect(hctx, cc, clientOptions(opts)...)
	if err != nil {
		cc.Close()
		stop()
		t.Fatalf("fastmcptest: connecting to the server: %v", err)
	}
	t.Cleanup(func() {
		c.Close()
		stop()
	})
	return c
}

// clientOptions puts the quiet logger before opts, which may replace it.
func clientOptions(opts []client.Option) []client.Option {
	return append([]client.Option{client.WithLogger(quiet)}, opts...)
}

// NewHTTPServer serves s over Streamable HTTP (and the legacy HTTP+SSE
// endpoints) on a real socket on 127.0.0.1, with the server's settings, as
// the Server mounted as an http.Handler serves them. Its URL plus "/mcp"
// (the Path setting) is the MCP endpoint, to connect to with
// client.ConnectHTTP or to send raw requests to with net/http. When the
// test ends, the server is shut down (s.Shutdown: every session and stream
// ends) and the listener closed.
func NewHTTPServer(t testing.TB, s *fastmcp.Server) *httptest.Server {
	t.Helper()
	ts, _ := newHTTPServer(t, s)
	return ts
}

// newHTTPServer is NewHTTPServer, also returning the MCP endpoint's path.
func newHTTPServer(t testing.TB, s *fastmcp.Server) (*httptest.Server, string) {
	routeServerLogs(t, s)
	set, err := s.Settings()
	if err != nil {
		t.Fatalf("fastmcptest: the server's settings: %v", err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // end streams and calls at once: the test is over
		s.Shutdown(ctx)
		ts.Close()
	})
	return ts, set.Path
}

// NewHTTPClient is NewClient over HTTP: it serves s with NewHTTPServer and
// returns a client connected to its MCP endpoint, closed when the test
// ends (before the server).
func NewHTTPClient(t testing.TB, s *fastmcp.Server, opts ...client.Option) *client.Client {
	t.Helper()
	ts, path := newHTTPServer(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	c, err := client.ConnectHTTP(ctx, ts.URL+path, clientOptions(opts)...)
	if err != nil {
		t.Fatalf("fastmcptest: connecting to %s%s: %v", ts.URL, path, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
