package otel_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/trace"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/otel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestNotificationEvents: with WithNotificationEvents, the progress and log
// notifications a tool sends are events on its span; without it, none.
func TestNotificationEvents(t *testing.T) {
	for _, on := range []bool{false, true} {
		t.Run(map[bool]string{false: "off", true: "on"}[on], func(t *testing.T) {
			tl := newTelemetry(t)
			opts := tl.options()
			if on {
				opts = tl.options(otel.WithNotificationEvents())
			}
			s := newServer(nil, opts...)
			c := fastmcptest.NewClient(t, s, client.WithProtocolVersion(fastmcptest.Legacy),
				client.WithLogHandler(func(*protocol.LoggingMessageParams) {}))
			if _, err := c.CallTool(ctxT(t), "work", nil, client.WithProgress(func(*protocol.ProgressParams) {})); err != nil {
				t.Fatal(err)
			}
			events := tl.span(t, "tools/call work", trace.SpanKindServer).Events
			if !on {
				if len(events) != 0 {
					t.Errorf("%d events without WithNotificationEvents, want none", len(events))
				}
				return
			}
			if len(events) != 2 {
				t.Fatalf("%d events, want 2 (progress, log): %+v", len(events), events)
			}
			if events[0].Name != "notifications/progress" || events[1].Name != "notifications/message" {
				t.Errorf("events %q, %q", events[0].Name, events[1].Name)
			}
			checkAttrs(t, "progress event", attrs(events[0].Attributes), map[string]string{
				"mcp.method.name": "notifications/progress", "mcp.progress.progress": "1", "mcp.progress.total": "2", "mcp.progress.message": "half way",
			})
			checkAttrs(t, "log event", attrs(events[1].Attributes), map[string]string{
				"mcp.method.name": "notifications/message", "mcp.log.level": "info", "mcp.log.logger": "work",
			})
		})
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestLogHandlerCorrelates: what a tool logs through its Context carries
// the trace and span ids of its tools/call span; a record without a span
// carries none.
func TestLogHandlerCorrelates(t *testing.T) {
	tl := newTelemetry(t)
	var buf syncBuffer
	logger := slog.New(otel.LogHandler(slog.NewJSONHandler(&buf, nil)))
	s := newServer(logger, tl.options()...)
	c := fastmcptest.NewClient(t, s)
	if _, err := c.CallTool(ctxT(t), "work", nil); err != nil {
		t.Fatal(err)
	}
	logger.Info("outside any request")
	sp := tl.span(t, "tools/call work", trace.SpanKindServer)
	var sawWork, sawOutside bool
	for line := range strings.Lines(buf.String()) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		switch rec["msg"] {
		case "working":
			sawWork = true
			if rec["trace_id"] != sp.SpanContext.TraceID().String() || rec["span_id"] != sp.SpanContext.SpanID().String() {
				t.Errorf("tool log %v; want trace_id %s span_id %s", rec, sp.SpanContext.TraceID(), sp.SpanContext.SpanID())
			}
		case "outside any request":
			sawOutside = true
			if _, ok := rec["trace_id"]; ok {
				t.Errorf("a record without a span got a trace_id: %v", rec)
			}
		}
	}
	if !sawWork || !sawOutside {
		t.Errorf("log lacks the records: %s", buf.String())
	}
}

// TestSessionDurations: when a legacy session ends, its duration is
// recorded on both sides, with its revision and transport and no error
// (an orderly close).
func TestSessionDurations(t *testing.T) {
	tl := newTelemetry(t)
	s := newServer(nil, tl.options()...)
	cc, sc := transport.NewPipe()
	served := make(chan error, 1)
	go func() { served <- s.Serve(context.Background(), sc) }()
	c, err := client.Connect(ctxT(t), cc, otel.Client(tl.options()...), client.WithLogger(quiet),
		client.WithProtocolVersion(fastmcptest.Legacy))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CallTool(ctxT(t), "echo", EchoArgs{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if err := <-served; err != nil && !errors.Is(err, transport.ErrClosed) {
		t.Fatalf("Serve: %v", err)
	}
	want := map[string]string{"mcp.protocol.version": fastmcptest.Legacy, "network.transport": "pipe"}
	for _, name := range []string{otel.ServerSessionDuration, otel.ClientSessionDuration} {
		// The duration is recorded by a function that runs once the
		// session's context is done (context.AfterFunc): wait for it.
		var points []metricdata.HistogramDataPoint[float64]
		for deadline := time.Now().Add(10 * time.Second); len(points) == 0 && time.Now().Before(deadline); {
			if points = tl.histogram(t, name); len(points) == 0 {
				time.Sleep(5 * time.Millisecond)
			}
		}
		p := point(t, points, want)
		checkBounds(t, name, p)
		if p.Count != 1 {
			t.Errorf("%s: count %d, want 1", name, p.Count)
		}
		checkAttrs(t, name, attrs(p.Attributes.ToSlice()), want, "error.type")
	}
}
