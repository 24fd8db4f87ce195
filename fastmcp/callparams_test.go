package fastmcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestCallParamsAcrossTransports checks that tools/call answers the same
// whether its params come from a stream (decoded from bytes) or from an
// in-memory pipe (passed as they are), for params of every shape.
func TestCallParamsAcrossTransports(t *testing.T) {
	t.Parallel()
	newServer := func() *fastmcp.Server {
		s := fastmcp.New("t", "1", fastmcp.Logger(slog.New(slog.DiscardHandler)))
		s.Tool("add", func(in struct {
			A int `json:"a"`
			B int `json:"b" validate:"gte=0"`
		}) (int, error) {
			return in.A + in.B, nil
		})
		return s
	}
	params := []string{
		`{"name":"add","arguments":{"a":1,"b":2}}`,
		`{ "arguments" : {"a" : 3, "b":4} , "name" : "add", "_meta": {"progressToken": 1}}`,
		`{"name":"add","arguments":null}`,
		`{"name":"add"}`,
		`{"name":"a\u0064d","arguments":{"a":1,"b":1}}`,
		`{"n\u0061me":"add","arguments":{"a":1,"b":1}}`,
		`{"name":"add","arguments":{"a":1,"b":-1}}`,
		`{"name":"add","arguments":{"a":1,"A":2,"b":0}}`,
		`{"Name":"add","arguments":{"a":1,"b":1}}`,
		`{"name":"other","arguments":{}}`,
		`{"name":"add","requestState":"x","arguments":{"a":1,"b":1}}`,
		`{"name":"add","inputResponses":{},"arguments":{"a":1,"b":1}}`,
		`{"name":"add","arguments":"x"}`,
		`{"name":"add","arguments":[1]}`,
		`{"name":1}`,
		`{"arguments":{"a":1,"b":1}}`,
		`{"name":"add","arguments":{"a":1,"b":1},"x":1,"y":2,"z":3,"w":4,"v":5}`,
		`{}`,
		`[1]`,
	}

	// Over a stream: the lines as written.
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- newServer().Serve(ctx, transport.NewStream(inR, outW, nil)) }()
	lines := bufio.NewReader(outR)
	exchange := func(line string) protocol.Message {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		b, err := lines.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		m, err := protocol.DecodeMessage(b)
		if err != nil {
			t.Fatalf("answer %q: %v", b, err)
		}
		return m
	}
	exchange(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		t.Fatal(err)
	}

	// In memory: the same params, sent as they are.
	cc, sc := transport.NewPipe()
	memServed := make(chan struct{})
	go func() {
		defer close(memServed)
		_ = newServer().Serve(ctx, sc)
	}()
	cli := session.New(cc, session.Options{Role: session.RoleClient, Logger: slog.New(slog.DiscardHandler)})
	defer func() {
		cli.Close()
		<-memServed
	}()
	if _, err := cli.Initialize(ctx, &protocol.InitializeParams{ProtocolVersion: protocol.LatestLegacyVersion}); err != nil {
		t.Fatal(err)
	}

	for i, p := range params {
		m := exchange(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"tools/call","params":` + p + `}`)
		resp, ok := m.(*protocol.Response)
		if !ok {
			t.Fatalf("params %s: answer %#v", p, m)
		}
		var res json.RawMessage
		err := cli.Call(ctx, protocol.MethodToolsCall, json.RawMessage(p), &res)
		var perr *protocol.Error
		switch {
		case resp.Error != nil && errors.As(err, &perr):
			if perr.Code != resp.Error.Code || perr.Message != resp.Error.Message {
				t.Errorf("params %s: stream error %d %q, in memory %d %q", p, resp.Error.Code, resp.Error.Message, perr.Code, perr.Message)
			}
		case resp.Error == nil && err == nil:
			if string(resp.Result) != string(res) {
				t.Errorf("params %s: stream result %s, in memory %s", p, resp.Result, res)
			}
		default:
			t.Errorf("params %s: stream answered %#v, in memory %v %s", p, resp, err, res)
		}
	}
	inW.Close()
	if err := <-served; err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	outR.Close()
}
