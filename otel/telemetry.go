package otel

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// telemetry is what the server and the client side record with: a tracer,
// and the histograms of operation and session durations.
type telemetry struct {
	cfg      *config
	tracer   trace.Tracer
	duration metric.Float64Histogram
	sessions metric.Float64Histogram
}

// newTelemetry makes the instruments of one side. Instrument errors are
// reported to the global error handler by the SDK and leave a no-op
// instrument: telemetry never fails a request.
func newTelemetry(cfg *config, durationName, durationDesc, sessionName, sessionDesc string) telemetry {
	m := cfg.meter()
	dur, _ := m.Float64Histogram(durationName, metric.WithUnit("s"), metric.WithDescription(durationDesc),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	sess, _ := m.Float64Histogram(sessionName, metric.WithUnit("s"), metric.WithDescription(sessionDesc),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	return telemetry{cfg: cfg, tracer: cfg.tracer(), duration: dur, sessions: sess}
}

// finish ends span with the outcome o and records the operation's
// duration when measuring: attrs[:nMetric] are the attributes the metric
// shares with the span, the rest the span's own.
func (t *telemetry) finish(ctx context.Context, span trace.Span, o outcome, attrs []attribute.KeyValue, nMetric int, start time.Time, measuring bool) {
	mattrs := o.record(span, attrs[:nMetric:nMetric])
	span.SetAttributes(mattrs[nMetric:]...)
	end := time.Now()
	span.End(trace.WithTimestamp(end))
	if measuring {
		t.duration.Record(ctx, end.Sub(start).Seconds(), metric.WithAttributeSet(attribute.NewSet(mattrs...)))
	}
}
