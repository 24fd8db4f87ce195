package client_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// SearchArgs are the arguments of the search tool in Example_types.
type SearchArgs struct {
	Query string `json:"query"`
}

// A client program names what it touches with package client's aliases of
// the wire types (LogMessage, Progress, ToolResult, TextContent...), the
// log levels and the errors to match: it needs no protocol import.
func Example_types() {
	s := fastmcp.New("search", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("search", func(ctx *fastmcp.Context, in SearchArgs) (string, error) {
		ctx.Debug("not sent: below the client's level")
		ctx.Info("searching")
		if err := ctx.Progress(1, 2, "half way"); err != nil {
			return "", err
		}
		return "found " + in.Query, nil
	})
	opts := []client.Option{
		client.WithLogLevel(client.LevelInfo),
		client.WithLogHandler(func(m *client.LogMessage) { fmt.Printf("[%s] %s\n", m.Level, m.Data) }),
	}
	c, stop := serveInMemory(s, opts...) // as Connect, ConnectCommand or ConnectHTTP would, with opts
	defer stop()

	ctx := context.Background()

	res, err := c.CallTool(ctx, "search", map[string]string{"query": "mcp"},
		client.WithProgress(func(p *client.Progress) { fmt.Printf("%g/%g %s\n", p.Progress, p.Total, p.Message) }))
	if err != nil {
		panic(err)
	}
	if t, ok := res.Content[0].(*client.TextContent); ok {
		fmt.Println(t.Text)
	}

	_, err = c.CallTool(ctx, "no-such-tool", nil)
	if errors.Is(err, client.ErrInvalidParams) { // no such tool, or arguments that do not fit
		fmt.Println("refused:", err)
	}
	// Output:
	// [info] "searching"
	// 1/2 half way
	// found mcp
	// refused: Invalid params: unknown tool "no-such-tool"
}
