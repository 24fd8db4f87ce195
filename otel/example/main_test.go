package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/internal/exampletest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// span is what the test reads of a span the stdout exporter printed.
type span struct {
	Name        string
	SpanKind    int
	SpanContext struct{ TraceID, SpanID string }
	Parent      struct {
		TraceID, SpanID string
		Remote          bool
	}
}

// TestRun: the demo prints the spans of one trace: the host's span, the
// client's tools/call span under it, the server's under that (continued
// from the request's _meta), and the tool's own span under the server's;
// the tool's log record carries the server span's ids.
func TestRun(t *testing.T) {
	text := exampletest.Run(t, run)
	spans := map[string]span{}
	var obj strings.Builder
	for line := range strings.Lines(text) {
		switch {
		case line == "{\n":
			obj.Reset()
			obj.WriteString(line)
		case line == "}\n":
			obj.WriteString(line)
			var s span
			if err := json.Unmarshal([]byte(obj.String()), &s); err != nil {
				t.Fatalf("span %s: %v", obj.String(), err)
			}
			spans[s.Name+"/"+map[int]string{1: "internal", 2: "server", 3: "client"}[s.SpanKind]] = s
			obj.Reset()
		case obj.Len() > 0:
			obj.WriteString(line)
		}
	}
	host, client, server, tool := spans["plan a trip/internal"], spans["tools/call forecast/client"], spans["tools/call forecast/server"], spans["look up the forecast/internal"]
	for name, s := range map[string]span{"host": host, "client": client, "server": server, "tool": tool} {
		if s.SpanContext.TraceID == "" || s.SpanContext.TraceID != host.SpanContext.TraceID {
			t.Errorf("%s span %+v is not in the host's trace %s", name, s.SpanContext, host.SpanContext.TraceID)
		}
	}
	if client.Parent.SpanID != host.SpanContext.SpanID || server.Parent.SpanID != client.SpanContext.SpanID ||
		!server.Parent.Remote || tool.Parent.SpanID != server.SpanContext.SpanID {
		t.Errorf("parents: client %s (want %s), server %s remote %v (want %s), tool %s (want %s)",
			client.Parent.SpanID, host.SpanContext.SpanID, server.Parent.SpanID, server.Parent.Remote,
			client.SpanContext.SpanID, tool.Parent.SpanID, server.SpanContext.SpanID)
	}
	logLine := regexp.MustCompile(`(?m)^level=INFO msg=forecasting .* trace_id=(\w+) span_id=(\w+)$`).FindStringSubmatch(text)
	if logLine == nil || logLine[1] != server.SpanContext.TraceID || logLine[2] != server.SpanContext.SpanID {
		t.Errorf("the tool's log line %q does not carry the server span's ids %+v", logLine, server.SpanContext)
	}
	if !strings.Contains(text, "forecast: Sunny in Lisbon\n") {
		t.Errorf("no forecast in the output:\n%s", text)
	}
}
