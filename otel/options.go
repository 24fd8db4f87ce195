package otel

import (
	gootel "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the tracer and meter this
// package creates.
const ScopeName = "github.com/fastmcp-go/fastmcp/otel"

// An Option configures Server and Client.
type Option func(*config)

type config struct {
	tp          trace.TracerProvider
	mp          metric.MeterProvider
	propagators propagation.TextMapPropagator
	arguments   bool
	results     bool
	events      bool
}

// WithTracerProvider sets where spans go. Default: the global provider
// (otel.GetTracerProvider), read when Server or Client is called.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tp = tp }
}

// WithMeterProvider sets where the duration histograms go. Default: the
// global provider (otel.GetMeterProvider).
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.mp = mp }
}

// WithPropagators sets how trace context and baggage are written into and
// read from a request's params._meta. Default: the global propagator
// (otel.GetTextMapPropagator); when that propagates nothing (the global
// default), W3C Trace Context and Baggage, which the MCP conventions name.
func WithPropagators(p propagation.TextMapPropagator) Option {
	return func(c *config) { c.propagators = p }
}

// WithToolArguments records each tool call's arguments on its span as
// gen_ai.tool.call.arguments (a JSON string). Off by default: arguments
// may hold personal or secret data.
func WithToolArguments() Option {
	return func(c *config) { c.arguments = true }
}

// WithToolResults records each successful tool call's result on its span
// as gen_ai.tool.call.result (a JSON string). Off by default, for the same
// reason as WithToolArguments.
func WithToolResults() Option {
	return func(c *config) { c.results = true }
}

// WithNotificationEvents makes the server record the progress and log
// notifications a request sends (notifications/progress,
// notifications/message) as events on the request's span. Off by default.
func WithNotificationEvents() Option {
	return func(c *config) { c.events = true }
}

func newConfig(opts []Option) *config {
	c := &config{}
	for _, o := range opts {
		o(c)
	}
	if c.tp == nil {
		c.tp = gootel.GetTracerProvider()
	}
	if c.mp == nil {
		c.mp = gootel.GetMeterProvider()
	}
	if c.propagators == nil {
		c.propagators = gootel.GetTextMapPropagator()
		if len(c.propagators.Fields()) == 0 {
			c.propagators = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
		}
	}
	return c
}

func (c *config) tracer() trace.Tracer {
	return c.tp.Tracer(ScopeName, trace.WithSchemaURL(semconv.SchemaURL))
}

func (c *config) meter() metric.Meter {
	return c.mp.Meter(ScopeName, metric.WithSchemaURL(semconv.SchemaURL))
}
