// Command calc is the README's first program: one tool, add, served over
// stdio. An MCP host starts it; from a terminal, with the fastmcp CLI
// (cmd/fastmcp), try
//
//	fastmcp call add a=2 b=3 -- go run ./examples/calc
package main

import (
	"context"
	"log"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

type AddArgs struct {
	A int `json:"a" jsonschema:"description=first addend"`
	B int `json:"b" jsonschema:"description=second addend" validate:"gte=0"`
}

func add(ctx *fastmcp.Context, in AddArgs) (int, error) {
	ctx.Info("adding", "a", in.A, "b", in.B) // a log message to the client
	return in.A + in.B, nil
}

func main() {
	s := fastmcp.New("calc", "1.0.0")
	s.Tool("add", add, fastmcp.Description("Add two integers"))
	if err := s.ServeStdio(context.Background()); err != nil {
		log.Fatal(err)
	}
}
