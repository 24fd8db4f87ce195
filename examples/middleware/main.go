// Command middleware wraps a server's low-level method table with
// middleware: a request log, per-method timing and an authorization check.
// Middleware sees every request and notification — tools/call, tools/list,
// initialize, ping... — before the handler, and its result after. Run it
// with
//
//	go run ./examples/middleware
//
// The server runs in the same process over HTTP on 127.0.0.1 (a free port);
// one client sends a bearer token, the other none. It prints (the time
// varies):
//
//	alice: echo → hello, alice
//	anonymous: 1 tool(s) listed
//	anonymous: echo → error: Invalid Request: tools/call needs a valid bearer token
//	log: level=INFO msg=request method=server/discover caller=alice
//	log: level=INFO msg=request method=tools/list caller=alice
//	log: level=INFO msg=request method=tools/call caller=alice
//	log: level=INFO msg=request method=server/discover caller=""
//	log: level=INFO msg=request method=tools/list caller=""
//	log: level=INFO msg=request method=tools/call caller="" error="Invalid Request: tools/call needs a valid bearer token"
//	timing: tools/call ×2, slowest 86.872µs
//
// To refuse unauthenticated HTTP requests before they are read at all, wrap
// the HTTP handler instead (see examples/httpmux); middleware here works on
// every transport and sees the MCP method and its params.
package main

import (
	"context"
	"crypto/subtle"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/lowlevel"
)

// tokens maps the bearer tokens the server accepts to their callers.
var tokens = map[string]string{"s3cret": "alice"}

// callerKey is the context key under which auth stores the caller's name.
type callerKey struct{}

// header returns a header of the HTTP request that carried req ("" over
// stdio).
func header(req *lowlevel.Request, name string) string {
	if req.HTTP != nil { // nil over stdio
		return req.HTTP.Header.Get(name)
	}
	return ""
}

// callerOf names who sent req, by its bearer token ("" for none or an
// unknown one).
func callerOf(req *lowlevel.Request) string {
	token, ok := strings.CutPrefix(header(req, "Authorization"), "Bearer ")
	if !ok {
		return ""
	}
	caller := ""
	for t, name := range tokens {
		if subtle.ConstantTimeCompare([]byte(token), []byte(t)) == 1 {
			caller = name
		}
	}
	return caller
}

// auth lets tools/call through only with a known bearer token, and puts the
// caller's name in the context for the handlers inside.
func auth(next lowlevel.Handler) lowlevel.Handler {
	return lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
		caller := callerOf(req)
		if caller == "" && req.Method == "tools/call" {
			return nil, fmt.Errorf("%w: tools/call needs a valid bearer token", lowlevel.ErrInvalidRequest)
		}
		return next.Handle(context.WithValue(ctx, callerKey{}, caller), req)
	})
}

// logging logs each request with its outcome. It runs outermost, so it
// sees the requests auth refuses too.
func logging(log *slog.Logger) lowlevel.Middleware {
	return func(next lowlevel.Handler) lowlevel.Handler {
		return lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
			res, err := next.Handle(ctx, req)
			if req.IsNotification() {
				log.Debug("notification", "method", req.Method)
				return res, err
			}
			attrs := []any{"method", req.Method, "caller", callerOf(req)}
			if err != nil {
				attrs = append(attrs, "error", err)
			}
			log.Info("request", attrs...)
			return res, err
		})
	}
}

// Timing records how long each method's requests take.
type Timing struct {
	mu      sync.Mutex
	count   map[string]int
	slowest map[string]time.Duration
}

// Middleware measures every request.
func (t *Timing) Middleware(next lowlevel.Handler) lowlevel.Handler {
	return lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
		start := time.Now()
		res, err := next.Handle(ctx, req)
		d := time.Since(start)
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.count == nil {
			t.count, t.slowest = map[string]int{}, map[string]time.Duration{}
		}
		t.count[req.Method]++
		t.slowest[req.Method] = max(t.slowest[req.Method], d)
		return res, err
	})
}

// Report prints the count and slowest time of a method.
func (t *Timing) Report(out io.Writer, method string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(out, "timing: %s ×%d, slowest %v\n", method, t.count[method], t.slowest[method])
}

// EchoArgs are the arguments of the echo tool.
type EchoArgs struct {
	Text string `json:"text"`
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "middleware:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer) error {
	var logBuf strings.Builder // the log, printed at the end so it does not mix with the calls
	log := slog.New(slog.NewTextHandler(&logBuf, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	timing := &Timing{}

	ln, err := net.Listen("tcp", "127.0.0.1:0") // a free loopback port
	if err != nil {
		return err
	}
	s := fastmcp.New("guarded", "1.0.0", fastmcp.Listener(ln))
	s.Tool("echo", func(ctx *fastmcp.Context, in EchoArgs) (string, error) {
		caller, _ := ctx.Value(callerKey{}).(string) // set by auth
		return in.Text + ", " + caller, nil
	})
	// The first middleware registered runs outermost.
	s.Lowlevel().Use(logging(log), timing.Middleware, auth)

	url, stop, err := serve(ctx, s, ln)
	if err != nil {
		return err
	}
	defer stop()

	alice, err := client.ConnectHTTP(ctx, url, client.WithHTTPHeader(http.Header{"Authorization": {"Bearer s3cret"}}))
	if err != nil {
		return err
	}
	defer alice.Close()
	echo(ctx, alice, "alice", out)

	anonymous, err := client.ConnectHTTP(ctx, url)
	if err != nil {
		return err
	}
	defer anonymous.Close()
	n := 0
	for _, err := range anonymous.Tools(ctx) {
		if err != nil {
			return err
		}
		n++
	}
	fmt.Fprintf(out, "anonymous: %d tool(s) listed\n", n)
	echo(ctx, anonymous, "anonymous", out)

	for _, line := range strings.Split(strings.TrimSpace(logBuf.String()), "\n") {
		fmt.Fprintln(out, "log:", line)
	}
	timing.Report(out, "tools/call")
	return nil
}

func echo(ctx context.Context, c *client.Client, who string, out io.Writer) {
	res, err := c.CallTool(ctx, "echo", EchoArgs{Text: "hello"})
	if err != nil {
		fmt.Fprintf(out, "%s: echo → error: %v\n", who, err)
		return
	}
	fmt.Fprintf(out, "%s: echo → %s\n", who, res.Text())
}

// serve runs s, made with the option fastmcp.Listener(ln), until stop is
// called, and returns the URL of its MCP endpoint.
func serve(ctx context.Context, s *fastmcp.Server, ln net.Listener) (url string, stop func(), err error) {
	if err := s.Start(ctx); err != nil { // ready before the first request
		ln.Close()
		return "", nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	return "http://" + ln.Addr().String() + "/mcp", func() { cancel(); <-done }, nil
}
