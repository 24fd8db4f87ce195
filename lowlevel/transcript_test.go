package lowlevel_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/internal/transcript"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

var update = flag.Bool("update", false, "rewrite the server lines of the golden transcripts in testdata/transcripts")

// TestTranscripts replays the wire transcripts in testdata/transcripts
// (see fastmcptest.Replay for their format) against a
// lowlevel.Server served over a newline-delimited stream, as a stdio server
// is. Run with -update to rewrite the server lines from what the server now
// sends.
func TestTranscripts(t *testing.T) {
	t.Parallel()
	fastmcptest.ReplayDir(t, filepath.Join("testdata", "transcripts"), func(ctx context.Context, conn transport.Conn) error {
		return transcriptServer().ServeConn(ctx, conn)
	}, transcript.Options(t, resultDefs, *update))
}

// transcriptServer is the server every transcript talks to: it declares
// tools and logging, lists one tool and can call it.
func transcriptServer() *lowlevel.Server {
	srv := lowlevel.NewServer(protocol.Implementation{Name: "transcript", Version: "1.0.0"}, &lowlevel.Options{
		Instructions: "Adds integers.",
		Logger:       slog.New(slog.DiscardHandler),
	})
	srv.SetCapabilities(protocol.ServerCapabilities{Tools: &protocol.ToolsCapability{}, Logging: &protocol.Capability{}})
	srv.HandleFunc(protocol.MethodToolsList, func(ctx context.Context, req *lowlevel.Request) (any, error) {
		return &protocol.ListToolsResult{Tools: []*protocol.Tool{{
			Name:        "add",
			Description: "Add two integers",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}`),
		}}}, nil
	})
	srv.HandleFunc(protocol.MethodToolsCall, func(ctx context.Context, req *lowlevel.Request) (any, error) {
		var p protocol.CallToolParams
		if err := protocol.Unmarshal(req.Params, &p); err != nil {
			return nil, fmt.Errorf("%w: %v", protocol.ErrInvalidParams, err)
		}
		if p.Name != "add" {
			return nil, fmt.Errorf("%w: unknown tool %q", protocol.ErrInvalidParams, p.Name)
		}
		var args struct {
			A int `json:"a"`
			B int `json:"b"`
		}
		if err := protocol.Unmarshal(p.Arguments, &args); err != nil {
			return &protocol.CallToolResult{IsError: true, Content: []protocol.Content{&protocol.TextContent{Text: "bad arguments: " + err.Error()}}}, nil
		}
		return &protocol.CallToolResult{Content: []protocol.Content{&protocol.TextContent{Text: strconv.Itoa(args.A + args.B)}}}, nil
	})
	return srv
}

// resultDefs names the schema definition of each method's result.
var resultDefs = map[string]string{
	protocol.MethodInitialize:      "InitializeResult",
	protocol.MethodPing:            "EmptyResult",
	protocol.MethodLoggingSetLevel: "EmptyResult",
	protocol.MethodToolsList:       "ListToolsResult",
	protocol.MethodToolsCall:       "CallToolResult",
	protocol.MethodServerDiscover:  "DiscoverResult",
}
