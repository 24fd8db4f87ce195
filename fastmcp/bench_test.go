package fastmcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/lowlevel"
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
	benchHandler(b, s.Lowlevel().Handler(), args, want)
}

// benchHandler measures h serving tools/call of add with args, checking
// the first answer's result against want.
func benchHandler(b *testing.B, h session.Handler, args string, want string) {
	params := json.RawMessage(`{"name":"add","arguments":` + args + `}`)
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
//
// raw is the same tools/call served by a hand-written low-level handler
// (decode the params, check the tool name and the arguments' presence and
// rule, add, build the result); int, the same call through the high-level
// path, reports x-raw: its time over raw's (the aim is at most 2).
func BenchmarkCallTool(b *testing.B) {
	const args = `{"a":2,"b":3}`
	const intResult = `{"content":[{"type":"text","text":"5"}],"structuredContent":{"result":5}}`
	var rawNs float64
	b.Run("raw", func(b *testing.B) {
		benchHandler(b, rawAddServer().Handler(), args, intResult)
		rawNs = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})
	b.Run("int", func(b *testing.B) {
		benchCall(b, func(ctx *fastmcp.Context, in benchAddArgs) (int, error) { return in.A + in.B, nil }, args, intResult)
		if rawNs > 0 {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/rawNs, "x-raw")
		}
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
			`{"content":[{"type":"text","text":"invalid arguments for tool add: b: must be >= 0"}],"isError":true}`)
	})
}

// rawAddServer serves tools/call of add with a hand-written low-level
// handler doing the work the high-level path does for it.
func rawAddServer() *lowlevel.Server {
	srv := lowlevel.NewServer(protocol.Implementation{Name: "raw", Version: "1"}, &lowlevel.Options{Logger: quietLogger})
	srv.HandleFunc(protocol.MethodToolsCall, func(ctx context.Context, req *lowlevel.Request) (any, error) {
		var p struct {
			Name      string `json:"name"`
			Arguments struct {
				A *int `json:"a"`
				B *int `json:"b"`
			} `json:"arguments"`
		}
		if err := protocol.Unmarshal(req.Params, &p); err != nil {
			return nil, fmt.Errorf("%w: %v", protocol.ErrInvalidParams, err)
		}
		if p.Name != "add" {
			return nil, fmt.Errorf("%w: unknown tool %q", protocol.ErrInvalidParams, p.Name)
		}
		a, bb := p.Arguments.A, p.Arguments.B
		if a == nil || bb == nil || *bb < 0 {
			return &protocol.CallToolResult{IsError: true, Content: []protocol.Content{&protocol.TextContent{Text: "invalid arguments"}}}, nil
		}
		sum := strconv.Itoa(*a + *bb)
		return &protocol.CallToolResult{
			Content:           []protocol.Content{&protocol.TextContent{Text: sum}},
			StructuredContent: json.RawMessage(`{"result":` + sum + `}`),
		}, nil
	})
	return srv
}
