package client_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// A client middleware that tags every tools/call with a _meta entry and
// reports each request's outcome.
func ExampleWithMiddleware() {
	s := fastmcp.New("app", "1.0.0")
	s.Tool("whoami", func(ctx *fastmcp.Context, _ struct{}) (string, error) {
		return "caller " + string(ctx.Request().Meta.Other["com.example/caller"]), nil
	})

	report := func(next client.SendFunc) client.SendFunc {
		return func(ctx context.Context, req *client.OutgoingRequest) (json.RawMessage, error) {
			if req.Method == protocol.MethodToolsCall {
				p, err := protocol.SetMeta(req.Params, "com.example/caller", "alice")
				if err != nil {
					return nil, err
				}
				req.Params = p
			}
			res, err := next(ctx, req)
			fmt.Printf("%s: error %v\n", req.Method, err)
			return res, err
		}
	}
	c, stop := serveInMemory(s, client.WithProtocolVersion(protocol.LatestLegacyVersion), client.WithMiddleware(report))
	defer stop()

	res, err := c.CallTool(context.Background(), "whoami", nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Content[0].(*fastmcp.TextContent).Text)
	// Output:
	// initialize: error <nil>
	// tools/call: error <nil>
	// caller "alice"
}
