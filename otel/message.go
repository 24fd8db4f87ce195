package otel

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// target is what a request names: the tool, prompt or resource it is about,
// and a tool call's arguments.
type target struct {
	tool, prompt, uri string
	arguments         json.RawMessage
}

// parseTarget reads the target of method from its params; the zero target
// for methods that have none.
func parseTarget(method string, params json.RawMessage) target {
	switch method {
	case protocol.MethodToolsCall, protocol.MethodPromptsGet, protocol.MethodResourcesRead,
		protocol.MethodResourcesSubscribe, protocol.MethodResourcesUnsubscribe, protocol.NotificationResourcesUpdated:
	default:
		return target{}
	}
	var p struct {
		Name      string          `json:"name"`
		URI       string          `json:"uri"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if len(params) == 0 || json.Unmarshal(params, &p) != nil {
		return target{}
	}
	switch method {
	case protocol.MethodToolsCall:
		return target{tool: p.Name, arguments: p.Arguments}
	case protocol.MethodPromptsGet:
		return target{prompt: p.Name}
	}
	return target{uri: p.URI}
}

// spanName is "{mcp.method.name} {target}", the target being the tool or
// prompt name (never the resource URI, whose cardinality is unbounded).
func (t *target) spanName(method string) string {
	switch {
	case t.tool != "":
		return method + " " + t.tool
	case t.prompt != "":
		return method + " " + t.prompt
	}
	return method
}

// attributes appends the target's attributes (those the operation metrics
// carry too, less the resource URI, which the metrics leave out).
func (t *target) attributes(attrs []attribute.KeyValue, method string) []attribute.KeyValue {
	attrs = append(attrs, MethodNameKey.String(method))
	if t.tool != "" {
		attrs = append(attrs, ToolNameKey.String(t.tool))
	}
	if method == protocol.MethodToolsCall {
		attrs = append(attrs, OperationNameKey.String(OperationExecuteTool))
	}
	if t.prompt != "" {
		attrs = append(attrs, PromptNameKey.String(t.prompt))
	}
	return attrs
}

// outcome is how an operation ended, for its span and its metric.
type outcome struct {
	errorType string // error.type; "" on success
	status    string // rpc.response.status_code: the JSON-RPC error code, "" without one
	message   string // the span status description
}

// errorOutcome classifies the error a request ended with: a JSON-RPC error
// by its code, with the message of the error response (answered: the
// server's handler returned err, which protocol.ToWire turns into the
// response; an error that is not a *protocol.Error is answered as an
// internal error, -32603); a cancelled or timed-out request by the context
// error; any other failure to get an answer (the transport's) as _OTHER.
func errorOutcome(err error, answered bool) outcome {
	perr, ok := errors.AsType[*protocol.Error](err)
	if answered {
		perr, ok = protocol.ToWire(err), true // the error response the server sends
	}
	if ok {
		code := strconv.FormatInt(perr.Code, 10)
		return outcome{errorType: code, status: code, message: perr.Message}
	}
	switch {
	case errors.Is(err, context.Canceled):
		return outcome{errorType: "cancelled", message: err.Error()}
	case errors.Is(err, context.DeadlineExceeded):
		return outcome{errorType: "timeout", message: err.Error()}
	}
	return outcome{errorType: semconv.ErrorTypeOther.Value.AsString(), message: err.Error()}
}

// toolErrorOutcome is the outcome of a tools/call answered with a result
// whose isError is set.
var toolErrorOutcome = outcome{errorType: ErrorTypeToolError, message: "the tool reported an error (isError)"}

// isErrorJSON reports whether a JSON tool result has isError set.
func isErrorJSON(res json.RawMessage) bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	return len(res) > 0 && json.Unmarshal(res, &r) == nil && r.IsError
}

// record sets the outcome on the span and appends its attributes.
func (o *outcome) record(span trace.Span, attrs []attribute.KeyValue) []attribute.KeyValue {
	if o.status != "" {
		attrs = append(attrs, semconv.RPCResponseStatusCode(o.status))
	}
	if o.errorType != "" {
		attrs = append(attrs, semconv.ErrorTypeKey.String(o.errorType))
		span.SetStatus(codes.Error, o.message)
	}
	return attrs
}

// hostPort splits a host:port address; port is 0 when there is none.
func hostPort(addr string) (string, int) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return addr, 0
	}
	port, _ := strconv.Atoi(p)
	return host, port
}
