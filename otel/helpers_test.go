package otel_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"slices"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/otel"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(stdioServerEnv); mode != "" {
		os.Exit(runStdioServer(mode))
	}
	goleak.VerifyTestMain(m)
}

var quiet = slog.New(slog.DiscardHandler)

// telemetry is an SDK set up for a test: spans go to an in-memory
// exporter as they end, metrics are read on demand.
type telemetry struct {
	spans  *tracetest.InMemoryExporter
	tp     *sdktrace.TracerProvider
	reader *sdkmetric.ManualReader
	mp     *sdkmetric.MeterProvider
}

func newTelemetry(t testing.TB) *telemetry {
	tl := &telemetry{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader()}
	tl.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(tl.spans))
	tl.mp = sdkmetric.NewMeterProvider(sdkmetric.WithReader(tl.reader))
	t.Cleanup(func() {
		_ = tl.tp.Shutdown(context.Background())
		_ = tl.mp.Shutdown(context.Background())
	})
	return tl
}

// options points the instrumentation at tl, plus opts.
func (tl *telemetry) options(opts ...otel.Option) []otel.Option {
	return append([]otel.Option{otel.WithTracerProvider(tl.tp), otel.WithMeterProvider(tl.mp)}, opts...)
}

// span returns the one ended span named name of kind, failing t when there
// is not exactly one.
func (tl *telemetry) span(t testing.TB, name string, kind trace.SpanKind) tracetest.SpanStub {
	t.Helper()
	found := spansNamed(tl, name, kind)
	if len(found) != 1 {
		t.Fatalf("%d %s spans named %q, want 1; spans: %v", len(found), kind, name, spanNames(tl.spans.GetSpans()))
	}
	return found[0]
}

// spanNames lists spans as "kind name".
func spanNames(spans tracetest.SpanStubs) []string {
	var names []string
	for _, s := range spans {
		names = append(names, s.SpanKind.String()+" "+s.Name)
	}
	return names
}

// attrs returns the attributes as strings.
func attrs(kvs []attribute.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

// checkAttrs fails t unless got has every attribute of want with its
// value ("*" for any value) and none of absent.
func checkAttrs(t testing.TB, what string, got map[string]string, want map[string]string, absent ...string) {
	t.Helper()
	for k, v := range want {
		g, ok := got[k]
		switch {
		case !ok:
			t.Errorf("%s: no attribute %s (want %q); has %v", what, k, v, got)
		case v != "*" && g != v:
			t.Errorf("%s: %s = %q, want %q", what, k, g, v)
		}
	}
	for _, k := range absent {
		if g, ok := got[k]; ok {
			t.Errorf("%s: attribute %s = %q, want none", what, k, g)
		}
	}
}

// histogram returns the data points of the float64 histogram name.
func (tl *telemetry) histogram(t testing.TB, name string) []metricdata.HistogramDataPoint[float64] {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := tl.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			if m.Unit != "s" {
				t.Errorf("%s: unit %q, want s", name, m.Unit)
			}
			h, ok := m.Data.(metricdata.Histogram[float64])
			if !ok {
				t.Fatalf("%s is a %T, want a float64 histogram", name, m.Data)
			}
			return h.DataPoints
		}
	}
	return nil
}

// point returns the data point of the histogram whose attributes include
// every one of want, failing t when there is none.
func point(t testing.TB, points []metricdata.HistogramDataPoint[float64], want map[string]string) metricdata.HistogramDataPoint[float64] {
	t.Helper()
	var all []map[string]string
	for _, p := range points {
		got := attrs(p.Attributes.ToSlice())
		all = append(all, got)
		match := true
		for k, v := range want {
			if got[k] != v {
				match = false
			}
		}
		if match {
			return p
		}
	}
	t.Fatalf("no data point with %v among %v", want, all)
	return metricdata.HistogramDataPoint[float64]{}
}

// durationBounds are the bucket boundaries the conventions advise.
var durationBounds = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300}

func checkBounds(t testing.TB, what string, p metricdata.HistogramDataPoint[float64]) {
	t.Helper()
	if !slices.Equal(p.Bounds, durationBounds) {
		t.Errorf("%s: bucket bounds %v, want %v", what, p.Bounds, durationBounds)
	}
}

// EchoArgs are the echo tool's arguments.
type EchoArgs struct {
	Text string `json:"text"`
}

// newServer returns the test server, traced with opts: tools echo,
// fail (isError), work (progress and a log message), a prompt greet and
// a resource res://doc.
func newServer(logger *slog.Logger, opts ...otel.Option) *fastmcp.Server {
	if logger == nil {
		logger = quiet
	}
	s := fastmcp.New("otel-test", "1.0.0", fastmcp.Logger(logger))
	s.Lowlevel().Use(otel.Server(opts...))
	s.Tool("echo", func(in EchoArgs) (string, error) { return in.Text, nil })
	s.Tool("fail", func(struct{}) (string, error) { return "", errors.New("it broke") })
	s.Tool("work", func(ctx *fastmcp.Context, _ struct{}) (string, error) {
		if err := ctx.Progress(1, 2, "half way"); err != nil {
			return "", err
		}
		ctx.Info("working", "step", 1)
		return "done", nil
	})
	s.Prompt("greet", func(in struct {
		Name string `json:"name"`
	}) string {
		return "Hello, " + in.Name
	})
	s.Resource("res://doc", func() string { return "the doc" })
	return s
}

// eras are the two protocol generations.
var eras = []struct {
	name    string
	version string
}{
	{"legacy", fastmcptest.Legacy},
	{"modern", fastmcptest.Modern},
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
