package otel

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
)

// Server returns middleware that traces and measures every request and
// notification a server handles, following the OpenTelemetry semantic
// conventions for MCP. Install it first, so that it also sees what other
// middleware refuses:
//
//	s := fastmcp.New("app", "1.0.0")
//	s.Lowlevel().Use(otel.Server())
//
// Each message gets a SERVER span named "{mcp.method.name} {target}" (the
// tool or prompt name), the child of the client's span when the client
// sent its trace context in params._meta (traceparent, tracestate,
// baggage), with a link to the HTTP request's span when there is one. The
// span carries mcp.method.name, mcp.protocol.version, mcp.session.id,
// jsonrpc.request.id, gen_ai.tool.name and gen_ai.operation.name,
// gen_ai.prompt.name, mcp.resource.uri, network.transport (tcp over HTTP,
// pipe otherwise) and, when it failed, error.type (the JSON-RPC code, or
// tool_error for a tool result with isError) with rpc.response.status_code.
// The handler's context carries the span: the spans a tool starts are its
// children, and log records written with it carry its ids (see
// LogHandler).
//
// Durations go to the mcp.server.operation.duration histogram and, for
// sessions opened with initialize, mcp.server.session.duration.
func Server(opts ...Option) lowlevel.Middleware {
	cfg := newConfig(opts)
	t := newServerTelemetry(cfg)
	return func(next lowlevel.Handler) lowlevel.Handler {
		return lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
			return t.handle(ctx, req, next)
		})
	}
}

// serverSpan are the start options of every server span, made once: an
// option made per request would be an allocation even without an SDK.
var serverSpan = []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer)}

type serverTelemetry struct{ telemetry }

func newServerTelemetry(cfg *config) *serverTelemetry {
	return &serverTelemetry{newTelemetry(cfg,
		ServerOperationDuration, "MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.",
		ServerSessionDuration, "The duration of the MCP session as observed on the MCP server.")}
}

// handle runs one request under its span (and the operation metric), as
// Server's middleware.
func (t *serverTelemetry) handle(ctx context.Context, req *lowlevel.Request, next lowlevel.Handler) (any, error) {
	start := time.Now()
	parent, links := t.parent(ctx, req)
	// The span starts named after the method alone: the target, read from
	// the params, and the attributes are only worked out for a span that
	// records (samplers see the method name, the kind and the links).
	startOpts := serverSpan
	if len(links) > 0 {
		startOpts = []trace.SpanStartOption{serverSpan[0], trace.WithLinks(links...)}
	}
	ctx, span := t.tracer.Start(parent, req.Method, startOpts...)
	recording, measuring := span.IsRecording(), t.duration.Enabled(ctx)
	if !recording && !measuring {
		// No SDK, or this span sampled out and the metric dropped: only
		// the trace context goes on, to the handler's own spans.
		res, err := next.Handle(ctx, req)
		span.End()
		t.initialized(req, err, start)
		return res, err
	}

	tg := parseTarget(req.Method, req.Params)
	// The metric's attributes, then the span's own.
	attrs := make([]attribute.KeyValue, 0, 16)
	attrs = tg.attributes(attrs, req.Method)
	if req.Version != "" {
		attrs = append(attrs, ProtocolVersionKey.String(req.Version))
	}
	if req.HTTP != nil {
		attrs = append(attrs, semconv.NetworkTransportTCP, semconv.NetworkProtocolName("http"))
	} else {
		attrs = append(attrs, semconv.NetworkTransportPipe)
	}
	nMetric := len(attrs)
	if recording {
		attrs = t.spanAttributes(attrs, req, &tg)
		if name := tg.spanName(req.Method); name != req.Method {
			span.SetName(name)
		}
		span.SetAttributes(attrs...)
		if t.cfg.events {
			ctx = withEvents(ctx, span)
		}
	}

	res, err := next.Handle(ctx, req)

	o := t.outcome(ctx, span, req, res, err, recording)
	t.finish(ctx, span, o, attrs, nMetric, start, measuring)
	t.initialized(req, err, start)
	return res, err
}

