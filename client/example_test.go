package client_test

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// serveInMemory serves s over an in-memory pipe and connects a client to it,
// for Examples, which have no *testing.T (a test uses fastmcptest.NewClient).
func serveInMemory(s *fastmcp.Server, opts ...client.Option) (*client.Client, func()) {
	cc, sc := transport.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.Serve(ctx, sc) }()
	c, err := client.Connect(context.Background(), cc, append(opts, client.WithLogger(slog.New(slog.DiscardHandler)))...)
	if err != nil {
		panic(err)
	}
	return c, func() { c.Close(); cancel(); <-done }
}

// A client connects to a server (here one in the same process, over an
// in-memory pipe; ConnectCommand starts one as a subprocess and
// ConnectHTTP reaches one over Streamable HTTP), lists its tools and calls
// one.
func Example() {
	s := fastmcp.New("calc", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("add", func(_ *fastmcp.Context, in struct{ A, B int }) (int, error) { return in.A + in.B, nil })

	cc, sc := transport.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { defer close(served); s.Serve(ctx, sc) }()
	defer func() { cancel(); <-served }()

	c, err := client.Connect(ctx, cc, client.WithInfo("calc-host", "1.0.0"))
	if err != nil {
		panic(err)
	}
	defer c.Close()
	fmt.Println("connected to", c.ServerInfo().Name, "era", c.Era())

	for t, err := range c.Tools(ctx) {
		if err != nil {
			panic(err)
		}
		fmt.Println("tool", t.Name)
	}
	res, err := c.CallTool(ctx, "add", map[string]int{"A": 2, "B": 3})
	if err != nil {
		panic(err)
	}
	fmt.Println("2 + 3 =", res.Content[0].(*protocol.TextContent).Text)
	// Output:
	// connected to calc era modern
	// tool add
	// 2 + 3 = 5
}
