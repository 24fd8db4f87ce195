package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/fastmcp-go/fastmcp/client"
)

// pingCommand is `fastmcp ping`.
func (a *app) pingCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "ping (URL | -- COMMAND [ARGS...])",
		Short: "Check that a server answers",
		Long: `Connect to the server, ping it (server/discover on 2026-07-28, which has no
ping) and print who answered and how fast. The exit code says whether it
did: 0, or 3 when it could not be reached.`,
		Example: `  fastmcp ping http://127.0.0.1:8080/mcp
  fastmcp ping --protocol 2025-06-18 -- ./my-server --stdio
  fastmcp ping https://example.com/mcp --json`,
		Args: argsBetween(1, 1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withClient(c, args, 0, a.ping)
		},
	}
	a.resultFlags(c, "the answer")
	return c
}

// ping pings the server and prints who answered and how fast.
func (a *app) ping(ctx context.Context, cl *client.Client, _ []string) error {
	start := time.Now()
	if err := cl.Ping(ctx); err != nil {
		return &connectionError{fmt.Errorf("ping: %w", err)}
	}
	rtt := time.Since(start)
	info := cl.ServerInfo()
	v := map[string]any{
		"server":          info,
		"protocolVersion": cl.ProtocolVersion(),
		"milliseconds":    float64(rtt.Microseconds()) / 1000,
	}
	return a.emit(v, false, func(w *humanWriter) error {
		_, err := fmt.Fprintf(w, "%s %s answered in %s (protocol %s)\n", info.Name, info.Version, rtt.Round(10*time.Microsecond), cl.ProtocolVersion())
		return err
	})
}
