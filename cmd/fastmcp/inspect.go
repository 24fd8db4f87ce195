package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// inspectCommand is `fastmcp inspect`.
func (a *app) inspectCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "inspect (URL | -- COMMAND [ARGS...])",
		Short: "Describe a server: its capabilities, tools, resources and prompts",
		Long: `Describe everything a server offers: who it is, the protocol revision spoken,
its capabilities and instructions, every tool with its input and output
schemas, its resources, resource templates and prompts. --json prints the
same as one JSON object, for scripts.`,
		Example: `  fastmcp inspect -- ./my-server --stdio
  fastmcp inspect https://example.com/mcp --oauth
  fastmcp inspect http://127.0.0.1:8080/mcp --json | jq '.tools[].name'`,
		Args: argsBetween(1, 1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.withClient(c, args, 0, a.inspect, a.inputHandlers()...)
		},
	}
	a.resultFlags(c, "the report")
	return c
}

// report is what inspect prints.
type report struct {
	Server            *protocol.Implementation     `json:"server"`
	ProtocolVersion   string                       `json:"protocolVersion"`
	Capabilities      *protocol.ServerCapabilities `json:"capabilities"`
	Instructions      string                       `json:"instructions,omitempty"`
	Tools             []*protocol.Tool             `json:"tools"`
	Resources         []*protocol.Resource         `json:"resources"`
	ResourceTemplates []*protocol.ResourceTemplate `json:"resourceTemplates"`
	Prompts           []*protocol.Prompt           `json:"prompts"`
}

// inspect gathers the report on the server and prints it.
func (a *app) inspect(ctx context.Context, cl *client.Client, _ []string) error {
	caps := cl.ServerCapabilities()
	r := report{Server: cl.ServerInfo(), ProtocolVersion: cl.ProtocolVersion(), Capabilities: caps, Instructions: cl.Instructions()}
	var err error
	if r.Tools, err = collect(caps.Tools != nil, cl.Tools(ctx)); err != nil {
		return fmt.Errorf("listing the tools: %w", err)
	}
	if r.Resources, err = collect(caps.Resources != nil, cl.Resources(ctx)); err != nil {
		return fmt.Errorf("listing the resources: %w", err)
	}
	if r.ResourceTemplates, err = collect(caps.Resources != nil, cl.ResourceTemplates(ctx)); err != nil {
		return fmt.Errorf("listing the resource templates: %w", err)
	}
	if r.Prompts, err = collect(caps.Prompts != nil, cl.Prompts(ctx)); err != nil {
		return fmt.Errorf("listing the prompts: %w", err)
	}
	return a.emit(&r, false, func(w *humanWriter) error {
		var b strings.Builder
		writeReport(&b, &r)
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// writeReport writes the report for a person.
func writeReport(b *strings.Builder, r *report) {
	fmt.Fprintf(b, "Server:       %s %s", r.Server.Name, r.Server.Version)
	if r.Server.Title != "" {
		fmt.Fprintf(b, " (%s)", r.Server.Title)
	}
	fmt.Fprintf(b, "\nProtocol:     %s\n", r.ProtocolVersion)
	fmt.Fprintf(b, "Capabilities: %s\n", capabilities(r.Capabilities))
	if r.Instructions != "" {
		fmt.Fprintf(b, "Instructions:\n%s\n", indent(r.Instructions, "  "))
	}

	fmt.Fprintf(b, "\nTools (%d)\n", len(r.Tools))
	for _, t := range r.Tools {
		fmt.Fprintf(b, "\n  %s", showToolName(t.Name))
		if !toolNameOK(t.Name) {
			b.WriteString("  (not an MCP tool name: shown quoted, with escapes)")
		}
		if t.Title != "" {
			fmt.Fprintf(b, " (%s)", t.Title)
		}
		b.WriteString("\n")
		if t.Description != "" {
			b.WriteString(indent(t.Description, "    ") + "\n")
		}
		if an := annotations(t.Annotations); an != "" {
			fmt.Fprintf(b, "    hints: %s\n", an)
		}
		in := t.InputSchema
		if len(in) == 0 {
			in = json.RawMessage(`{"type":"object"}`)
		}
		fmt.Fprintf(b, "    input schema:\n%s\n", indent(string(indentJSON(in)), "      "))
		if len(t.OutputSchema) > 0 {
			fmt.Fprintf(b, "    output schema:\n%s\n", indent(string(indentJSON(t.OutputSchema)), "      "))
		}
	}

	fmt.Fprintf(b, "\nResources (%d)\n", len(r.Resources))
	for _, res := range r.Resources {
		writeResourceEntry(b, res.URI, res.Name, res.MIMEType, res.Description)
	}

	fmt.Fprintf(b, "\nResource templates (%d)\n", len(r.ResourceTemplates))
	for _, t := range r.ResourceTemplates {
		writeResourceEntry(b, t.URITemplate, t.Name, t.MIMEType, t.Description)
	}

	fmt.Fprintf(b, "\nPrompts (%d)\n", len(r.Prompts))
	for _, p := range r.Prompts {
		fmt.Fprintf(b, "  %s", p.Name)
		if args := promptArgs(p); args != "" {
			fmt.Fprintf(b, "(%s)", args)
		}
		b.WriteString("\n")
		if p.Description != "" {
			b.WriteString(indent(p.Description, "    ") + "\n")
		}
	}
}

// capabilities lists the server's capabilities with their options:
// "tools (listChanged), resources (subscribe, listChanged), logging".
func capabilities(c *protocol.ServerCapabilities) string {
	var parts []string
	opt := func(name string, on bool, flags ...string) {
		if !on {
			return
		}
		var set []string
		for i := 0; i+1 < len(flags); i += 2 {
			if flags[i+1] == "1" {
				set = append(set, flags[i])
			}
		}
		if len(set) > 0 {
			name += " (" + strings.Join(set, ", ") + ")"
		}
		parts = append(parts, name)
	}
	bit := func(b bool) string {
		if b {
			return "1"
		}
		return "0"
	}
	if c.Tools != nil {
		opt("tools", true, "listChanged", bit(c.Tools.ListChanged))
	}
	if c.Resources != nil {
		opt("resources", true, "subscribe", bit(c.Resources.Subscribe), "listChanged", bit(c.Resources.ListChanged))
	}
	if c.Prompts != nil {
		opt("prompts", true, "listChanged", bit(c.Prompts.ListChanged))
	}
	opt("completions", c.Completions != nil)
	opt("logging", c.Logging != nil)
	opt("tasks", c.Tasks != nil)
	for _, name := range slices.Sorted(maps.Keys(c.Extensions)) {
		parts = append(parts, "extension "+name)
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// annotations lists a tool's behaviour hints.
func annotations(an *protocol.ToolAnnotations) string {
	if an == nil {
		return ""
	}
	b, err := protocol.Marshal(an)
	if err != nil {
		return ""
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return ""
	}
	var parts []string
	for _, k := range []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
		if v, ok := m[k]; ok {
			parts = append(parts, fmt.Sprintf("%s=%v", k, v))
		}
	}
	return strings.Join(parts, " ")
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

// writeResourceEntry prints one resource or template of the inspect
// report: its URI (or template), name and MIME type, then its description.
func writeResourceEntry(b *strings.Builder, uri, name, mimeType, description string) {
	fmt.Fprintf(b, "  %s  %s", uri, name)
	if mimeType != "" {
		fmt.Fprintf(b, "  %s", mimeType)
	}
	b.WriteString("\n")
	if description != "" {
		b.WriteString(indent(description, "    ") + "\n")
	}
}
