// Command sampling shows a tool that asks the client's LLM for a completion
// (sampling/createMessage), and a client that answers with a canned
// handler where a host would call its model. Run it with
//
//	go run ./examples/sampling
//
// The server runs in the same process over HTTP on 127.0.0.1 (a free port).
// It prints:
//
//	client: asked to sample 1 message(s), at most 60 tokens, system prompt "You write one-line summaries."
//	client: prompt: Summarize in one line: MCP lets a server ask the host's model for a completion, so the server needs no API key of its own.
//	result: [canned-llm] MCP lets a server ask the host's model...
package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// SummarizeArgs are the arguments of the summarize tool.
type SummarizeArgs struct {
	Text string `json:"text" jsonschema:"description=the text to summarize" validate:"min=1"`
}

func summarize(ctx *fastmcp.Context, in SummarizeArgs) (string, error) {
	res, err := ctx.Sample(&fastmcp.SamplingRequest{
		SystemPrompt: "You write one-line summaries.",
		Messages: []fastmcp.SamplingMessage{{
			Role:    "user",
			Content: []fastmcp.Content{fastmcp.Text("Summarize in one line: " + in.Text)},
		}},
		MaxTokens: 60,
	})
	if err != nil {
		return "", err // e.g. fastmcp.ErrSamplingUnsupported: the client has no model
	}
	return fmt.Sprintf("[%s] %s", res.Model, textOf(res.Content)), nil
}

// llm is the client's sampling handler. A host would show the request to
// the user and send it to its model; this one answers with the first words.
func llm(out io.Writer) client.SamplingHandler {
	return func(ctx context.Context, req *fastmcp.SamplingRequest) (*fastmcp.SamplingResult, error) {
		fmt.Fprintf(out, "client: asked to sample %d message(s), at most %d tokens, system prompt %q\n",
			len(req.Messages), req.MaxTokens, req.SystemPrompt)
		prompt := textOf(req.Messages[len(req.Messages)-1].Content)
		fmt.Fprintln(out, "client: prompt:", prompt)
		_, text, _ := strings.Cut(prompt, ": ")
		words := strings.Fields(text)
		return &fastmcp.SamplingResult{
			Role:       "assistant",
			Content:    []fastmcp.Content{fastmcp.Text(strings.Join(words[:min(8, len(words))], " ") + "...")},
			Model:      "canned-llm",
			StopReason: "endTurn",
		}, nil
	}
}

// textOf joins the text blocks of sampled content.
func textOf(content []fastmcp.Content) string {
	var parts []string
	for _, c := range content {
		if t, ok := c.(*fastmcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sampling:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a free loopback port
	if err != nil {
		return err
	}
	s := fastmcp.New("summarizer", "1.0.0", fastmcp.Listener(ln))
	s.Tool("summarize", summarize, fastmcp.Description("Summarize a text with the client's model"))
	url, stop, err := serve(ctx, s, ln)
	if err != nil {
		return err
	}
	defer stop()

	cl, err := client.ConnectHTTP(ctx, url, client.WithSampling(llm(out)))
	if err != nil {
		return err
	}
	defer cl.Close()
	res, err := cl.CallTool(ctx, "summarize", SummarizeArgs{
		Text: "MCP lets a server ask the host's model for a completion, so the server needs no API key of its own.",
	})
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("summarize: %s", res.Text())
	}
	fmt.Fprintln(out, "result:", res.Text())
	return nil
}

// serve runs s, made with the option fastmcp.Listener(ln), until stop is
// called, and returns the URL of its MCP endpoint.
func serve(ctx context.Context, s *fastmcp.Server, ln net.Listener) (url string, stop func(), err error) {
	if err := s.Start(ctx); err != nil { // ready before the first request
		ln.Close()
		return "", nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	return "http://" + ln.Addr().String() + "/mcp", func() { cancel(); <-done }, nil
}
