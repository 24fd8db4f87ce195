package fastmcp_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

type CodeReview struct {
	Code     string `json:"code" jsonschema:"description=The code to review"`
	Language string `json:"language,omitempty" jsonschema:"description=The code's language"`
	MaxNotes int    `json:"max_notes,omitempty" jsonschema:"description=How many remarks at most" validate:"omitempty,gte=1"`
}

// A prompt is a function over an argument struct; its fields are the
// prompt's arguments. Arguments arrive as strings and are converted to the
// fields' types.
func ExampleServer_Prompt() {
	s := fastmcp.New("reviewer", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Prompt("review", func(in CodeReview) string {
		return fmt.Sprintf("Review this %s code in at most %d remarks:\n%s", in.Language, in.MaxNotes, in.Code)
	}, fastmcp.Description("Review a piece of code"))

	c, stop := serveInMemory(s)
	defer stop()
	ctx := context.Background()
	for p, err := range c.Prompts(ctx) {
		if err != nil {
			panic(err)
		}
		for _, a := range p.Arguments {
			fmt.Printf("%s.%s required=%v: %s\n", p.Name, a.Name, a.Required, a.Description)
		}
	}
	res, _ := c.GetPrompt(ctx, "review", map[string]string{"code": "x := 1", "language": "Go", "max_notes": "3"})
	fmt.Printf("%s: %s\n", res.Messages[0].Role, res.Messages[0].Text())

	_, err := c.GetPrompt(ctx, "review", map[string]string{"max_notes": "many"})
	fmt.Println(err)
	// Output:
	// review.code required=true: The code to review
	// review.language required=false: The code's language
	// review.max_notes required=false: How many remarks at most
	// user: Review this Go code in at most 3 remarks:
	// x := 1
	// invalid arguments for prompt review: code: is required; max_notes: must be integer, got "many"
}

// A prompt can return several messages of any content kind: images,
// embedded resources, assistant turns.
func ExampleServer_Prompt_messages() {
	png := []byte("\x89PNG\r\n\x1a\n")
	s := fastmcp.New("vision", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Prompt("describe", func() *fastmcp.PromptResult {
		return &fastmcp.PromptResult{
			Description: "Describe an image",
			Messages: []fastmcp.PromptMessage{
				fastmcp.UserMessage(fastmcp.Image(png, "image/png")),
				fastmcp.UserMessage(fastmcp.EmbeddedText("notes://style", "text/plain", "Be brief.")),
				fastmcp.AssistantMessage(fastmcp.Text("I see an image. What should I focus on?")),
				fastmcp.UserMessage(fastmcp.Text("The colours.")),
			},
		}
	})

	c, stop := serveInMemory(s)
	defer stop()
	res, _ := c.GetPrompt(context.Background(), "describe", nil)
	fmt.Println(res.Description)
	for _, m := range res.Messages {
		fmt.Printf("%s %T\n", m.Role, m.Content)
	}
	// Output:
	// Describe an image
	// user *protocol.ImageContent
	// user *protocol.EmbeddedResource
	// assistant *protocol.TextContent
	// user *protocol.TextContent
}

type Stack struct {
	Language  string `json:"language"`
	Framework string `json:"framework"`
}

// Completers suggest values for prompt arguments and template variables as
// the user types; they see the arguments already filled in.
func ExampleCompleteArg() {
	frameworks := map[string][]string{"python": {"django", "fastapi", "flask"}, "go": {"echo", "gin"}}

	s := fastmcp.New("stacks", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Prompt("scaffold", func(in Stack) string { return "Scaffold a " + in.Framework + " app" },
		fastmcp.CompleteArg("language", fastmcp.Choices("go", "python")),
		fastmcp.CompleteArg("framework", func(ctx *fastmcp.Context, req fastmcp.CompleteRequest) ([]string, error) {
			var out []string
			for _, f := range frameworks[req.Arguments["language"]] {
				if strings.HasPrefix(f, req.Value) {
					out = append(out, f)
				}
			}
			return out, nil
		}))

	c, stop := serveInMemory(s)
	defer stop()
	ctx := context.Background()
	res, _ := c.Complete(ctx, fastmcp.PromptRef("scaffold"), "language", "py", nil)
	fmt.Println(res.Completion.Values)
	res, _ = c.Complete(ctx, fastmcp.PromptRef("scaffold"), "framework", "f", map[string]string{"language": "python"})
	fmt.Println(res.Completion.Values, *res.Completion.Total, res.Completion.HasMore)
	// Output:
	// [python]
	// [fastapi flask] 2 false
}

// Server.Complete attaches a completer to a registration made elsewhere.
func ExampleServer_Complete() {
	s := fastmcp.New("repos", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Resource("repo://{owner}/{name}", func(in struct {
		Owner string `json:"owner"`
		Name  string `json:"name"`
	}) string {
		return in.Owner + "/" + in.Name
	})
	err := s.Complete(fastmcp.ResourceRef("repo://{owner}/{name}"), "owner", fastmcp.Choices("golang", "google", "gopherjs"))
	if err != nil {
		panic(err)
	}

	c, stop := serveInMemory(s)
	defer stop()
	res, _ := c.Complete(context.Background(), fastmcp.ResourceRef("repo://{owner}/{name}"), "owner", "goo", nil)
	fmt.Println(res.Completion.Values)
	// Output:
	// [google]
}

// logging/setLevel (protocol revisions before 2026-07-28) sets the least
// severe level of the log messages a session gets.
func ExampleClient_SetLogLevel() {
	s := fastmcp.New("chatty", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Resource("chatty://status", func(ctx *fastmcp.Context) string {
		ctx.Debug("checking")
		ctx.Warning("disk almost full")
		return "ok"
	})

	// Serve s in memory and connect a client to it (in a test,
	// fastmcptest.NewClient(t, s, opts...) does this in one call).
	ctx := context.Background()
	cc, sc := transport.NewPipe()
	go s.Serve(ctx, sc)
	c, err := client.Connect(ctx, cc,
		client.WithProtocolVersion(protocol.LatestLegacyVersion),
		client.WithLogHandler(func(m *protocol.LoggingMessageParams) { fmt.Printf("%s: %s\n", m.Level, m.Data) }))
	if err != nil {
		panic(err)
	}
	defer c.Close()
	c.SetLogLevel(ctx, protocol.LevelWarning)
	res, _ := c.ReadResource(ctx, "chatty://status")
	fmt.Println(res.Contents[0].Text)
	// Output:
	// warning: "disk almost full"
	// ok
}
