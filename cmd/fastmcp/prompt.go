package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// promptCommand is `fastmcp prompt`.
func (a *app) promptCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "prompt (URL | -- COMMAND [ARGS...]) NAME [key=value ...]",
		Short: "Get a prompt",
		Long: `Get a prompt with its arguments (key=value, all strings) and print its
messages, each under its role; --json prints the whole result.`,
		Example: `  fastmcp prompt http://127.0.0.1:8080/mcp code_review code='func f() {}'
  fastmcp prompt greeting name=Ada --json -- ./my-server --stdio`,
		Args: argsBetween(2, -1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withClient(c, args, 0, func(ctx context.Context, cl *client.Client, rest []string) error {
				return a.prompt(ctx, cl, rest[0], rest[1:])
			}, a.inputHandlers()...)
		},
	}
	a.resultFlags(c, "the result")
	return c
}

// prompt gets the prompt name with the key=value words as arguments and
// prints its messages.
func (a *app) prompt(ctx context.Context, cl *client.Client, name string, words []string) error {
	p, err := findPrompt(ctx, cl, name)
	if err != nil {
		return err
	}
	args := map[string]string{}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok || k == "" {
			return usage(fmt.Errorf("%q: want key=value", w))
		}
		args[k] = v
	}
	var missing, known []string
	for _, arg := range p.Arguments {
		known = append(known, arg.Name)
		if _, ok := args[arg.Name]; arg.Required && !ok {
			missing = append(missing, arg.Name)
		}
	}
	for k := range args {
		if !contains(known, k) {
			return usage(fmt.Errorf("prompt %s has no argument %q; its arguments are: %s", name, k, orDash(strings.Join(known, ", "))))
		}
	}
	if len(missing) > 0 {
		return usage(fmt.Errorf("prompt %s: missing required arguments: %s", name, strings.Join(missing, ", ")))
	}
	res, err := cl.GetPrompt(ctx, name, args)
	if err != nil {
		return fmt.Errorf("getting prompt %s: %w", name, err)
	}
	return a.emit(res, false, func(w *humanWriter) error {
		var b strings.Builder
		for i, m := range res.Messages {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "[%s]\n", m.Role)
			b.WriteString(describeContent(m.Content))
			if !strings.HasSuffix(b.String(), "\n") {
				b.WriteString("\n")
			}
		}
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// findPrompt returns the prompt called name, or a usage error naming the
// prompts there are.
func findPrompt(ctx context.Context, cl *client.Client, name string) (*protocol.Prompt, error) {
	ps, err := collect(cl.ServerCapabilities().Prompts != nil, cl.Prompts(ctx))
	if err != nil {
		return nil, fmt.Errorf("listing the prompts: %w", err)
	}
	var names []string
	for _, p := range ps {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return nil, usage(fmt.Errorf("the server has no prompt %q; it has: %s", name, someNames(names)))
}
