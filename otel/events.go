package otel

import (
	"context"
	"encoding/json"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
)

// withEvents makes the progress and log notifications sent with ctx events
// on span (WithNotificationEvents): an event named after the notification's
// method, with mcp.method.name and the progress (progress, total, message)
// or the log message's level and logger. The log data itself is left out:
// it is what the tool chose to tell the client, not telemetry.
func withEvents(ctx context.Context, span trace.Span) context.Context {
	return session.WithNotifyObserver(ctx, func(_ context.Context, method string, params json.RawMessage) {
		attrs := []attribute.KeyValue{MethodNameKey.String(method)}
		switch method {
		case protocol.NotificationProgress:
			var p protocol.ProgressParams
			if json.Unmarshal(params, &p) == nil {
				attrs = append(attrs, attribute.Float64("mcp.progress.progress", p.Progress))
				if p.Total != 0 {
					attrs = append(attrs, attribute.Float64("mcp.progress.total", p.Total))
				}
				if p.Message != "" {
					attrs = append(attrs, attribute.String("mcp.progress.message", p.Message))
				}
			}
		case protocol.NotificationMessage:
			var p protocol.LoggingMessageParams
			if json.Unmarshal(params, &p) == nil {
				attrs = append(attrs, attribute.String("mcp.log.level", string(p.Level)))
				if p.Logger != "" {
					attrs = append(attrs, attribute.String("mcp.log.logger", p.Logger))
				}
			}
		default:
			return
		}
		span.AddEvent(method, trace.WithAttributes(attrs...))
	})
}
