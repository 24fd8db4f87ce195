package fastmcp_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
)

// The server's share of a tools/call, without a transport or a session
// engine: the request goes through the method table (lowlevel middleware
// chain, tools/call handler: params, arguments bound and validated, the
// handler called, its result converted) and the response is encoded as the
// stdio transport encodes it. The end-to-end numbers, beside a
// hand-written floor, are in package bench.

type benchAddArgs struct {
	A int `json:"a" jsonschema:"description=first addend"`
	B int `json:"b" jsonschema:"description=second addend" validate:"gte=0"`
}

type benchSum struct {
	Sum int `json:"sum"`
}

func benchCall(b *testing.B, fn any, args string, want string) {
	s := newServer()
	s.Tool("add", fn)
	h := s.Lowlevel().Handler()
	params := jsontext.Value(`{"name":"add","arguments":` + args + `}`)
	ctx := context.Background()
	var out []byte
	call := func(id int64) {
		req := &session.Request{ID: protocol.Int64ID(id), Method: protocol.MethodToolsCall, Params: params}
		res, err := h.Handle(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		raw, err := session.EncodeResult(res)
		if err != nil {
			b.Fatal(err)
		}
		if out, err = protocol.AppendMessage(out[:0], &protocol.Response{ID: req.ID, Result: raw}); err != nil {
			b.Fatal(err)
		}
	}
	call(1)
	if got := string(out); got != `{"jsonrpc":"2.0","id":1,"result":`+want+`}` {
		b.Fatalf("answer %s, want result %s", got, want)
	}
	b.ReportAllocs()
	id := int64(1)
	for b.Loop() {
		id++
		call(id)
	}
}

// BenchmarkCallTool measures the server's share of a tools/call for the
// common handler and result shapes.
func BenchmarkCallTool(b *testing.B) {
	const args = `{"a":2,"b":3}`
	b.Run("int", func(b *testing.B) {
		benchCall(b, func(ctx *fastmcp.Context, in benchAddArgs) (int, error) { return in.A + in.B, nil }, args,
			`{"content":[{"type":"text","text":"5"}],"structuredContent":{"result":5}}`)
	})
	b.Run("struct", func(b *testing.B) {
		benchCall(b, func(ctx context.Context, in benchAddArgs) (benchSum, error) { return benchSum{in.A + in.B}, nil }, args,
			`{"content":[{"type":"text","text":"{\"sum\":5}"}],"structuredContent":{"sum":5}}`)
	})
	b.Run("string", func(b *testing.B) {
		benchCall(b, func(in benchAddArgs) (string, error) { return strconv.Itoa(in.A + in.B), nil }, args,
			`{"content":[{"type":"text","text":"5"}]}`)
	})
	b.Run("invalid", func(b *testing.B) {
		benchCall(b, func(in benchAddArgs) (int, error) { return in.A + in.B, nil }, `{"a":2,"b":-3}`,
			`{"content":[{"type":"text","text":"invalid arguments for tool add: b: must be >= 0 (rule gte=0)"}],"isError":true}`)
	})
}
