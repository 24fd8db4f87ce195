package otel_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/internal/testproc"
	"github.com/fastmcp-go/fastmcp/otel"
)

// stdioServerEnv, set in the environment of the test binary, makes it run
// the test server over stdio instead of the tests, writing its spans as
// JSON (the stdout exporter's format) to the file the variable names.
const stdioServerEnv = "FASTMCP_OTEL_TEST_STDIO_SERVER"

func runStdioServer(spansFile string) int {
	f, err := os.Create(spansFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer f.Close()
	exp, err := stdouttrace.New(stdouttrace.WithWriter(f))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	s := newServer(nil, otel.WithTracerProvider(tp))
	if err := s.ServeStdio(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "stdio test server:", err)
		return 1
	}
	return 0
}

// exportedSpan is what the test reads of a span the stdout exporter wrote.
type exportedSpan struct {
	Name        string
	SpanKind    int
	SpanContext struct{ TraceID, SpanID string }
	Parent      struct {
		TraceID, SpanID string
		Remote          bool
	}
	Attributes []struct {
		Key   string
		Value struct{ Value any }
	}
}

// readSpans decodes the spans the stdout exporter wrote to file.
func readSpans(t *testing.T, file string) []exportedSpan {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var spans []exportedSpan
	dec := json.NewDecoder(f)
	for {
		var s exportedSpan
		if err := dec.Decode(&s); errors.Is(err, io.EOF) {
			return spans
		} else if err != nil {
			t.Fatalf("decoding %s: %v", file, err)
		}
		spans = append(spans, s)
	}
}

// TestStdioSubprocessIsOneTrace: a traced client calling a tool of a traced
// server it started as a subprocess over stdio, on both eras: the server
// process's span continues the client's trace, with network.transport
// pipe.
func TestStdioSubprocessIsOneTrace(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			tl := newTelemetry(t)
			file := filepath.Join(t.TempDir(), "spans.json")
			c, err := client.ConnectCommand(ctxT(t), testproc.Command(t, nil, testproc.Env(stdioServerEnv+"="+file)...),
				otel.Client(tl.options()...), client.WithProtocolVersion(era.version), client.WithLogger(quiet))
			if err != nil {
				t.Fatal(err)
			}
			ctx, root := tl.tp.Tracer("test").Start(ctxT(t), "host")
			_, err = c.CallTool(ctx, "echo", EchoArgs{Text: "hi"})
			root.End()
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Close(); err != nil { // waits for the server process to exit
				t.Fatal(err)
			}

			cs := tl.span(t, "tools/call echo", trace.SpanKindClient)
			checkAttrs(t, "client span", attrs(cs.Attributes), map[string]string{"network.transport": "pipe", "mcp.protocol.version": era.version})
			var found bool
			for _, s := range readSpans(t, file) {
				if s.Name != "tools/call echo" {
					continue
				}
				found = true
				if s.SpanKind != int(trace.SpanKindServer) {
					t.Errorf("server span kind %d, want SERVER", s.SpanKind)
				}
				if s.SpanContext.TraceID != root.SpanContext().TraceID().String() || s.Parent.SpanID != cs.SpanContext.SpanID().String() || !s.Parent.Remote {
					t.Errorf("server span %+v, parent %+v; want trace %s, remote parent %s", s.SpanContext, s.Parent, root.SpanContext().TraceID(), cs.SpanContext.SpanID())
				}
				got := map[string]string{}
				for _, a := range s.Attributes {
					got[a.Key] = fmt.Sprint(a.Value.Value)
				}
				checkAttrs(t, "server span", got, map[string]string{
					"mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "network.transport": "pipe",
					"mcp.protocol.version": era.version, "jsonrpc.request.id": "*",
				})
			}
			if !found {
				t.Errorf("the server process exported no tools/call echo span: %+v", readSpans(t, file))
			}
		})
	}
}
