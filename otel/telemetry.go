package otel

import (
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
