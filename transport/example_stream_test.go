package transport_test

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

func ExampleNewStream() {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" +
		"\n" + // blank lines are skipped
		`{"jsonrpc":"2.0","id":2,"method":` + "\n" + // a bad line does not end the stream
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	var out strings.Builder
	s := transport.NewStream(in, &out, nil)
	ctx := context.Background()
	for {
		msg, err := s.Read(ctx)
		if err == io.EOF {
			break
		}
		if de, ok := err.(*protocol.DecodeError); ok {
			s.Write(ctx, de.Response())
			continue
		}
		req := msg.(*protocol.Request)
		fmt.Println("read", req.Method, req.IsCall())
		if req.IsCall() {
			s.Write(ctx, &protocol.Response{ID: req.ID, Result: []byte(`{}`)})
		}
	}
	s.Flush() // writes held back while input was buffered, now written
	fmt.Print(out.String())
	// Output:
	// read ping true
	// read notifications/initialized false
	// {"jsonrpc":"2.0","id":1,"result":{}}
	// {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: invalid JSON"}}
}
