package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestMain lets the test binary play the backend ("backend": a server
// over stdio) and the program itself ("proxy ARGS").
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "backend":
			if err := backend().ServeStdio(context.Background()); err != nil {
				os.Exit(1)
			}
			os.Exit(0)
		case "proxy":
			os.Args = append(os.Args[:1], os.Args[2:]...)
			main()
			os.Exit(0)
		}
	}
	goleak.VerifyTestMain(m)
}

var quiet = slog.New(slog.DiscardHandler)

// backend is the server behind the proxy: a tool that asks the user.
func backend() *fastmcp.Server {
	s := fastmcp.New("backend", "1.0.0", fastmcp.Logger(quiet))
	s.Tool("greet", func(ctx *fastmcp.Context) (string, error) {
		var in struct {
			Name string `json:"name"`
		}
		if _, err := ctx.Elicit("Your name?", &in); err != nil {
			return "", err
		}
		ctx.Info("greeting")
		return "Hello, " + in.Name, nil
	}, fastmcp.Description("greets whoever answers"))
	return s
}

// check calls greet through the proxy, answering its elicitation.
func check(t *testing.T, connect func(opts ...client.Option) (*client.Client, error)) {
	t.Helper()
	for _, v := range []string{protocol.Version20251125, protocol.Version20260728} {
		c, err := connect(client.WithProtocolVersion(v), client.WithLogger(quiet),
			client.WithElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
				return &client.ElicitResult{Action: "accept", Content: json.RawMessage(`{"name":"Ada"}`)}, nil
			}))
		if err != nil {
			t.Fatalf("%s: connecting to the proxy: %v", v, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		res, err := c.CallTool(ctx, "greet", nil)
		cancel()
		c.Close()
		if err != nil || res.IsError || res.Text() != "Hello, Ada" {
			t.Errorf("%s: greet = %+v, %v", v, res, err)
		}
	}
}

// TestStdioServerOverHTTP: "-addr" serves a stdio backend (a subprocess)
// over Streamable HTTP on a real socket.
func TestStdioServerOverHTTP(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, quiet, ln, "", []string{self, "backend"}) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	}()
	check(t, func(opts ...client.Option) (*client.Client, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return client.ConnectHTTP(ctx, "http://"+ln.Addr().String()+"/mcp", opts...)
	})
}

// TestHTTPServerOverStdio: "-url" serves an HTTP backend over stdio: the
// program is started as a host starts a stdio server.
func TestHTTPServerOverStdio(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ts := fastmcptest.NewHTTPServer(t, backend())
	check(t, func(opts ...client.Option) (*client.Client, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return client.ConnectCommand(ctx, &transport.Command{
			Path: self, Args: []string{"proxy", "-url", ts.URL + "/mcp"},
			Env: []string{"GORACE=atexit_sleep_ms=0"},
		}, opts...)
	})
}

// TestNoBackend: without -url or a command the program says what to give.
func TestNoBackend(t *testing.T) {
	err := run(context.Background(), quiet, nil, "", nil)
	if err == nil || err.Error() != "no backend: give -url URL or -- CMD ARGS (see -h)" {
		t.Errorf("run = %v", err)
	}
}
