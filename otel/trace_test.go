package otel_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/otel"
)

// transports connect a traced client to s: in memory (a pipe, as stdio)
// and over Streamable HTTP on 127.0.0.1.
var transports = []struct {
	name      string
	transport string // network.transport
	connect   func(t testing.TB, s *fastmcp.Server, opts ...client.Option) *client.Client
}{
	{"pipe", "pipe", fastmcptest.NewClient},
	{"http", "tcp", fastmcptest.NewHTTPClient},
}

// TestToolCallIsOneTrace: a tools/call from a traced client to a traced
// server, in memory and over HTTP, on both eras, is one trace: the
// caller's span, the client's CLIENT span under it, the server's SERVER
// span under that (continued from params._meta), each with the
// attributes of the MCP conventions; both durations are measured.
func TestToolCallIsOneTrace(t *testing.T) {
	for _, tr := range transports {
		for _, era := range eras {
			t.Run(tr.name+"/"+era.name, func(t *testing.T) {
				tl := newTelemetry(t)
				s := newServer(nil, tl.options()...)
				c := tr.connect(t, s, otel.Client(tl.options()...), client.WithProtocolVersion(era.version))

				ctx, root := tl.tp.Tracer("test").Start(ctxT(t), "host")
				res, err := c.CallTool(ctx, "echo", EchoArgs{Text: "hi"})
				root.End()
				if err != nil || res.IsError {
					t.Fatalf("CallTool: %v %+v", err, res)
				}

				cs := tl.span(t, "tools/call echo", trace.SpanKindClient)
				ss := tl.span(t, "tools/call echo", trace.SpanKindServer)
				rootID := root.SpanContext()
				if cs.SpanContext.TraceID() != rootID.TraceID() || cs.Parent.SpanID() != rootID.SpanID() {
					t.Errorf("client span: trace %s parent %s, want the caller's span %s/%s", cs.SpanContext.TraceID(), cs.Parent.SpanID(), rootID.TraceID(), rootID.SpanID())
				}
				if ss.SpanContext.TraceID() != rootID.TraceID() || ss.Parent.SpanID() != cs.SpanContext.SpanID() || !ss.Parent.IsRemote() {
					t.Errorf("server span: trace %s parent %s (remote %v), want the client span %s/%s, remote",
						ss.SpanContext.TraceID(), ss.Parent.SpanID(), ss.Parent.IsRemote(), cs.SpanContext.TraceID(), cs.SpanContext.SpanID())
				}

				common := map[string]string{
					"mcp.method.name":       "tools/call",
					"gen_ai.tool.name":      "echo",
					"gen_ai.operation.name": "execute_tool",
					"mcp.protocol.version":  c.ProtocolVersion(),
					"network.transport":     tr.transport,
				}
				optIn := []string{"gen_ai.tool.call.arguments", "gen_ai.tool.call.result", "error.type", "rpc.response.status_code"}
				sw := clone(common)
				sw["jsonrpc.request.id"] = "*"
				cw := clone(common)
				cw["jsonrpc.request.id"] = "*"
				if tr.transport == "tcp" {
					sw["network.protocol.name"], cw["network.protocol.name"] = "http", "http"
					sw["client.address"], sw["client.port"] = "127.0.0.1", "*"
					if era.name == "legacy" {
						sw["mcp.session.id"], cw["mcp.session.id"] = "*", "*"
					}
				}
				checkAttrs(t, "server span", attrs(ss.Attributes), sw, optIn...)
				checkAttrs(t, "client span", attrs(cs.Attributes), cw, optIn...)
				if ss.Status.Code != codes.Unset || cs.Status.Code != codes.Unset {
					t.Errorf("status: server %v, client %v; want unset", ss.Status, cs.Status)
				}
				if sid, cid := attrs(ss.Attributes)["jsonrpc.request.id"], attrs(cs.Attributes)["jsonrpc.request.id"]; sid != cid {
					t.Errorf("jsonrpc.request.id: server %q, client %q", sid, cid)
				}
				if got := attrs(ss.Attributes)["mcp.session.id"]; got != "" && got != attrs(cs.Attributes)["mcp.session.id"] {
					t.Errorf("session id: server %q, client %q", got, attrs(cs.Attributes)["mcp.session.id"])
				}

				if era.name == "legacy" {
					// The handshake is traced on both sides too.
					is := tl.span(t, "initialize", trace.SpanKindClient)
					if got := attrs(is.Attributes)["mcp.protocol.version"]; got != c.ProtocolVersion() {
						t.Errorf("initialize client span: mcp.protocol.version %q, want %q", got, c.ProtocolVersion())
					}
					tl.span(t, "initialize", trace.SpanKindServer)
				}

				for _, m := range []struct{ name, side string }{
					{otel.ServerOperationDuration, "server"},
					{otel.ClientOperationDuration, "client"},
				} {
					p := point(t, tl.histogram(t, m.name), common)
					checkBounds(t, m.name, p)
					if p.Count != 1 {
						t.Errorf("%s: count %d, want 1", m.name, p.Count)
					}
					checkAttrs(t, m.name, attrs(p.Attributes.ToSlice()), nil, "jsonrpc.request.id", "mcp.session.id", "client.address", "error.type")
				}
			})
		}
	}
}

