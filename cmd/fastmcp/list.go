package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// listKinds are what `fastmcp list` lists.
var listKinds = []string{"tools", "resources", "templates", "prompts"}

// listCommand is `fastmcp list`.
func (a *app) listCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "list tools|resources|templates|prompts (URL | -- COMMAND [ARGS...])",
		Short: "List a server's tools, resources, resource templates or prompts",
		Long: `List the server's tools, resources, resource templates or prompts: a table
by default, every field as a JSON array with --json.`,
		Example: `  fastmcp list tools -- ./my-server --stdio
  fastmcp list resources http://127.0.0.1:8080/mcp
  fastmcp list prompts https://example.com/mcp --oauth --json | jq '.[].name'`,
		Args:      argsBetween(2, 2),
		ValidArgs: listKinds,
		RunE: func(c *cobra.Command, args []string) error {
			if !contains(listKinds, args[0]) {
				return usage(fmt.Errorf("cannot list %q: want one of %s", args[0], strings.Join(listKinds, ", ")))
			}
			return a.withClient(c, args, 1, func(ctx context.Context, cl *client.Client, rest []string) error {
				return a.list(ctx, cl, rest[0])
			}, a.inputHandlers()...)
		},
	}
	a.resultFlags(c, "the list")
	return c
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// list prints one of the server's lists (kind: one of listKinds).
func (a *app) list(ctx context.Context, cl *client.Client, kind string) error {
	caps := cl.ServerCapabilities()
	switch kind {
	case "tools":
		tools, err := collect(caps.Tools != nil, cl.Tools(ctx))
		if err != nil {
			return err
		}
		if err := a.emit(tools, false, func(w *humanWriter) error { return printTools(w, tools) }); err != nil {
			return err
		}
		if n := badToolNames(tools); n > 0 && !a.jsonOut {
			a.status().line(badNamesNote(n))
		}
		return nil
	case "resources":
		res, err := collect(caps.Resources != nil, cl.Resources(ctx))
		if err != nil {
			return err
		}
		return a.emit(res, false, func(w *humanWriter) error {
			t := newTable(w, "URI", "NAME", "MIME TYPE", "DESCRIPTION")
			for _, r := range res {
				t.row(r.URI, r.Name, orDash(r.MIMEType), orDash(r.Description))
			}
			return t.flush()
		})
	case "templates":
		res, err := collect(caps.Resources != nil, cl.ResourceTemplates(ctx))
		if err != nil {
			return err
		}
		return a.emit(res, false, func(w *humanWriter) error {
			t := newTable(w, "URI TEMPLATE", "NAME", "MIME TYPE", "DESCRIPTION")
			for _, r := range res {
				t.row(r.URITemplate, r.Name, orDash(r.MIMEType), orDash(r.Description))
			}
			return t.flush()
		})
	default: // prompts
		ps, err := collect(caps.Prompts != nil, cl.Prompts(ctx))
		if err != nil {
			return err
		}
		return a.emit(ps, false, func(w *humanWriter) error {
			t := newTable(w, "NAME", "ARGUMENTS", "DESCRIPTION")
			for _, p := range ps {
				t.row(p.Name, orDash(promptArgs(p)), orDash(p.Description))
			}
			return t.flush()
		})
	}
}

// printTools prints the tools as a table.
func printTools(w io.Writer, tools []*protocol.Tool) error {
	t := newTable(w, "NAME", "ARGUMENTS", "DESCRIPTION")
	for _, tool := range tools {
		t.row(showToolName(tool.Name), orDash(toolArgs(tool)), orDash(tool.Description))
	}
	return t.flush()
}

// badNamesNote warns of n tool names outside the MCP tool-name
// characters, which are shown quoted.
func badNamesNote(n int) string {
	s := "s are"
	if n == 1 {
		s = " is"
	}
	return fmt.Sprintf("fastmcp: warning: %d tool name%s not an MCP tool name (1 to 128 of A-Z a-z 0-9 _ - .): shown quoted, with escapes", n, s)
}

// collect gathers every item of a listing; a server without the
// capability has none (an empty list, never null in JSON), and so has one
// that declares the capability but does not implement the list method
// (resources without resources/templates/list are common).
func collect[T any](offered bool, seq iter.Seq2[T, error]) ([]T, error) {
	out := []T{}
	if !offered {
		return out, nil
	}
	for v, err := range seq {
		if errors.Is(err, protocol.ErrMethodNotFound) && len(out) == 0 {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// someNames lists names for an error message: all of them, or the first
// ones and how many more.
func someNames(names []string) string {
	const max = 15
	if len(names) == 0 {
		return "none"
	}
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s, … (%d more)", strings.Join(names[:max], ", "), len(names)-max)
}

// toolArgs lists a tool's arguments, the required ones marked with *:
// "a*, b*, note".
func toolArgs(t *protocol.Tool) string {
	o, err := parseObjectSchema(t.InputSchema)
	if err != nil {
		return "?"
	}
	var parts []string
	for _, n := range o.names {
		if o.isRequired(n) {
			n += "*"
		}
		parts = append(parts, n)
	}
	return strings.Join(parts, ", ")
}

// promptArgs lists a prompt's arguments, the required ones marked with *.
func promptArgs(p *protocol.Prompt) string {
	var parts []string
	for _, arg := range p.Arguments {
		n := arg.Name
		if arg.Required {
			n += "*"
		}
		parts = append(parts, n)
	}
	return strings.Join(parts, ", ")
}
