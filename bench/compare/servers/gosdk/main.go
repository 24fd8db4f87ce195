// Command gosdk is the github.com/modelcontextprotocol/go-sdk server of the
// comparison, written the way its README and examples teach: mcp.AddTool
// with typed input and output (the output is the structured content, and
// its JSON the text content), run over StdioTransport or served by
// NewStreamableHTTPHandler at every path, with default options.
package main

import (
	"context"
	"errors"
	"log"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fastmcp-go/fastmcp/bench/compare/internal/args"
	"github.com/fastmcp-go/fastmcp/bench/compare/internal/gosdktools"
)

// AddArgs are the arguments of add. The SDK validates them against the
// schema it infers (types, required); jsonschema-go tags carry only a
// description, so b >= 0 is checked in the handler.
type AddArgs struct {
	A int `json:"a" jsonschema:"first addend"`
	B int `json:"b" jsonschema:"second addend, at least 0"`
}

// Sum is the structured result of add.
type Sum struct {
	Result int `json:"result"`
}

func add(ctx context.Context, req *mcp.CallToolRequest, in AddArgs) (*mcp.CallToolResult, Sum, error) {
	if in.B < 0 {
		return nil, Sum{}, errors.New("b must be at least 0")
	}
	return nil, Sum{Result: in.A + in.B}, nil
}

func main() {
	cfg := args.Parse()
	s := mcp.NewServer(&mcp.Implementation{Name: "calc", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Add two integers"}, add)
	if cfg.Tools100 {
		gosdktools.Register(s)
	}
	if cfg.HTTP != "" {
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
		log.Fatal(http.ListenAndServe(cfg.HTTP, h))
	}
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
