package otel

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// Client returns the client option that traces and measures every request
// the client sends, following the OpenTelemetry semantic conventions for
// MCP:
//
//	c, err := client.ConnectHTTP(ctx, url, otel.Client())
//
// Each request gets a CLIENT span named "{mcp.method.name} {target}" (the
// tool or prompt name), a child of the span in the caller's context, with
// the attributes Server describes, client.address aside. The span's trace
// context
// and the caller's baggage travel to the server in params._meta
// (traceparent, tracestate, baggage), so that a server instrumented with
// Server continues the same trace. A tool result with isError set is a
// failure of type tool_error.
//
// Durations go to the mcp.client.operation.duration histogram and, once
// the client has connected, the session's to mcp.client.session.duration
// when it ends. The legacy initialize request is sent by the session
// before any middleware and is not traced.
func Client(opts ...Option) client.Option {
	t := newClientTelemetry(newConfig(opts))
	return client.WithMiddleware(t.middleware)
}

// clientSpan are the start options of every client span (see serverSpan).
var clientSpan = []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindClient)}

type clientTelemetry struct{ telemetry }

func newClientTelemetry(cfg *config) *clientTelemetry {
	return &clientTelemetry{newTelemetry(cfg,
		ClientOperationDuration, "The duration of the MCP request or notification as observed on the sender from the time it was sent until the response or ack is received.",
		ClientSessionDuration, "The duration of the MCP session as observed on the MCP client.")}
}

// middleware is built once per connection (client.Connect), so its
// closure holds that connection's session state.
func (t *clientTelemetry) middleware(next client.SendFunc) client.SendFunc {
	connected := time.Now()
	var watch sync.Once
	return func(ctx context.Context, req *client.OutgoingRequest) (json.RawMessage, error) {
		res, err := t.send(ctx, req, next)
		if err == nil && req.Session != nil {
			// The first answer tells the connection is up: a failed
			// attempt (ConnectHTTP's Streamable HTTP probe of a legacy
			// server) records no session.
			watch.Do(func() {
				if t.sessions.Enabled(ctx) {
					t.watchSession(req, connected)
				}
			})
		}
		return res, err
	}
}

func (t *clientTelemetry) send(ctx context.Context, req *client.OutgoingRequest, next client.SendFunc) (json.RawMessage, error) {
	start := time.Now()
	// As on the server, the span starts named after the method alone; the
	// rest is worked out for a span that records.
	ctx, span := t.tracer.Start(ctx, req.Method, clientSpan...)
	if span.SpanContext().IsValid() || baggage.FromContext(ctx).Len() > 0 {
		t.inject(ctx, req)
	}
	recording, measuring := span.IsRecording(), t.duration.Enabled(ctx)
	if !recording && !measuring {
		res, err := next(ctx, req)
		span.End()
		return res, err
	}

	tg := parseTarget(req.Method, req.Params)
	attrs := make([]attribute.KeyValue, 0, 16)
	attrs = tg.attributes(attrs, req.Method)
	if req.Version != "" {
		attrs = append(attrs, ProtocolVersionKey.String(req.Version))
	}
	var conn transport.Conn
	if req.Session != nil {
		conn = req.Session.Conn()
	}
	attrs = appendTransport(attrs, conn)
	nMetric := len(attrs)
	if recording {
		if tg.uri != "" {
			attrs = append(attrs, ResourceURIKey.String(tg.uri))
		}
		if sc, ok := conn.(*transport.StreamableClient); ok && sc.SessionID() != "" {
			attrs = append(attrs, SessionIDKey.String(sc.SessionID()))
		}
		if t.cfg.arguments && len(tg.arguments) > 0 {
			attrs = append(attrs, ToolCallArgumentsKey.String(string(tg.arguments)))
		}
		if name := tg.spanName(req.Method); name != req.Method {
			span.SetName(name)
		}
		span.SetAttributes(attrs...)
	}

	res, err := next(ctx, req)
	if recording && req.ID.IsValid() {
		span.SetAttributes(semconv.JSONRPCRequestID(req.ID.String()))
	}

	var o outcome
	switch {
	case err != nil:
		o = errorOutcome(err, false)
	case req.Method == protocol.MethodToolsCall:
		if isErrorJSON(res) {
			o = toolErrorOutcome
		} else if t.cfg.results && recording {
			span.SetAttributes(ToolCallResultKey.String(string(res)))
		}
	}
	t.finish(ctx, span, o, attrs, nMetric, start, measuring)
	return res, err
}

// inject writes ctx's trace context and baggage into the request's
// params._meta.
func (t *clientTelemetry) inject(ctx context.Context, req *client.OutgoingRequest) {
	carrier := propagation.MapCarrier{}
	t.cfg.propagators.Inject(ctx, carrier)
	if len(carrier) == 0 {
		return
	}
	meta := make(protocol.Meta, len(carrier))
	for k, v := range carrier {
		meta[k] = v
	}
	if p, err := protocol.MergeMeta(req.Params, meta); err == nil {
		req.Params = p
	}
}

// watchSession records the duration of the client's session when it ends.
func (t *clientTelemetry) watchSession(req *client.OutgoingRequest, start time.Time) {
	s := req.Session
	version := req.Version
	context.AfterFunc(s.Context(), func() {
		attrs := make([]attribute.KeyValue, 0, 4)
		if version != "" {
			attrs = append(attrs, ProtocolVersionKey.String(version))
		}
		attrs = appendTransport(attrs, s.Conn())
		if et := sessionErrorType(s.Err()); et != "" {
			attrs = append(attrs, semconv.ErrorTypeKey.String(et))
		}
		t.sessions.Record(context.Background(), time.Since(start).Seconds(), metric.WithAttributes(attrs...))
	})
}

// appendTransport appends network.transport (and network.protocol.name for
// HTTP) for the client's connection: tcp for the HTTP transports, pipe for
// stdio and in-memory connections.
func appendTransport(attrs []attribute.KeyValue, conn transport.Conn) []attribute.KeyValue {
	switch conn.(type) {
	case *transport.StreamableClient, *transport.SSEClient:
		return append(attrs, semconv.NetworkTransportTCP, semconv.NetworkProtocolName("http"))
	}
	return append(attrs, semconv.NetworkTransportPipe)
}
