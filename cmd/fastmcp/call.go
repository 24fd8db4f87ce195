package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// callCommand is `fastmcp call`.
func (a *app) callCommand() *cobra.Command {
	var jsonArgs string
	var raw bool
	c := &cobra.Command{
		Use:   "call (URL | -- COMMAND [ARGS...]) TOOL [key=value ...]",
		Short: "Call a tool",
		Long: `Call a tool and print its result: text (control characters escaped, cut at
--max-output), structured content as JSON; the whole result with --json; the
result exactly as sent with -o FILE.

Arguments are key=value words typed from the tool's input schema: n=3 is
the number 3 when the schema says "integer" or "number", ok=yes the boolean
true, tags=a,b an array of strings; arrays and objects may be written as JSON
(point='{"x":1}'); key:=JSON takes the value as JSON whatever the schema
says. --args gives the whole object as JSON, key=value words override its
members. The arguments are checked against the schema before the call, and
every mistake is reported by field. --raw sends them unchecked, so that
the server's own validation answers: a value the schema's type refuses goes
as JSON when it is JSON, else as a string, and names the schema does not
list are sent too.

While the tool runs, its progress is shown as a bar (on a terminal) or as
plain lines, and the server's log messages go to stderr. When the server
asks for input (elicitation), the form is asked on stderr and answered on
stdin; --no-input declines instead.

A tool that reports an error (isError) prints it on stderr and exits with
code 4; an unknown tool or bad arguments exit with code 2.`,
		Example: `  fastmcp call http://127.0.0.1:8080/mcp add a=1 b=2
  fastmcp call https://example.com/mcp search query='go mcp' limit=5 --oauth
  fastmcp call https://example.com/mcp create --args '{"title": "x", "tags": ["a"]}'
  fastmcp call book_flight --no-input -- ./travel-server --stdio
  fastmcp call get_weather city=Paris --json -- ./weather | jq .structuredContent`,
		Args: argsBetween(2, -1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withClient(c, args, 0, func(ctx context.Context, cl *client.Client, rest []string) error {
				return a.call(ctx, cl, rest[0], jsonArgs, rest[1:], raw)
			}, a.inputHandlers()...)
		},
	}
	c.Flags().StringVar(&jsonArgs, "args", "", "the arguments as a JSON `object`")
	c.Flags().BoolVar(&raw, "raw", false, "send the arguments unchecked against the tool's input schema, to see the server's own validation")
	a.resultFlags(c, "the result")
	return c
}

// call calls the tool name with the arguments of --args and words, and
// prints its result. With raw the arguments are not checked against the
// tool's schema (see parseArgs).
func (a *app) call(ctx context.Context, cl *client.Client, name, jsonArgs string, words []string, raw bool) error {
	tool, err := findTool(ctx, cl, name)
	if err != nil {
		return err
	}
	o, err := parseObjectSchema(tool.InputSchema)
	if err != nil {
		return fmt.Errorf("tool %s: %w", name, err)
	}
	o.unchecked = raw
	args, err := parseArgs(o, jsonArgs, words)
	if err != nil {
		return err
	}
	if !raw {
		if err := validateArgs(name, tool.InputSchema, args); err != nil {
			return err
		}
	}
	st := a.status()
	res, err := cl.CallTool(ctx, name, args, client.WithProgress(st.progress))
	st.done()
	if err != nil {
		return fmt.Errorf("calling %s: %w", name, err)
	}
	err = a.emit(res, res.IsError, func(w *humanWriter) error {
		return printContent(w, res.Content, res.StructuredContent)
	})
	if err != nil {
		return err
	}
	if res.IsError {
		return errToolFailed
	}
	return nil
}

// findTool returns the tool called name, or a usage error naming the
// tools there are.
func findTool(ctx context.Context, cl *client.Client, name string) (*protocol.Tool, error) {
	var names []string
	tools, err := collect(true, cl.Tools(ctx))
	if err != nil {
		return nil, fmt.Errorf("listing the tools: %w", err)
	}
	for _, t := range tools {
		if t.Name == name {
			return t, nil
		}
		names = append(names, showToolName(t.Name))
	}
	return nil, usage(fmt.Errorf("the server has no tool %q; it has: %s", name, someNames(names)))
}

// printContent prints content blocks for a person: text as it is, other
// blocks as a one-line summary, and structured content as indented JSON
// (in place of the text block that merely repeats it, as servers send for
// older clients).
func printContent(w io.Writer, content protocol.ContentList, structured json.RawMessage) error {
	var b strings.Builder
	for _, c := range content {
		if t, ok := c.(*protocol.TextContent); ok && repeats(t.Text, structured) {
			continue
		}
		b.WriteString(describeContent(c))
		if !strings.HasSuffix(b.String(), "\n") {
			b.WriteString("\n")
		}
	}
	if len(structured) > 0 {
		b.Write(indentJSON(structured))
		b.WriteString("\n")
	}
	_, err := w.Write([]byte(b.String()))
	return err
}

// describeContent is one content block as text.
func describeContent(c protocol.Content) string {
	switch c := c.(type) {
	case *protocol.TextContent:
		return c.Text
	case *protocol.ImageContent:
		return fmt.Sprintf("[image %s, %d bytes]", c.MIMEType, len(c.Data))
	case *protocol.AudioContent:
		return fmt.Sprintf("[audio %s, %d bytes]", c.MIMEType, len(c.Data))
	case *protocol.ResourceLink:
		s := "[resource link " + c.URI
		if c.Name != "" {
			s += " (" + c.Name + ")"
		}
		return s + "]"
	case *protocol.EmbeddedResource:
		r := c.Resource
		if r.Blob == nil {
			return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text)
		}
		return fmt.Sprintf("[resource %s, %s, %d bytes]", r.URI, orDash(r.MIMEType), len(r.Blob))
	}
	b, err := protocol.Marshal(c)
	if err != nil {
		return fmt.Sprintf("[%T]", c)
	}
	return string(b)
}

// repeats reports whether text is the structured content again: the same
// JSON, or the value of its only member "result" (how fastmcp servers
// wrap a result that is not an object).
func repeats(text string, structured json.RawMessage) bool {
	if len(structured) == 0 {
		return false
	}
	if sameJSON(text, structured) {
		return true
	}
	var wrapped map[string]json.RawMessage
	if json.Unmarshal(structured, &wrapped) == nil && len(wrapped) == 1 && wrapped["result"] != nil {
		return sameJSON(text, wrapped["result"]) || quotedJSON(text, wrapped["result"])
	}
	return false
}

// quotedJSON reports whether v is the JSON string text.
func quotedJSON(text string, v json.RawMessage) bool {
	var s string
	return json.Unmarshal(v, &s) == nil && s == text
}

// sameJSON reports whether text is the JSON document v.
func sameJSON(text string, v json.RawMessage) bool {
	var x, y any
	if json.Unmarshal([]byte(text), &x) != nil || json.Unmarshal(v, &y) != nil {
		return false
	}
	bx, _ := json.Marshal(x)
	by, _ := json.Marshal(y)
	return string(bx) == string(by)
}
