package lowlevel_test

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// Logging is middleware that logs every request with its outcome.
func Logging(log *slog.Logger) lowlevel.Middleware {
	return func(next lowlevel.Handler) lowlevel.Handler {
		return lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
			res, err := next.Handle(ctx, req)
			if !req.IsNotification() {
				log.Info("mcp request", "method", req.Method, "version", req.Version, "error", err)
			}
			return res, err
		})
	}
}

// Timing is middleware that reports how long each request took.
func Timing(observe func(method string, d time.Duration)) lowlevel.Middleware {
	return func(next lowlevel.Handler) lowlevel.Handler {
		return lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
			start := time.Now()
			res, err := next.Handle(ctx, req)
			observe(req.Method, time.Since(start))
			return res, err
		})
	}
}

// stdoutLogger logs to standard output without times, so that the
// examples' output is stable.
func stdoutLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
}

// serveInMemory serves srv over an in-memory pipe and connects a client to it.
func serveInMemory(srv *lowlevel.Server, opts ...client.Option) (*client.Client, func()) {
	clientEnd, serverEnd := transport.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); srv.ServeConn(ctx, serverEnd) }()
	opts = append(opts, client.WithLogger(slog.New(slog.DiscardHandler)), client.WithProtocolVersion(protocol.LatestLegacyVersion))
	c, err := client.Connect(ctx, clientEnd, opts...)
	if err != nil {
		panic(err)
	}
	return c, func() { c.Close(); cancel(); <-done }
}

// Middleware wraps every request and notification the server receives,
// the built-in methods too: here a log and per-method timing.
func ExampleServer_Use() {
	srv := lowlevel.NewServer(protocol.Implementation{Name: "timed", Version: "1.0.0"},
		&lowlevel.Options{Logger: slog.New(slog.DiscardHandler)})
	var (
		mu    sync.Mutex
		calls = map[string]int{}
	)
	srv.Use(
		Logging(stdoutLogger()), // registered first: runs outermost
		Timing(func(method string, d time.Duration) {
			mu.Lock()
			calls[method]++ // a real server would feed a histogram with d
			mu.Unlock()
		}),
	)
	srv.HandleFunc("x/sleep", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		time.Sleep(time.Millisecond)
		return nil, nil
	})

	c, stop := serveInMemory(srv)
	defer stop()
	ctx := context.Background()
	c.Call(ctx, "x/sleep", nil, nil)
	c.Call(ctx, "x/missing", nil, nil)

	mu.Lock()
	defer mu.Unlock()
	fmt.Println("x/sleep timed", calls["x/sleep"], "time(s)")
	// Output:
	// level=INFO msg="mcp request" method=initialize version=2025-11-25 error=<nil>
	// level=INFO msg="mcp request" method=x/sleep version=2025-11-25 error=<nil>
	// level=INFO msg="mcp request" method=x/missing version=2025-11-25 error="Method not found: x/missing"
	// x/sleep timed 1 time(s)
}

// tokens maps the bearer tokens the server accepts to their callers.
var tokens = map[string]string{"s3cret": "alice"}

// callerKey is the context key under which Auth stores the caller's name.
type callerKey struct{}

// Auth is middleware that lets tools/call through only with a known bearer
// token (over HTTP), and gives the handlers inside the caller's name.
func Auth(next lowlevel.Handler) lowlevel.Handler {
	return lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
		var caller string
		if req.HTTP != nil { // nil over stdio
			token, _ := strings.CutPrefix(req.HTTP.Header.Get("Authorization"), "Bearer ")
			for t, name := range tokens {
				if subtle.ConstantTimeCompare([]byte(token), []byte(t)) == 1 {
					caller = name
				}
			}
		}
		if caller == "" && req.Method == "tools/call" {
			return nil, fmt.Errorf("%w: tools/call needs a valid bearer token", lowlevel.ErrInvalidRequest)
		}
		return next.Handle(context.WithValue(ctx, callerKey{}, caller), req)
	})
}

