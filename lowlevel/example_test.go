package lowlevel_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// A complete MCP server from raw handlers: one tool, listed and called.
func Example() {
	srv := lowlevel.NewServer(protocol.Implementation{Name: "raw", Version: "1.0.0"},
		&lowlevel.Options{Logger: slog.New(slog.DiscardHandler)})
	srv.SetCapabilities(protocol.ServerCapabilities{Tools: &protocol.ToolsCapability{}})
	srv.HandleFunc(protocol.MethodToolsList, func(ctx context.Context, req *lowlevel.Request) (any, error) {
		return &protocol.ListToolsResult{Tools: []*protocol.Tool{{
			Name:        "shout",
			Description: "Upper-cases its text",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		}}}, nil
	})
	srv.HandleFunc(protocol.MethodToolsCall, func(ctx context.Context, req *lowlevel.Request) (any, error) {
		var p struct {
			Name      string `json:"name"`
			Arguments struct {
				Text string `json:"text"`
			} `json:"arguments"`
		}
		if err := protocol.Unmarshal(req.Params, &p); err != nil || p.Name != "shout" {
			return nil, fmt.Errorf("%w: expected a call of shout", protocol.ErrInvalidParams)
		}
		return &protocol.CallToolResult{Content: protocol.ContentList{&protocol.TextContent{Text: upper(p.Arguments.Text)}}}, nil
	})
	// Middleware sees every request; the first registered runs outermost.
	srv.Use(func(next lowlevel.Handler) lowlevel.Handler {
		return lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
			if req.Method == protocol.MethodToolsCall {
				fmt.Println("middleware saw", req.Method)
			}
			return next.Handle(ctx, req)
		})
	})

	clientEnd, serverEnd := transport.NewPipe()
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.ServeConn(ctx, serverEnd); close(done) }()
	defer func() { stop(); <-done }()

	client := session.New(clientEnd, session.Options{Role: session.RoleClient, Logger: srv.Logger()})
	defer client.Close()
	client.Initialize(ctx, &protocol.InitializeParams{ProtocolVersion: protocol.LatestLegacyVersion})
	var list protocol.ListToolsResult
	client.Call(ctx, protocol.MethodToolsList, nil, &list)
	fmt.Println("tool:", list.Tools[0].Name)
	var res protocol.CallToolResult
	client.Call(ctx, protocol.MethodToolsCall, map[string]any{"name": "shout", "arguments": map[string]string{"text": "hello"}}, &res)
	fmt.Println("result:", res.Content[0].(*protocol.TextContent).Text)
	// Output:
	// tool: shout
	// middleware saw tools/call
	// result: HELLO
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
