package fastmcp_test

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// serveInMemory serves s over an in-memory pipe and connects a client to it:
// the recipe of docs/testing.md, for Examples, which have no *testing.T (a
// test uses fastmcptest.NewClient).
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

type ExampleAddArgs struct {
	A int `json:"a" jsonschema:"description=first addend"`
	B int `json:"b" jsonschema:"description=second addend" validate:"gte=0"`
}

func Example() {
	s := fastmcp.New("calc", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("add", func(ctx *fastmcp.Context, in ExampleAddArgs) (int, error) {
		ctx.Info("adding")
		return in.A + in.B, nil
	}, fastmcp.Description("Add two integers"))

	c, stop := serveInMemory(s, client.WithLogHandler(func(m *protocol.LoggingMessageParams) {
		fmt.Printf("log: %s\n", m.Data)
	}))
	defer stop()
	ctx := context.Background()
	page, _ := c.ListTools(ctx, "")
	fmt.Printf("%s: %s\n", page.Tools[0].Name, page.Tools[0].InputSchema)

	res, _ := c.CallTool(ctx, "add", map[string]int{"a": 2, "b": 3})
	fmt.Println("result:", res.Text(), string(res.StructuredContent))

	res, _ = c.CallTool(ctx, "add", map[string]int{"a": 2, "b": -3})
	fmt.Println("isError:", res.IsError, res.Text())
	// Output:
	// add: {"type":"object","properties":{"a":{"type":"integer","description":"first addend"},"b":{"type":"integer","description":"second addend","minimum":0}},"required":["a","b"]}
	// log: "adding"
	// result: 5 {"result":5}
	// isError: true invalid arguments for tool add: b: must be >= 0
}

func ExampleContext_Elicit() {
	type Confirm struct {
		OK bool `json:"ok" jsonschema:"description=Go ahead?"`
	}
	s := fastmcp.New("deploy", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("deploy", func(ctx *fastmcp.Context) (string, error) {
		var c Confirm
		action, err := ctx.Elicit("Deploy to production?", &c)
		if err != nil {
			return "", err
		}
		if action != fastmcp.ElicitAccept || !c.OK {
			return "not deployed", nil
		}
		return "deployed", nil
	})
	c, stop := serveInMemory(s, client.WithElicitation(
		func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
			fmt.Println("asked:", req.Message)
			return client.AcceptElicitation(map[string]bool{"ok": true})
		}))
	defer stop()
	res, _ := c.CallTool(context.Background(), "deploy", nil)
	fmt.Println(res.Text())
	// Output:
	// asked: Deploy to production?
	// deployed
}