// spanAttributes appends to attrs the attributes only a recording span
// carries (not the metric): the request id, the resource URI, the HTTP
// session and client, the tool's arguments when configured.
func (t *serverTelemetry) spanAttributes(attrs []attribute.KeyValue, req *lowlevel.Request, tg *target) []attribute.KeyValue {
	if req.ID.IsValid() {
		attrs = append(attrs, semconv.JSONRPCRequestID(req.ID.String()))
	}
	if tg.uri != "" {
		attrs = append(attrs, ResourceURIKey.String(tg.uri))
	}
	if req.HTTP != nil {
		if req.HTTP.SessionID != "" {
			attrs = append(attrs, SessionIDKey.String(req.HTTP.SessionID))
		}
		if host, port := hostPort(req.HTTP.RemoteAddr); host != "" {
			attrs = append(attrs, semconv.ClientAddress(host))
			if port != 0 {
				attrs = append(attrs, semconv.ClientPort(port))
			}
		}
	}
	if t.cfg.arguments && len(tg.arguments) > 0 {
		attrs = append(attrs, ToolCallArgumentsKey.String(string(tg.arguments)))
	}
	return attrs
}

// outcome is how the request ended, from its handler's result and error;
// on a recording span a tool's result goes on it when configured.
func (t *serverTelemetry) outcome(ctx context.Context, span trace.Span, req *lowlevel.Request, res any, err error, recording bool) outcome {
	switch {
	case req.IsNotification():
	case err != nil:
		cancelled := ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
		return errorOutcome(err, !cancelled)
	case req.Method == protocol.MethodToolsCall:
		if toolIsError(res) {
			return toolErrorOutcome
		}
		if t.cfg.results && recording {
			if raw := resultJSON(res); raw != nil {
				span.SetAttributes(ToolCallResultKey.String(string(raw)))
			}
		}
	}
	return outcome{}
}

// initialized starts measuring the session of a successful initialize.
func (t *serverTelemetry) initialized(req *lowlevel.Request, err error, start time.Time) {
	if req.Method == protocol.MethodInitialize && err == nil && req.Session != nil && t.sessions.Enabled(context.Background()) {
		t.watchSession(req.Session, start, req.HTTP != nil)
	}
}

// parent returns the context the request's span starts in: the trace
// context the client propagated in params._meta (with its baggage) when
// there is one, linking the ambient span (the HTTP request's, or ctx's);
// else the ambient span itself.
func (t *serverTelemetry) parent(ctx context.Context, req *lowlevel.Request) (context.Context, []trace.Link) {
	ambient := trace.SpanContextFromContext(ctx)
	if !ambient.IsValid() && req.HTTP != nil && req.HTTP.Context != nil {
		ambient = trace.SpanContextFromContext(req.HTTP.Context)
	}
	if len(req.Meta.Other) > 0 {
		extracted := t.cfg.propagators.Extract(ctx, metaCarrier(req.Meta.Other))
		if remote := trace.SpanContextFromContext(extracted); remote.IsValid() {
			if ambient.IsValid() && !ambient.Equal(remote) {
				return extracted, []trace.Link{{SpanContext: ambient}}
			}
			return extracted, nil
		}
		ctx = extracted // baggage without trace context
	}
	if ambient.IsValid() && !trace.SpanContextFromContext(ctx).IsValid() {
		ctx = trace.ContextWithRemoteSpanContext(ctx, ambient)
	}
	return ctx, nil
}

// watchSession records the duration of a session when it ends, from the
// start of its initialize request.
func (t *serverTelemetry) watchSession(s *session.Session, start time.Time, http bool) {
	context.AfterFunc(s.Context(), func() {
		attrs := make([]attribute.KeyValue, 0, 4)
		if v := s.ProtocolVersion(); v != "" {
			attrs = append(attrs, ProtocolVersionKey.String(v))
		}
		if http {
			attrs = append(attrs, semconv.NetworkTransportTCP, semconv.NetworkProtocolName("http"))
		} else {
			attrs = append(attrs, semconv.NetworkTransportPipe)
		}
		if et := sessionErrorType(s.Err()); et != "" {
			attrs = append(attrs, semconv.ErrorTypeKey.String(et))
		}
		t.sessions.Record(context.Background(), time.Since(start).Seconds(), metric.WithAttributes(attrs...))
	})
}

// toolIsError reports whether a tools/call handler's result has isError
// set.
func toolIsError(res any) bool {
	switch r := res.(type) {
	case *protocol.CallToolResult:
		return r != nil && r.IsError
	case nil:
		return false
	}
	return isErrorJSON(resultJSON(res))
}

// resultJSON is a handler's result as JSON, nil when it cannot be encoded.
func resultJSON(res any) json.RawMessage {
	switch r := res.(type) {
	case nil:
		return nil
	case json.RawMessage:
		return r
	}
	b, err := protocol.Marshal(res)
	if err != nil {
		return nil
	}
	return b
}
