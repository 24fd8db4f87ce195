// Command proxy re-exposes an MCP server over another transport: a stdio
// server over Streamable HTTP, or a server over HTTP to a host that starts
// its servers over stdio. It is proxy.New in a few lines:
//
//	# a stdio server, served over Streamable HTTP on 127.0.0.1:8000/mcp
//	go run ./examples/proxy -addr 127.0.0.1:8000 -- npx -y @modelcontextprotocol/server-everything
//
//	# a remote server, served over stdio (the command a host starts)
//	go run ./examples/proxy -url https://example.com/mcp
//
// -protocol pins the revision spoken to the backend (2025-11-25,
// 2026-07-28, ...); by default the latest both speak.
// Everything goes through: tools, resources, prompts, completions, list
// changes, progress, log messages, and the backend's elicitation, sampling
// and roots requests, which reach the proxy's client and come back.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/proxy"
	"github.com/fastmcp-go/fastmcp/transport"
)

func main() {
	addr := flag.String("addr", "", "listen for Streamable HTTP on this address (host:port); default: serve over stdio")
	url := flag.String("url", "", "the backend's Streamable HTTP URL; or give its command after --")
	version := flag.String("protocol", "", "the protocol revision to speak to the backend (default: the latest it speaks)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: proxy [-addr host:port] (-url URL | -- CMD ARGS...)\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil)) // stdout carries the protocol over stdio
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var ln net.Listener
	if *addr != "" {
		var err error
		if ln, err = net.Listen("tcp", *addr); err != nil {
			logger.Error("proxy", "error", err)
			os.Exit(1)
		}
		logger.Info("serving over Streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp")
	}
	if err := run(ctx, logger, ln, *url, flag.Args(), client.WithProtocolVersion(*version)); err != nil {
		logger.Error("proxy", "error", err)
		os.Exit(1)
	}
}

// run connects to the backend and serves the proxy on ln (over stdio when
// ln is nil) until ctx is done or, over stdio, the host closes its input.
func run(ctx context.Context, logger *slog.Logger, ln net.Listener, url string, command []string, opts ...client.Option) error {
	c, err := connect(ctx, logger, url, command, opts...)
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		return err
	}
	defer c.Close()
	if ln != nil {
		return proxy.New(c, fastmcp.Logger(logger), fastmcp.Listener(ln)).Run(ctx)
	}
	return proxy.New(c, fastmcp.Logger(logger)).ServeStdio(ctx)
}

// connect connects to the backend: over Streamable HTTP at url, or to
// command started as a subprocess over stdio.
func connect(ctx context.Context, logger *slog.Logger, url string, command []string, opts ...client.Option) (*client.Client, error) {
	opts = append(opts, client.WithRequestForwarding(), client.WithLogger(logger))
	switch {
	case url != "" && len(command) > 0:
		return nil, errors.New("give either -url or a command after --, not both")
	case url != "":
		return client.ConnectHTTP(ctx, url, opts...)
	case len(command) > 0:
		return client.ConnectCommand(ctx, &transport.Command{Path: command[0], Args: command[1:]}, opts...)
	}
	return nil, errors.New("no backend: give -url URL or -- CMD ARGS (see -h)")
}