func clone(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// TestErrorsAreRecorded: a tool result with isError is a tool_error, a
// JSON-RPC error is recorded with its code, on both sides, in the spans
// (status Error) and in the metrics.
func TestErrorsAreRecorded(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			tl := newTelemetry(t)
			s := newServer(nil, tl.options()...)
			c := fastmcptest.NewClient(t, s, otel.Client(tl.options()...), client.WithProtocolVersion(era.version))
			ctx := ctxT(t)

			res, err := c.CallTool(ctx, "fail", nil)
			if err != nil || !res.IsError {
				t.Fatalf("CallTool fail: %v %+v", err, res)
			}
			if _, err := c.CallTool(ctx, "nope", nil); err == nil {
				t.Fatal("CallTool nope: no error")
			}

			for _, kind := range []trace.SpanKind{trace.SpanKindServer, trace.SpanKindClient} {
				sp := tl.span(t, "tools/call fail", kind)
				checkAttrs(t, kind.String()+" fail", attrs(sp.Attributes), map[string]string{"error.type": "tool_error"}, "rpc.response.status_code")
				if sp.Status.Code != codes.Error {
					t.Errorf("%s fail: status %v, want Error", kind, sp.Status)
				}
				sp = tl.span(t, "tools/call nope", kind)
				checkAttrs(t, kind.String()+" nope", attrs(sp.Attributes), map[string]string{
					"error.type": "-32602", "rpc.response.status_code": "-32602", "gen_ai.tool.name": "nope",
				})
				if sp.Status.Code != codes.Error || !strings.Contains(sp.Status.Description, "nope") {
					t.Errorf("%s nope: status %v, want Error with the server's message", kind, sp.Status)
				}
			}
			for _, name := range []string{otel.ServerOperationDuration, otel.ClientOperationDuration} {
				points := tl.histogram(t, name)
				point(t, points, map[string]string{"gen_ai.tool.name": "fail", "error.type": "tool_error"})
				point(t, points, map[string]string{"gen_ai.tool.name": "nope", "error.type": "-32602", "rpc.response.status_code": "-32602"})
			}
		})
	}
}

// TestToolArgumentsAndResultsOptIn: WithToolArguments and WithToolResults
// put the arguments and the result on both spans (TestToolCallIsOneTrace
// checks they are absent by default).
func TestToolArgumentsAndResultsOptIn(t *testing.T) {
	tl := newTelemetry(t)
	opts := tl.options(otel.WithToolArguments(), otel.WithToolResults())
	s := newServer(nil, opts...)
	c := fastmcptest.NewClient(t, s, otel.Client(opts...))
	if _, err := c.CallTool(ctxT(t), "echo", EchoArgs{Text: "secret"}); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []trace.SpanKind{trace.SpanKindServer, trace.SpanKindClient} {
		a := attrs(tl.span(t, "tools/call echo", kind).Attributes)
		if got := a["gen_ai.tool.call.arguments"]; got != `{"text":"secret"}` {
			t.Errorf("%s: arguments %q", kind, got)
		}
		if got := a["gen_ai.tool.call.result"]; !strings.Contains(got, `"text":"secret"`) {
			t.Errorf("%s: result %q, want the content", kind, got)
		}
	}
}

