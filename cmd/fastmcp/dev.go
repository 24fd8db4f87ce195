package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/fastmcp-go/fastmcp/apps/preview"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/oauthclient"
)

// devCommand is `fastmcp dev`, the group of commands that help while
// writing a server.
func (a *app) devCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "dev",
		Short: "Tools for developing a server: preview its app views",
		Long: `Commands that help while writing a server. dev apps serves a local page
that renders the server's MCP Apps views the way a chat host does.`,
		Example: `  fastmcp dev apps -- go run ./examples/apps
  fastmcp dev apps http://127.0.0.1:8000/mcp --open`,
		Args: cobra.NoArgs,
	}
	c.AddCommand(a.devAppsCommand())
	return c
}

// devAppsCommand is `fastmcp dev apps`.
func (a *app) devAppsCommand() *cobra.Command {
	var addr string
	var open bool
	c := &cobra.Command{
		Use:   "apps (URL | -- COMMAND [ARGS...])",
		Short: "Preview a server's MCP Apps views in the browser",
		Long: `Connect to the server as a host that renders MCP Apps views (the
io.modelcontextprotocol/ui extension) and serve a preview page on
127.0.0.1: it lists the tools with views, calls one with a form built from
its input schema, and renders its view in a sandboxed frame, proxying the
view's tool calls and resource reads to the server. The page's URL is
printed on stdout; --open opens it in the browser.

The page answers only on the loopback interface, and its endpoints need a
token generated for each run and embedded in the page. The command runs
until Ctrl-C (exit code 130) or until the server goes away (3); --timeout
bounds connecting to the server only.`,
		Example: `  fastmcp dev apps -- go run ./examples/apps
  fastmcp dev apps --open -- ./my-app-server --stdio
  fastmcp dev apps http://127.0.0.1:8000/mcp --addr 127.0.0.1:7000
  fastmcp dev apps https://example.com/mcp --oauth -v`,
		Args: argsBetween(1, 1),
		RunE: func(c *cobra.Command, args []string) error {
			t, _, err := splitTarget(c, args, 0)
			if err != nil {
				return err
			}
			cl, err := a.connectWithin(c.Context(), t, client.WithApps())
			if err != nil {
				return err
			}
			defer cl.Close()
			return a.devApps(c.Context(), cl, addr, open)
		},
	}
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:0", "serve the page on this loopback `address` (host:port; port 0 picks a free one)")
	c.Flags().BoolVar(&open, "open", false, "open the page in the browser")
	return c
}

// errServerGone ends the preview when the server's connection ends.
var errServerGone = errors.New("the server went away")

// devApps serves the preview of cl's server until ctx is done (exit 130)
// or the server goes away (a connectionError: exit 3).
func (a *app) devApps(ctx context.Context, cl *client.Client, addr string, open bool) error {
	sctx, stopServing := context.WithCancelCause(ctx)
	defer stopServing(nil)
	go func() { // ends with the preview at the latest
		select {
		case <-cl.Done():
			stopServing(errServerGone)
		case <-sctx.Done():
		}
	}()
	level := slog.LevelWarn
	if a.verbose {
		level = slog.LevelDebug
	}
	p := preview.New(cl, &preview.Options{
		Logger: slog.New(slog.NewTextHandler(a.rawStderr, &slog.HandlerOptions{Level: level})),
	})
	// The browser opens in the background: xdg-open may wait for the
	// browser it starts, which needs the page served.
	// It is stopped (its context canceled) when the preview ends.
	var opening sync.WaitGroup
	defer opening.Wait()
	octx, stop := context.WithCancel(sctx)
	defer stop()
	out := &urlLine{w: a.rawStdout, found: func(url string) {
		if !open {
			return
		}
		opening.Go(func() {
			if err := oauthclient.OpenBrowser(octx, url); err != nil && octx.Err() == nil {
				a.status().line("(no browser could be opened: open the URL yourself)")
			}
		})
	}}
	err := p.ListenAndServe(sctx, addr, out)
	if errors.Is(err, preview.ErrNotLoopback) {
		return usage(fmt.Errorf("--addr: %w", err))
	}
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err() // canceled by Ctrl-C: exit 130, as every command
	}
	if errors.Is(context.Cause(sctx), errServerGone) {
		return &connectionError{fmt.Errorf("%w: %w", errServerGone, a.shortest(cl.Err()))}
	}
	return nil
}

// urlLine passes the preview's "Preview: URL" line through to w and hands
// the URL to found.
type urlLine struct {
	w     io.Writer
	found func(url string)
	once  sync.Once
}

func (u *urlLine) Write(b []byte) (int, error) {
	n, err := u.w.Write(b)
	u.once.Do(func() {
		if url, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "Preview: "); ok {
			u.found(url)
		}
	})
	return n, err
}
