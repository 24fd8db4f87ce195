package session_test

import (
	"context"
	"fmt"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

func Example() {
	clientEnd, serverEnd := transport.NewPipe()
	server := session.New(serverEnd, session.Options{
		Role:   session.RoleServer,
		Logger: quiet,
		Handler: session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
			switch req.Method {
			case protocol.MethodInitialize:
				return &protocol.InitializeResult{ProtocolVersion: req.Version, ServerInfo: protocol.Implementation{Name: "echo", Version: "1"}}, nil
			case "echo":
				return req.Params, nil
			}
			return nil, fmt.Errorf("%w: %s", protocol.ErrMethodNotFound, req.Method)
		}),
	})
	defer server.Close()
	client := session.New(clientEnd, session.Options{Role: session.RoleClient, Logger: quiet})
	defer client.Close()

	ctx := context.Background()
	res, _ := client.Initialize(ctx, &protocol.InitializeParams{ProtocolVersion: "2025-06-18"})
	fmt.Println("negotiated", res.ProtocolVersion, "with", res.ServerInfo.Name)

	var out map[string]string
	client.Call(ctx, "echo", map[string]string{"hello": "world"}, &out)
	fmt.Println(out["hello"])

	err := client.Call(ctx, "nope", nil, nil)
	fmt.Println(err)
	// Output:
	// negotiated 2025-06-18 with echo
	// world
	// Method not found: nope
}
