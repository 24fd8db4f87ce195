package otel_test

import (
	"context"
	"testing"

	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/otel"
)

// BenchmarkToolCall measures one tools/call, client to server over an
// in-memory connection (legacy era), with and without the instrumentation:
//
//   - off: neither otel.Server nor otel.Client installed, fastmcp as is;
//   - noop: both installed, with no OpenTelemetry SDK (no-op providers,
//     what the global providers are until a program installs an SDK);
//   - sdk: both installed, with the SDK sampling every span (exported to
//     a no-op exporter) and aggregating both histograms.
//
// docs/telemetry.md has the numbers.
func BenchmarkToolCall(b *testing.B) {
	sdkOpts := func(b *testing.B) []otel.Option {
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(tracetest.NewNoopExporter()))
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
		b.Cleanup(func() {
			_ = tp.Shutdown(context.Background())
			_ = mp.Shutdown(context.Background())
		})
		return []otel.Option{otel.WithTracerProvider(tp), otel.WithMeterProvider(mp)}
	}
	for _, bc := range []struct {
		name string
		opts func(*testing.B) []otel.Option // nil: not instrumented
	}{
		{"off", nil},
		{"noop", func(*testing.B) []otel.Option {
			return []otel.Option{otel.WithTracerProvider(tracenoop.NewTracerProvider()), otel.WithMeterProvider(metricnoop.NewMeterProvider())}
		}},
		{"sdk", sdkOpts},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := fastmcp.New("bench", "1.0.0", fastmcp.Logger(quiet))
			copts := []client.Option{client.WithProtocolVersion(fastmcptest.Legacy)}
			if bc.opts != nil {
				opts := bc.opts(b)
				s.Lowlevel().Use(otel.Server(opts...))
				copts = append(copts, otel.Client(opts...))
			}
			s.Tool("echo", func(in EchoArgs) (string, error) { return in.Text, nil })
			c := fastmcptest.NewClient(b, s, copts...)
			ctx := context.Background()
			args := EchoArgs{Text: "hi"}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.CallTool(ctx, "echo", args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
