package otel_test

import (
	"context"
	"encoding/json"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/otel"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// FuzzServerRequest feeds the server middleware requests whose params and
// _meta come from the peer: whatever they hold (a malformed traceparent, a
// name that is not a string, no object at all), the request reaches the
// handler with a span in its context, at most one span is exported (none
// under an unsampled parent), and its name is the method or the method and
// a target.
func FuzzServerRequest(f *testing.F) {
	for _, seed := range []struct {
		method string
		params string
		meta   string
	}{
		{"tools/call", `{"name":"echo","arguments":{"text":"hi"}}`, `{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}`},
		{"tools/call", `{"name":7}`, `{"traceparent":"00-zz-00f067aa0ba902b7-01","tracestate":"a=1"}`},
		{"prompts/get", `{"name":"greet"}`, `{"baggage":"user=alice"}`},
		{"resources/read", `{"uri":"file:///x"}`, `{"traceparent":17}`},
		{"resources/subscribe", `[]`, `{}`},
		{"x/custom", `null`, `{"baggage":"%%%"}`},
	} {
		f.Add(seed.method, seed.params, seed.meta)
	}
	tl := newTelemetry(f)
	mw := otel.Server(tl.options(otel.WithToolArguments(), otel.WithToolResults())...)
	reached := 0
	h := mw(lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
		reached++
		if !trace.SpanFromContext(ctx).SpanContext().IsValid() {
			return nil, protocol.ErrInternal
		}
		return &protocol.CallToolResult{IsError: len(req.Params)%2 == 0}, nil
	}))
	f.Fuzz(func(t *testing.T, method, params, meta string) {
		if method == "" {
			return
		}
		req := &lowlevel.Request{Method: method, ID: protocol.Int64ID(1)}
		if json.Valid([]byte(params)) {
			req.Params = json.RawMessage(params)
		}
		var m protocol.RequestMeta
		if protocol.Unmarshal([]byte(meta), &m) == nil {
			req.Meta = m
		}
		tl.spans.Reset()
		before := reached
		if _, err := h.Handle(context.Background(), req); err != nil {
			t.Fatalf("the handler saw no span: %v", err)
		}
		if reached != before+1 {
			t.Fatal("the request did not reach the handler")
		}
		// A client's traceparent whose sampled flag is off makes the
		// SDK's default sampler (parent-based) record nothing.
		spans := tl.spans.GetSpans()
		if len(spans) > 1 {
			t.Fatalf("%d spans ended, want 1", len(spans))
		}
		if len(spans) == 0 {
			return
		}
		if name := spans[0].Name; name != method && (len(name) <= len(method)+1 || name[:len(method)+1] != method+" ") {
			t.Errorf("span name %q for method %q", name, method)
		}
	})
}
