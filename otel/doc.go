// Package otel instruments fastmcp servers and clients with OpenTelemetry
// traces and metrics that follow the semantic conventions for the Model
// Context Protocol
// (https://github.com/open-telemetry/semantic-conventions-genai/blob/main/docs/gen-ai/mcp.md).
//
// It is a module of its own (github.com/fastmcp-go/fastmcp/otel), so that
// programs that do not import it do not link the OpenTelemetry SDK.
//
//	s.Lowlevel().Use(otel.Server())                  // a span and a duration per request handled
//	c, err := client.ConnectHTTP(ctx, url, otel.Client()) // a span and a duration per request sent
//	logger := slog.New(otel.LogHandler(h))           // trace_id and span_id on a request's log records
//
// The client puts its span's trace context in each request's params._meta
// (traceparent, tracestate, baggage); the server continues that trace, so a
// call from a host through a server is one trace whatever the transport.
// The tracer and meter providers default to the global ones
// (go.opentelemetry.io/otel); without an SDK installed every span and
// measurement is a no-op. See docs/telemetry.md.
package otel
