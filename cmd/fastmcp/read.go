package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/fastmcp-go/fastmcp/client"
)

// readCommand is `fastmcp read`.
func (a *app) readCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "read (URL | -- COMMAND [ARGS...]) URI",
		Short: "Read a resource",
		Long: `Read a resource and print its contents: text with its control characters
escaped, cut at --max-output (-o FILE writes it exactly); binary contents
written as they are when stdout is a file or a pipe (or with -o FILE),
summarized on a terminal; every field (binary as base64) with --json.`,
		Example: `  fastmcp read http://127.0.0.1:8080/mcp file:///README.md
  fastmcp read https://example.com/mcp images://logo > logo.png
  fastmcp read https://example.com/mcp file:///big.log -o big.log
  fastmcp read config://app --json -- ./my-server --stdio`,
		Args: argsBetween(2, 2),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withClient(c, args, 0, func(ctx context.Context, cl *client.Client, rest []string) error {
				return a.read(ctx, cl, rest[0])
			}, a.inputHandlers()...)
		},
	}
	a.resultFlags(c, "the result")
	return c
}

// read reads the resource at uri and prints its contents.
func (a *app) read(ctx context.Context, cl *client.Client, uri string) error {
	res, err := cl.ReadResource(ctx, uri)
	if err != nil {
		return fmt.Errorf("reading %s: %w", uri, err)
	}
	tty := false
	if f, ok := a.rawStdout.(*os.File); ok && a.outFile == "" {
		tty = term.IsTerminal(int(f.Fd()))
	}
	return a.emit(res, false, func(w *humanWriter) error {
		for _, c := range res.Contents {
			var err error
			switch {
			case c.Blob == nil:
				text := c.Text
				if !strings.HasSuffix(text, "\n") {
					text += "\n"
				}
				_, err = io.WriteString(w, text)
			case tty || len(res.Contents) > 1:
				_, err = fmt.Fprintf(w, "[%s: %s, %d bytes; redirect stdout to a file or use -o FILE to save it]\n", c.URI, orDash(c.MIMEType), len(c.Blob))
			default: // the bytes, to a file or a pipe
				err = w.raw(c.Blob)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}
