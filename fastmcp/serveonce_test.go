package fastmcp_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestContextComesFirst: a handler that takes its context after the
// argument struct is refused at registration, with a message that says
// where the context goes, for every kind of handler and both contexts.
func TestContextComesFirst(t *testing.T) {
	t.Parallel()
	type Args struct {
		Name string `json:"name"`
	}
	cases := []struct {
		name     string
		register func(s *fastmcp.Server)
		want     string
	}{
		{"tool, *fastmcp.Context", func(s *fastmcp.Server) {
			s.Tool("greet", func(in Args, ctx *fastmcp.Context) (string, error) { return "", nil })
		}, `fastmcp: tool "greet": handler func(fastmcp_test.Args, *fastmcp.Context) (string, error): the context comes first: use func(ctx *fastmcp.Context, in Args) (R, error) with Args a struct`},
		{"tool, context.Context", func(s *fastmcp.Server) {
			s.Tool("greet", func(in Args, ctx context.Context) (string, error) { return "", nil })
		}, `fastmcp: tool "greet": handler func(fastmcp_test.Args, context.Context) (string, error): the context comes first: use func(ctx *fastmcp.Context, in Args) (R, error) with Args a struct`},
		{"prompt", func(s *fastmcp.Server) {
			s.Prompt("greet", func(in Args, ctx *fastmcp.Context) (string, error) { return "", nil })
		}, `fastmcp: prompt "greet": handler func(fastmcp_test.Args, *fastmcp.Context) (string, error): the context comes first: use func(ctx *fastmcp.Context, in Args) (R, error), with Args a struct of the prompt's arguments and R a string, []fastmcp.PromptMessage or *fastmcp.PromptResult`},
		{"resource template", func(s *fastmcp.Server) {
			s.Resource("users://{name}", func(in Args, ctx context.Context) (string, error) { return "", nil })
		}, `fastmcp: resource template "users://{name}": handler func(fastmcp_test.Args, context.Context) (string, error): the context comes first: use func(ctx *fastmcp.Context, in Args) (R, error), with Args a struct with one field per template variable`},
		{"resource", func(s *fastmcp.Server) {
			s.Resource("config://app", func(in Args, ctx *fastmcp.Context) (string, error) { return "", nil })
		}, `fastmcp: resource "config://app": handler func(fastmcp_test.Args, *fastmcp.Context) (string, error): the context comes first: use func(ctx *fastmcp.Context) (R, error), with R a string, []byte, fastmcp.ResourceContents or any JSON value`},
		{"tool, context alone after nothing else is fine", func(s *fastmcp.Server) {
			s.Tool("greet", func(ctx context.Context, in Args) (string, error) { return "", nil })
		}, ""},
	}
	for _, tc := range cases {
		s := newServer()
		err := registerErr(t, func() { tc.register(s) })
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s:\n got  %s\n want %s", tc.name, got, tc.want)
		}
	}
}

// runHTTP runs s.Run on a loopback listener until the returned stop is
// called; stop returns what Run returned. The caller's client waits while
// the server starts (503 until Ready).
func runHTTP(t *testing.T, s func(ln net.Listener) *fastmcp.Server) (srv *fastmcp.Server, url string, stop func() error) {
	t.Helper()
	ln := listenLoopback(t)
	srv = s(ln)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- srv.Run(ctx) }()
	stopped := false
	var runErr error
	stop = func() error {
		if !stopped {
			stopped = true
			cancel()
			runErr = recvT(t, errc)
		}
		return runErr
	}
	t.Cleanup(func() { stop() })
	return srv, "http://" + ln.Addr().String() + "/mcp", stop
}

func greetServer(opts ...fastmcp.Option) *fastmcp.Server {
	s := newServer(opts...)
	s.Tool("greet", func() string { return "hello" })
	return s
}

// greets calls the greet tool at url over a new connection.
func greets(t *testing.T, url string) {
	t.Helper()
	c, err := client.ConnectHTTP(ctxT(t), url, client.WithLogger(quietLogger))
	if err != nil {
		t.Fatalf("connecting to %s: %v", url, err)
	}
	defer c.Close()
	res, err := c.CallTool(ctxT(t), "greet", nil)
	if err != nil || res.IsError {
		t.Fatalf("greet = %+v, %v", res, err)
	}
}

// serveOnceMessage is ErrServerReused's text, pinned: users read it.
const serveOnceMessage = "fastmcp: a Server serves once; create a new one"

// TestServerServesOnce: while Run serves a Server, a second Run,
// ServeStdio or a mounted ServeHTTP fails at once with ErrServerReused
// (before, the second Run served the same listener as well, until its
// context ended) and the first keeps serving; after Run returned, every
// way of serving says the same, where Start used to say "server closed".
func TestServerServesOnce(t *testing.T) {
	t.Parallel()
	s, url, stop := runHTTP(t, func(ln net.Listener) *fastmcp.Server { return greetServer(fastmcp.Listener(ln)) })
	greets(t, url)

	second := func(name string, serve func(ctx context.Context) error) {
		t.Helper()
		// Before the fix the second Run served until this deadline and
		// returned nil; it must fail long before.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := serve(ctx)
		if !errors.Is(err, fastmcp.ErrServerReused) || err.Error() != serveOnceMessage {
			t.Errorf("%s while Run serves = %v, want %q", name, err, serveOnceMessage)
		}
	}
	second("a second Run", s.Run)
	second("ServeStdio", s.ServeStdio)

	// The Server mounted in another mux while Run serves it: 503, and
	// nothing is built.
	ts := httptest.NewServer(s)
	defer ts.Close()
	resp, err := http.Post(ts.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("ServeHTTP while Run serves answered %d, want 503", resp.StatusCode)
	}

	greets(t, url) // the first Run still serves
	if err := stop(); err != nil {
		t.Fatalf("the first Run = %v", err)
	}

	// After Run returned: every way of serving says the same.
	second("Run after Run", s.Run)
	second("ServeStdio after Run", s.ServeStdio)
	second("Start after Run", s.Start)
	second("Serve after Run", func(ctx context.Context) error {
		cc, sc := transport.NewPipe()
		defer cc.Close()
		return s.Serve(ctx, sc)
	})
}

// TestServeHTTPThenRun: mounting is one way of serving: once the mounted
// Server answered a request, Run fails with ErrServerReused and the
// mounted endpoints keep serving; two mounts of one Server are one way.
func TestServeHTTPThenRun(t *testing.T) {
	t.Parallel()
	ln := listenLoopback(t)
	defer ln.Close()
	s := greetServer(fastmcp.Listener(ln))
	ts := httptest.NewServer(s)
	defer ts.Close()
	ts2 := httptest.NewServer(s)
	defer ts2.Close()
	defer closeNow(s)
	greets(t, ts.URL+"/mcp")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Run(ctx); !errors.Is(err, fastmcp.ErrServerReused) {
		t.Errorf("Run after ServeHTTP = %v, want ErrServerReused", err)
	}
	greets(t, ts.URL+"/mcp")
	greets(t, ts2.URL+"/mcp")
}
