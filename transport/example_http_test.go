package transport_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// A Streamable HTTP server and client: the handler serves each session in
// the lowlevel server, and the client session talks to it over HTTP.
func ExampleNewStreamableHandler() {
	srv := lowlevel.NewServer(protocol.Implementation{Name: "adder", Version: "1"}, &lowlevel.Options{Logger: slog.New(slog.DiscardHandler)})
	srv.HandleFunc("add", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		var p struct {
			A int `json:"a"`
			B int `json:"b"`
		}
		if err := protocol.Unmarshal(req.Params, &p); err != nil {
			return nil, err
		}
		return map[string]int{"sum": p.A + p.B}, nil
	})
	handler := transport.NewStreamableHandler(srv.Connect, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	ts := httptest.NewServer(mux) // listens on 127.0.0.1
	defer ts.Close()
	defer handler.Close()

	conn := transport.NewStreamableClient(ts.URL+"/mcp", nil)
	cli := session.New(conn, session.Options{Role: session.RoleClient, Logger: slog.New(slog.DiscardHandler)})
	defer cli.Close()
	ctx := context.Background()
	res, err := cli.Initialize(ctx, &protocol.InitializeParams{
		ProtocolVersion: protocol.LatestLegacyVersion,
		ClientInfo:      protocol.Implementation{Name: "example", Version: "1"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var sum struct {
		Sum int `json:"sum"`
	}
	if err := cli.Call(ctx, "add", map[string]int{"a": 2, "b": 3}, &sum); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.ServerInfo.Name, res.ProtocolVersion, conn.SessionID() != "", sum.Sum)
	// Output: adder 2025-11-25 true 5
}