// Authorization as middleware: the HTTP transport gives each request the
// headers it came with.
func ExampleServer_Use_auth() {
	srv := lowlevel.NewServer(protocol.Implementation{Name: "guarded", Version: "1.0.0"},
		&lowlevel.Options{Logger: slog.New(slog.DiscardHandler)})
	srv.SetCapabilities(protocol.ServerCapabilities{Tools: &protocol.ToolsCapability{}})
	srv.HandleFunc(protocol.MethodToolsList, func(ctx context.Context, req *lowlevel.Request) (any, error) {
		return &protocol.ListToolsResult{Tools: []*protocol.Tool{{Name: "whoami", InputSchema: []byte(`{"type":"object"}`)}}}, nil
	})
	srv.HandleFunc(protocol.MethodToolsCall, func(ctx context.Context, req *lowlevel.Request) (any, error) {
		caller, _ := ctx.Value(callerKey{}).(string)
		return &protocol.CallToolResult{Content: protocol.ContentList{fastmcp.Text("you are " + caller)}}, nil
	})
	srv.Use(Auth)

	httpServer := httptest.NewServer(transport.NewStreamableHandler(srv.Connect, nil))
	defer httpServer.Close()
	ctx := context.Background()
	for _, header := range []http.Header{{"Authorization": {"Bearer s3cret"}}, nil} {
		c, err := client.ConnectHTTP(ctx, httpServer.URL, client.WithHTTPHeader(header),
			client.WithLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			panic(err)
		}
		res, err := c.CallTool(ctx, "whoami", nil)
		if err != nil {
			fmt.Println("error:", err)
		} else {
			fmt.Println(res.Content[0].(*fastmcp.TextContent).Text)
		}
		c.Close()
	}
	// Output:
	// you are alice
	// error: Invalid Request: tools/call needs a valid bearer token
}

// A custom method is one more entry in the table. Its params arrive raw;
// its result is encoded as JSON.
func ExampleServer_HandleFunc() {
	srv := lowlevel.NewServer(protocol.Implementation{Name: "custom", Version: "1.0.0"},
		&lowlevel.Options{Logger: slog.New(slog.DiscardHandler)})
	type EchoParams struct {
		Text string `json:"text"`
	}
	type EchoResult struct {
		Echo string `json:"echo"`
	}
	srv.HandleFunc("x/echo", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		var p EchoParams
		if err := protocol.Unmarshal(req.Params, &p); err != nil {
			return nil, fmt.Errorf("%w: %v", lowlevel.ErrInvalidParams, err)
		}
		return EchoResult{Echo: p.Text}, nil
	})

	c, stop := serveInMemory(srv)
	defer stop()
	var res EchoResult
	if err := c.Call(context.Background(), "x/echo", EchoParams{Text: "hi"}, &res); err != nil {
		panic(err)
	}
	fmt.Println(res.Echo)
	err := c.Call(context.Background(), "x/echo", []int{1}, &res)
	fmt.Println("invalid params:", errors.Is(err, protocol.ErrInvalidParams))
	// Output:
	// hi
	// invalid params: true
}

// A fastmcp.Server is a lowlevel.Server with handlers installed: each
// registration fills the methods of its family, and Lowlevel reaches the
// table underneath for middleware and custom methods.
func Example_highLevel() {
	s := fastmcp.New("app", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	ll := s.Lowlevel()
	fmt.Println("before s.Tool, tools/call handled:", ll.Handles(protocol.MethodToolsCall))
	s.Tool("greet", func(in struct {
		Name string `json:"name"`
	}) (string, error) {
		return "Hello, " + in.Name, nil
	})
	fmt.Println("after s.Tool, tools/call handled:", ll.Handles(protocol.MethodToolsCall))

	ll.Use(Logging(stdoutLogger()))
	ll.HandleFunc("x/version", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		return map[string]string{"version": "1.0.0"}, nil
	})

	c, stop := serveInMemory(ll)
	defer stop()
	ctx := context.Background()
	res, _ := c.CallTool(ctx, "greet", map[string]string{"name": "Ada"})
	fmt.Println(res.Content[0].(*fastmcp.TextContent).Text)
	var v struct {
		Version string `json:"version"`
	}
	c.Call(ctx, "x/version", nil, &v)
	fmt.Println("version", v.Version)
	// Output:
	// before s.Tool, tools/call handled: false
	// after s.Tool, tools/call handled: true
	// level=INFO msg="mcp request" method=initialize version=2025-11-25 error=<nil>
	// level=INFO msg="mcp request" method=tools/call version=2025-11-25 error=<nil>
	// Hello, Ada
	// level=INFO msg="mcp request" method=x/version version=2025-11-25 error=<nil>
	// version 1.0.0
}
