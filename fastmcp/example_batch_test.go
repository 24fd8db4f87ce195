package fastmcp_test

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

func ExampleClient_Batch() {
	s := fastmcp.New("calc", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("add", func(in ExampleAddArgs) int { return in.A + in.B }, fastmcp.Description("Add two integers"))
	c, stop := serveInMemory(s, client.WithProtocolVersion(protocol.Version20250326))
	defer stop()
	ctx := context.Background()

	var sum protocol.CallToolResult
	calls := []*client.BatchCall{
		{Method: "tools/call", Params: map[string]any{"name": "add", "arguments": map[string]int{"a": 1, "b": 2}}, Result: &sum},
		{Method: "no/such/method"},
		{Method: "notifications/roots/list_changed", Notification: true},
	}
	if err := c.Batch(ctx, calls...); err != nil { // the batch as a whole failed
		fmt.Println(err)
		return
	}
	fmt.Println("sum:", string(sum.StructuredContent))
	fmt.Println("no/such/method:", calls[1].Err) // that call's own error
	// Output:
	// sum: {"result":3}
	// no/such/method: Method not found: no/such/method
}
