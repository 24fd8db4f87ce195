package protocol_test

import (
	"errors"
	"fmt"

	"github.com/fastmcp-go/fastmcp/protocol"
)

func ExampleDecodeMessage() {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1.0,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":7,"Method":"tools/list"}`, // case-sensitive
		`{"jsonrpc":"2.0",`,
	} {
		msg, err := protocol.DecodeMessage([]byte(line))
		if err != nil {
			var de *protocol.DecodeError
			errors.As(err, &de)
			out, _ := protocol.EncodeMessage(de.Response())
			fmt.Println(string(out))
			continue
		}
		req := msg.(*protocol.Request)
		fmt.Printf("request %s id %s\n", req.Method, req.ID.Raw())
	}
	// Output:
	// request tools/list id 1.0
	// {"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request: missing \"method\" member"}}
	// {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: invalid JSON"}}
}

func ExampleError() {
	err := fmt.Errorf("%w: unknown tool %q", protocol.ErrInvalidParams, "nope")
	fmt.Println(errors.Is(err, protocol.ErrInvalidParams))
	wire := protocol.ToWire(err)
	fmt.Println(wire.Code, wire.Message)
	// Output:
	// true
	// -32602 Invalid params: unknown tool "nope"
}
