package otel_test

import (
	"context"
	"log/slog"
	"os"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
)

import mcpotel "github.com/fastmcp-go/fastmcp/otel"

// TestDocSnippets: the snippets of docs/telemetry.md are this file's.
func TestDocSnippets(t *testing.T) {
	t.Parallel()
	docsnippets.Check(t, []string{"../docs/telemetry.md"}, []string{"docs_test.go"})
}

var _ = docTelemetry

// docTelemetry is docs/telemetry.md's example; compiled, not run (it
// connects to a remote server). The tests beside it run the same calls.
func docTelemetry(ctx context.Context) (*fastmcp.Server, *client.Client, error) {
	// A server: a span and a duration per request and notification it handles.
	s := fastmcp.New("weather", "1.0.0",
		fastmcp.Logger(slog.New(mcpotel.LogHandler(slog.NewJSONHandler(os.Stderr, nil)))))
	s.Lowlevel().Use(mcpotel.Server()) // first, so that it sees what other middleware refuses

	// A client: a span and a duration per request it sends, its trace context in params._meta.
	c, err := client.ConnectHTTP(ctx, "https://mcp.example.com/mcp", mcpotel.Client())
	return s, c, err
}
