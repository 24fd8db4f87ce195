// Command server is fastmcp's "everything server" for the official MCP
// conformance suite (@modelcontextprotocol/conformance): every tool,
// resource, prompt and completion the suite's server scenarios expect,
// written with the high-level API, for every protocol revision at once.
//
//	server -http=localhost:3001   # Streamable HTTP at /mcp (and legacy SSE at /sse)
//	server -stdio                 # stdio
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

func newServer(logger *slog.Logger, opts ...fastmcp.Option) *fastmcp.Server {
	s := fastmcp.New("mcp-conformance-test-server", "1.0.0", append(opts,
		fastmcp.Logger(logger),
		fastmcp.Instructions("The fastmcp everything-server for the MCP conformance suite."))...)
	registerTools(s)
	registerResources(s)
	registerPrompts(s)
	registerSkills(s)
	return s
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP on this address (e.g. localhost:3001)")
	stdio := flag.Bool("stdio", false, "serve over standard input and output")
	verbose := flag.Bool("v", false, "log debug messages to stderr")
	flag.Parse()
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch {
	case *stdio:
		err = newServer(logger).ServeStdio(ctx)
	case *addr != "":
		// Streamable HTTP at /mcp (both protocol eras on the one endpoint)
		// and the legacy HTTP+SSE transport at /sse, until ctx is done.
		err = newServer(logger, fastmcp.Addr(*addr)).Run(ctx)
	default:
		fmt.Fprintln(os.Stderr, "usage: server -http=localhost:3001 | -stdio")
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}
