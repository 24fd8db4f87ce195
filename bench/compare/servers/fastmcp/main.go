// Command fastmcp is the fastmcp server of the comparison, written the way
// the fastmcp README teaches: a typed tool whose validate tag is enforced
// by the SDK, served with ServeStdio or ListenAndServe (path /mcp).
package main

import (
	"context"
	"log"

	"github.com/fastmcp-go/fastmcp/bench/compare/internal/args"
	"github.com/fastmcp-go/fastmcp/bench/internal/tools100"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// AddArgs are the arguments of add.
type AddArgs struct {
	A int `json:"a" jsonschema:"description=first addend"`
	B int `json:"b" jsonschema:"description=second addend" validate:"gte=0"`
}

func add(ctx *fastmcp.Context, in AddArgs) (int, error) { return in.A + in.B, nil }

func main() {
	cfg := args.Parse()
	var opts []fastmcp.Option
	if cfg.HTTP != "" {
		opts = append(opts, fastmcp.Addr(cfg.HTTP))
	}
	s := fastmcp.New("calc", "1.0.0", opts...)
	s.Tool("add", add, fastmcp.Description("Add two integers"))
	if cfg.Tools100 {
		tools100.Register(s)
	}
	ctx := context.Background()
	var err error
	if cfg.HTTP != "" {
		err = s.Run(ctx)
	} else {
		err = s.ServeStdio(ctx)
	}
	if err != nil {
		log.Fatal(err)
	}
}
