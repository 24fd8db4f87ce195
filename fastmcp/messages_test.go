package fastmcp_test

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

type msgArgs struct {
	Qty int `json:"qty" validate:"gte=1"`
}

// TestArgumentMessagesAgree: arguments refused by validation read the same
// for a tool, a prompt and a resource template: "invalid arguments for
// <kind> <name>: <path>: <message>", with no rule named in the message.
func TestArgumentMessagesAgree(t *testing.T) {
	s := newServer()
	s.Tool("order", func(ctx *fastmcp.Context, in msgArgs) (string, error) { return "ok", nil })
	s.Prompt("order", func(ctx *fastmcp.Context, in msgArgs) (string, error) { return "ok", nil })
	s.Resource("orders://{qty}", func(ctx *fastmcp.Context, in msgArgs) (string, error) { return "ok", nil })
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		c := connect(t, s, era)
		ctx := ctxT(t)
		res, err := c.CallTool(ctx, "order", map[string]any{"qty": 0})
		if err != nil {
			t.Fatal(err)
		}
		var tool string
		if len(res.Content) == 1 {
			if tc, ok := res.Content[0].(*protocol.TextContent); ok {
				tool = tc.Text
			}
		}
		_, err = c.GetPrompt(ctx, "order", map[string]string{"qty": "0"})
		prompt := wireError(t, err)
		_, err = c.ReadResource(ctx, "orders://0")
		resource := wireError(t, err)
		for _, tc := range []struct{ got, want string }{
			{tool, "invalid arguments for tool order: qty: must be >= 1"},
			{prompt.Message, "invalid arguments for prompt order: qty: must be >= 1"},
			{resource.Message, "invalid arguments for resource orders://0: qty: must be >= 1"},
		} {
			if tc.got != tc.want {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
		}
		if prompt.Code != protocol.CodeInvalidParams || resource.Code != protocol.CodeInvalidParams {
			t.Errorf("codes %d, %d, want %d", prompt.Code, resource.Code, protocol.CodeInvalidParams)
		}
	})
}
