package otel

import (
	"context"
	"log/slog"

	"go.opentelemetry.io/otel/trace"
)

// LogHandler wraps h so that every record logged with a context holding a
// span (the context of a request traced by Server or Client, a
// *fastmcp.Context, or any context of yours) carries the span's trace_id
// and span_id, for logs and traces to be joined. Give it to the server's
// logger:
//
//	logger := slog.New(otel.LogHandler(slog.NewJSONHandler(os.Stderr, nil)))
//	s := fastmcp.New("app", "1.0.0", fastmcp.Logger(logger))
//
// What a tool logs with its context then carries the ids of its tools/call
// span: ctx.Info and the other levels (which also notify the client), or
// ctx.Logger().InfoContext(ctx, ...). Records logged without a context
// (ctx.Logger().Info), or with one that has no span, pass on unchanged.
func LogHandler(h slog.Handler) slog.Handler {
	return &logHandler{h}
}

type logHandler struct{ next slog.Handler }

func (l *logHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return l.next.Enabled(ctx, level)
}

func (l *logHandler) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r = r.Clone()
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	return l.next.Handle(ctx, r)
}

func (l *logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &logHandler{l.next.WithAttrs(attrs)}
}

func (l *logHandler) WithGroup(name string) slog.Handler {
	return &logHandler{l.next.WithGroup(name)}
}