// TestPromptAndResourceSpans: prompts/get is named after its prompt;
// resources/read carries the URI on the span but not in its name or in
// the metric.
func TestPromptAndResourceSpans(t *testing.T) {
	tl := newTelemetry(t)
	s := newServer(nil, tl.options()...)
	c := fastmcptest.NewClient(t, s, otel.Client(tl.options()...))
	ctx := ctxT(t)
	if _, err := c.GetPrompt(ctx, "greet", map[string]string{"name": "Ada"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ReadResource(ctx, "res://doc"); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []trace.SpanKind{trace.SpanKindServer, trace.SpanKindClient} {
		checkAttrs(t, kind.String()+" prompt", attrs(tl.span(t, "prompts/get greet", kind).Attributes),
			map[string]string{"mcp.method.name": "prompts/get", "gen_ai.prompt.name": "greet"}, "gen_ai.operation.name")
		checkAttrs(t, kind.String()+" resource", attrs(tl.span(t, "resources/read", kind).Attributes),
			map[string]string{"mcp.method.name": "resources/read", "mcp.resource.uri": "res://doc"})
	}
	p := point(t, tl.histogram(t, otel.ServerOperationDuration), map[string]string{"mcp.method.name": "resources/read"})
	checkAttrs(t, "resources/read metric", attrs(p.Attributes.ToSlice()), nil, "mcp.resource.uri")
}

// TestCancelledCall: a call the client cancels is recorded as cancelled
// on both sides, without a JSON-RPC code (no response is sent).
func TestCancelledCall(t *testing.T) {
	tl := newTelemetry(t)
	s := newServer(nil, tl.options()...)
	started := make(chan struct{})
	s.Tool("block", func(ctx *fastmcp.Context, _ struct{}) (string, error) {
		close(started)
		<-ctx.Done()
		return "", ctx.Err()
	})
	c := fastmcptest.NewClient(t, s, otel.Client(tl.options()...))
	ctx, cancel := context.WithCancel(ctxT(t))
	errc := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, "block", nil)
		errc <- err
	}()
	<-started
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("CallTool: %v, want context.Canceled", err)
	}
	cs := tl.span(t, "tools/call block", trace.SpanKindClient)
	checkAttrs(t, "client span", attrs(cs.Attributes), map[string]string{"error.type": "cancelled"}, "rpc.response.status_code")
	// The server's handler returns once it sees the cancellation; its
	// span ends then, after the client's call has returned.
	var ss tracetest.SpanStub
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if found := spansNamed(tl, "tools/call block", trace.SpanKindServer); len(found) == 1 {
			ss = found[0]
			break
		}
	}
	checkAttrs(t, "server span", attrs(ss.Attributes), map[string]string{"error.type": "cancelled"}, "rpc.response.status_code")
}

// spansNamed returns the ended spans named name of kind.
func spansNamed(tl *telemetry, name string, kind trace.SpanKind) []tracetest.SpanStub {
	var found []tracetest.SpanStub
	for _, s := range tl.spans.GetSpans() {
		if s.Name == name && s.SpanKind == kind {
			found = append(found, s)
		}
	}
	return found
}

// TestHTTPSpanIsLinked: when the HTTP request that carried a message has a
// span (HTTP middleware traced it), the server span continues the client's
// trace and links the HTTP span; from a client that propagates nothing,
// the server span is the HTTP span's child.
func TestHTTPSpanIsLinked(t *testing.T) {
	for _, traced := range []bool{true, false} {
		t.Run(map[bool]string{true: "traced client", false: "untraced client"}[traced], func(t *testing.T) {
			testHTTPSpanIsLinked(t, traced)
		})
	}
}

func testHTTPSpanIsLinked(t *testing.T, traced bool) {
	tl := newTelemetry(t)
	s := newServer(nil, tl.options()...)
	httpTracer := tl.tp.Tracer("http")
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, span := httpTracer.Start(r.Context(), "HTTP "+r.Method, trace.WithSpanKind(trace.SpanKindServer))
		defer span.End()
		s.ServeHTTP(w, r.WithContext(ctx))
	}))
	t.Cleanup(func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		s.Shutdown(ctx)
		ts.Close()
	})
	opts := []client.Option{client.WithLogger(quiet), client.WithProtocolVersion(fastmcptest.Legacy)}
	if traced {
		opts = append(opts, otel.Client(tl.options()...))
	}
	c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.CallTool(ctxT(t), "echo", EchoArgs{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	ss := tl.span(t, "tools/call echo", trace.SpanKindServer)
	if !traced {
		var parent bool
		for _, sp := range tl.spans.GetSpans() {
			if sp.Name == "HTTP POST" && sp.SpanContext.SpanID() == ss.Parent.SpanID() && sp.SpanContext.TraceID() == ss.SpanContext.TraceID() {
				parent = true
			}
		}
		if !parent || len(ss.Links) != 0 {
			t.Errorf("server span: parent %s, %d links; want an HTTP POST span as its parent, no link", ss.Parent.SpanID(), len(ss.Links))
		}
		return
	}
	cs := tl.span(t, "tools/call echo", trace.SpanKindClient)
	if ss.Parent.SpanID() != cs.SpanContext.SpanID() {
		t.Errorf("server span's parent %s, want the client span %s", ss.Parent.SpanID(), cs.SpanContext.SpanID())
	}
	if len(ss.Links) != 1 {
		t.Fatalf("server span has %d links, want 1 (the HTTP span)", len(ss.Links))
	}
	var httpSpan bool
	for _, sp := range tl.spans.GetSpans() {
		if sp.Name == "HTTP POST" && sp.SpanContext.Equal(ss.Links[0].SpanContext) {
			httpSpan = true
		}
	}
	if !httpSpan {
		t.Errorf("the server span's link %v is no HTTP POST span; spans: %v", ss.Links[0].SpanContext, spanNames(tl.spans.GetSpans()))
	}
}
