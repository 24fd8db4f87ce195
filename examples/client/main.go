// Command client shows fastmcp's client against the two kinds of server a
// host meets: a local command it starts and talks to over stdio, and a
// remote server over Streamable HTTP. Run it with
//
//	go run ./examples/client
//
// For the stdio server it starts itself again with the argument "serve"; the
// HTTP server runs in the same process on 127.0.0.1 (a free port). The same
// code lists the tools and calls one on each, and prints:
//
//	stdio: connected to words 1.0.0
//	stdio: tool count: Count the words of a text
//	stdio: count → 3
//	http: connected to words 1.0.0
//	http: tool count: Count the words of a text
//	http: count → 3
package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// CountArgs are the arguments of the count tool.
type CountArgs struct {
	Text string `json:"text" jsonschema:"description=the text to count" validate:"max=10000"`
}

func newServer(opts ...fastmcp.Option) *fastmcp.Server {
	s := fastmcp.New("words", "1.0.0", opts...)
	s.Tool("count", func(in CountArgs) (int, error) {
		return len(strings.Fields(in.Text)), nil
	}, fastmcp.Description("Count the words of a text"))
	return s
}

func main() {
	ctx := context.Background()
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		if err := newServer().ServeStdio(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "client serve:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer) error {
	// 1. A server the client starts as a subprocess, over stdio. Closing
	// the client closes the server's stdin and waits for it to exit.
	self, err := os.Executable()
	if err != nil {
		return err
	}
	stdio, err := client.ConnectCommand(ctx, &client.Command{Path: self, Args: []string{"serve"}})
	if err != nil {
		return fmt.Errorf("starting the stdio server: %w", err)
	}
	err = use(ctx, stdio, "stdio", out)
	stdio.Close()
	if err != nil {
		return err
	}

	// 2. A server over Streamable HTTP (here in this process). Start makes
	// it ready before it listens: until then it answers 503.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := newServer(fastmcp.Listener(ln))
	if err := srv.Start(ctx); err != nil {
		ln.Close()
		return err
	}
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- srv.Run(sctx) }()
	defer func() { stop(); <-served }()
	remote, err := client.ConnectHTTP(ctx, "http://"+ln.Addr().String()+"/mcp")
	if err != nil {
		return fmt.Errorf("connecting over HTTP: %w", err)
	}
	defer remote.Close()
	return use(ctx, remote, "http", out)
}

// use does what a host does with any server: look at it, list its tools,
// call one.
func use(ctx context.Context, c *client.Client, label string, out io.Writer) error {
	info := c.ServerInfo()
	fmt.Fprintf(out, "%s: connected to %s %s\n", label, info.Name, info.Version)
	for tool, err := range c.Tools(ctx) { // pages through tools/list
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: tool %s: %s\n", label, tool.Name, tool.Description)
	}
	res, err := c.CallTool(ctx, "count", CountArgs{Text: "to be continued"})
	if err != nil {
		return err // a protocol or transport failure
	}
	if res.IsError {
		return fmt.Errorf("count failed: %s", res.Text()) // the tool's own error
	}
	fmt.Fprintf(out, "%s: count → %s\n", label, res.Text())
	return nil
}
