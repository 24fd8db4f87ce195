// Command minimal is the smallest useful server: New, one Tool whose
// arguments carry validate tags, ServeStdio. TestMinimalServerLinks builds it
// and reads its symbol table to check which optional features it links.
package main

import (
	"context"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

type addArgs struct {
	A int `json:"a" validate:"gte=0"`
	B int `json:"b" validate:"gte=0,lte=100"`
}

func add(_ *fastmcp.Context, in addArgs) (int, error) { return in.A + in.B, nil }

func main() {
	s := fastmcp.New("minimal", "1.0.0")
	s.Tool("add", add)
	if err := s.ServeStdio(context.Background()); err != nil {
		panic(err)
	}
}
