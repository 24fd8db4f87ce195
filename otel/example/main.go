// Command example is an MCP server traced with OpenTelemetry: every request
// it handles is a span following the MCP semantic conventions, its log
// records carry the trace and span ids, and a traced client's call and the
// server's handling of it are one trace.
//
// Without flags it runs a demo: it serves on a free port of 127.0.0.1,
// calls the forecast tool once with a traced client under a span of its
// own, and prints every span with the OpenTelemetry stdout exporter (see
// README.md). With -serve ADDR it serves MCP over HTTP on ADDR until
// interrupted, printing the span of each request it handles.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/otel"
)

func main() {
	serve := flag.String("serve", "", "serve MCP over HTTP on this address (such as 127.0.0.1:8000) until interrupted, instead of the demo")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	if *serve != "" {
		err = serveHTTP(ctx, *serve, os.Stdout)
	} else {
		err = run(ctx, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// newTracerProvider returns an SDK tracer provider that prints each span to
// out as it ends. A real deployment exports to a collector instead: see
// README.md for OTLP.
func newTracerProvider(service string, out io.Writer) (*sdktrace.TracerProvider, error) {
	exp, err := stdouttrace.New(stdouttrace.WithWriter(out), stdouttrace.WithPrettyPrint(), stdouttrace.WithoutTimestamps())
	if err != nil {
		return nil, err
	}
	res := resource.NewWithAttributes(semconv.SchemaURL, semconv.ServiceName(service))
	return sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp), sdktrace.WithResource(res)), nil
}

// ForecastArgs are the forecast tool's arguments.
type ForecastArgs struct {
	City string `json:"city" jsonschema:"description=the city to forecast"`
}

// newServer returns the weather server, traced by tp, logging to log.
func newServer(tp trace.TracerProvider, log io.Writer, opts ...fastmcp.Option) *fastmcp.Server {
	logger := slog.New(otel.LogHandler(slog.NewTextHandler(log, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{} // a stable output for the README and the test
			}
			return a
		},
	})))
	s := fastmcp.New("weather", "1.0.0", append(opts, fastmcp.Logger(logger))...)
	s.Lowlevel().Use(otel.Server(otel.WithTracerProvider(tp)))
	tracer := tp.Tracer("weather")
	s.Tool("forecast", func(ctx *fastmcp.Context, in ForecastArgs) (string, error) {
		// ctx carries the tools/call span: this span is its child, and
		// the log record carries its ids.
		_, span := tracer.Start(ctx, "look up the forecast")
		defer span.End()
		ctx.Logger().InfoContext(ctx, "forecasting", "city", in.City)
		return "Sunny in " + in.City, nil
	}, fastmcp.Description("Forecasts the weather of a city"))
	return s
}

// run is the demo: a server on a free port of 127.0.0.1, one call of the
// forecast tool from a traced client under a span of the host's, every
// span printed to out.
func run(ctx context.Context, w io.Writer) error {
	// The exporter and the server's log write from different goroutines:
	// one lock keeps their lines whole.
	out := &lockedWriter{w: w}
	tp, err := newTracerProvider("weather", out)
	if err != nil {
		return err
	}
	defer tp.Shutdown(context.Background())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	s := newServer(tp, out, fastmcp.Listener(ln))
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- s.Run(sctx) }()
	defer func() {
		stop()
		if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(out, "serving:", err)
		}
	}()

	c, err := client.ConnectHTTP(ctx, "http://"+ln.Addr().String()+"/mcp",
		otel.Client(otel.WithTracerProvider(tp)), client.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		return err
	}
	defer c.Close()
	hctx, span := tp.Tracer("host").Start(ctx, "plan a trip")
	res, err := c.CallTool(hctx, "forecast", ForecastArgs{City: "Lisbon"})
	span.End()
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "forecast:", res.Content[0].(*fastmcp.TextContent).Text)
	return nil
}

// serveHTTP serves the weather server on addr until ctx is done.
func serveHTTP(ctx context.Context, addr string, w io.Writer) error {
	out := &lockedWriter{w: w}
	tp, err := newTracerProvider("weather", out)
	if err != nil {
		return err
	}
	defer tp.Shutdown(context.Background())
	fmt.Fprintf(os.Stderr, "serving MCP on http://%s/mcp\n", addr)
	return newServer(tp, out, fastmcp.Addr(addr)).Run(ctx)
}

// lockedWriter serializes the writes of several goroutines to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
