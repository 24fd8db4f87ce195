// Command hello is fastmcp's demo. Run it with
//
//	go run ./examples/hello
//
// It starts itself again as an MCP server over stdio ("hello serve"),
// connects to that server as a client, and shows what a host would see: the
// negotiated protocol version, the server's identity, every tool with the
// input schema fastmcp generated from its Go argument struct, and calls to
// those tools with the log messages and progress they report.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// AddArgs are the arguments of the add tool: the struct is the schema.
type AddArgs struct {
	A int `json:"a" jsonschema:"description=first addend"`
	B int `json:"b" jsonschema:"description=second addend" validate:"gte=0"`
}

func add(ctx *fastmcp.Context, in AddArgs) (int, error) {
	ctx.Info("adding", "a", in.A, "b", in.B)
	return in.A + in.B, nil
}

// GreetArgs are the arguments of the greet tool.
type GreetArgs struct {
	Name     string `json:"name" jsonschema:"description=who to greet" validate:"min=1,max=40"`
	Language string `json:"language,omitempty" jsonschema:"description=language of the greeting,default=en" validate:"omitempty,oneof=en fr de"`
}

func greet(in GreetArgs) (string, error) {
	switch in.Language {
	case "fr":
		return "Bonjour, " + in.Name + " !", nil
	case "de":
		return "Hallo, " + in.Name + "!", nil
	}
	return "Hello, " + in.Name + "!", nil
}

// CountdownArgs are the arguments of the countdown tool.
type CountdownArgs struct {
	From int `json:"from" jsonschema:"description=number to count down from" validate:"min=1,max=10"`
}

// Remaining is the countdown tool's structured result.
type Remaining struct {
	Launched bool   `json:"launched"`
	Message  string `json:"message"`
}

func countdown(ctx *fastmcp.Context, in CountdownArgs) (Remaining, error) {
	for i := in.From; i > 0; i-- {
		ctx.Debug(fmt.Sprintf("%d...", i))
		if err := ctx.Progress(float64(in.From-i+1), float64(in.From), fmt.Sprintf("%d to go", i-1)); err != nil {
			return Remaining{}, err
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
			return Remaining{}, ctx.Err()
		}
	}
	ctx.Info("liftoff")
	return Remaining{Launched: true, Message: "liftoff"}, nil
}

func newServer() *fastmcp.Server {
	s := fastmcp.New("hello", "1.0.0",
		fastmcp.Instructions("A demo server: arithmetic, greetings and a countdown."),
		fastmcp.Logger(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	s.Tool("add", add, fastmcp.Description("Add two integers"), fastmcp.ReadOnly())
	s.Tool("greet", greet, fastmcp.Description("Greet someone by name"), fastmcp.ReadOnly())
	s.Tool("countdown", countdown, fastmcp.Description("Count down to liftoff, reporting progress"))
	return s
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		if err := newServer().ServeStdio(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, "hello serve:", err)
			os.Exit(1)
		}
		return
	}
	if err := demo(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "hello:", err)
		os.Exit(1)
	}
}

func demo(ctx context.Context) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()

	cl, err := client.ConnectCommand(ctx, &client.Command{Path: self, Args: []string{"serve"}},
		client.WithInfo("hello-demo", "1.0.0"),
		client.WithLogHandler(func(m *client.LogMessage) {
			fmt.Printf("    log [%s] %s\n", m.Level, m.Data)
		}))
	if err != nil {
		return err
	}
	defer cl.Close()

	info := cl.ServerInfo()
	fmt.Printf("connected to %s %s over stdio, protocol %s\n", info.Name, info.Version, cl.ProtocolVersion())
	fmt.Printf("instructions: %s\n\n", cl.Instructions())

	fmt.Println("tools:")
	for tool, err := range cl.Tools(ctx) {
		if err != nil {
			return err
		}
		fmt.Printf("  %s: %s\n", tool.Name, tool.Description)
		fmt.Printf("    input schema:  %s\n", indent(tool.InputSchema))
		if tool.OutputSchema != nil {
			fmt.Printf("    output schema: %s\n", indent(tool.OutputSchema))
		}
	}
	fmt.Println()

	calls := []struct {
		name string
		args any
	}{
		{"add", map[string]any{"a": 2, "b": 3}},
		{"greet", map[string]any{"name": "Ada", "language": "fr"}},
		{"countdown", map[string]any{"from": 3}},
		{"add", map[string]any{"a": "two", "b": -1}}, // bad input: the model sees why
	}
	for _, c := range calls {
		args, _ := json.Marshal(c.args)
		fmt.Printf("call %s %s\n", c.name, args)
		res, err := cl.CallTool(ctx, c.name, c.args, client.WithProgress(func(p *client.Progress) {
			fmt.Printf("    progress %g/%g %s\n", p.Progress, p.Total, p.Message)
		}))
		if err != nil {
			return fmt.Errorf("calling %s: %w", c.name, err)
		}
		printResult(res)
	}
	if err := cl.Ping(ctx); err != nil {
		return err
	}
	return cl.Close()
}

func printResult(res *fastmcp.ToolResult) {
	label := "result"
	if res.IsError {
		label = "error"
	}
	for _, c := range res.Content {
		if t, ok := c.(*fastmcp.TextContent); ok {
			fmt.Printf("  → %s: %s\n", label, t.Text)
		}
	}
	if res.StructuredContent != nil {
		fmt.Printf("    structured: %s\n", res.StructuredContent)
	}
	fmt.Println()
}

func indent(v json.RawMessage) string {
	if v == nil {
		return "{}"
	}
	var b bytes.Buffer
	if err := json.Indent(&b, v, "    ", "  "); err != nil {
		return string(v)
	}
	return strings.TrimSpace(b.String())
}

var _ = errors.New
