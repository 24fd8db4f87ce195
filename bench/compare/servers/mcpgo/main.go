// Command mcpgo is the github.com/mark3labs/mcp-go server of the
// comparison, written the way its README and examples teach: a tool whose
// input schema is inferred from a struct (WithInputSchema) and a
// structured handler (NewStructuredToolHandler: the result as structured
// content and its JSON as text), served with ServeStdio or a
// StreamableHTTPServer (path /mcp), with default options.
package main

import (
	"context"
	"errors"
	"log"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/fastmcp-go/fastmcp/bench/compare/internal/args"
	"github.com/fastmcp-go/fastmcp/bench/compare/internal/mcpgotools"
)

// AddArgs are the arguments of add. mcp-go does not validate arguments
// against the schema by default, so b >= 0 is checked in the handler.
type AddArgs struct {
	A int `json:"a" jsonschema:"first addend"`
	B int `json:"b" jsonschema:"second addend, at least 0"`
}

// Sum is the structured result of add.
type Sum struct {
	Result int `json:"result"`
}

func add(ctx context.Context, req mcp.CallToolRequest, in AddArgs) (Sum, error) {
	if in.B < 0 {
		return Sum{}, errors.New("b must be at least 0")
	}
	return Sum{Result: in.A + in.B}, nil
}

func main() {
	cfg := args.Parse()
	s := server.NewMCPServer("calc", "1.0.0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("add",
		mcp.WithDescription("Add two integers"),
		mcp.WithInputSchema[AddArgs](),
	), mcp.NewStructuredToolHandler(add))
	if cfg.Tools100 {
		mcpgotools.Register(s)
	}
	if cfg.HTTP != "" {
		log.Fatal(server.NewStreamableHTTPServer(s).Start(cfg.HTTP))
	}
	if err := server.ServeStdio(s); err != nil {
		log.Fatal(err)
	}
}
