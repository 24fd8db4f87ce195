// Command goclient is fastmcp's client side of the interop matrix: it
// connects to an MCP server written with another SDK (interop/js/v1server.mjs
// or v2server.mjs) and checks every feature that server has, printing one
// line per check and exiting 1 when any fails.
//
//	goclient -name interop-ts-v1 -- node v1server.mjs stdio   # a server subprocess over stdio
//	goclient -name interop-ts-v1 -url http://127.0.0.1:PORT/mcp
//	goclient -name interop-ts-v1 -url http://127.0.0.1:PORT/sse  # legacy HTTP+SSE (after the fallback)
//
// -stateless is for a server that serves each request on its own (the TS
// SDK v2's default for 2025-era HTTP requests): the checks that need it to
// send something outside a request are skipped.
//
// -version pins the protocol revision (default: negotiated, modern when the
// server speaks it); -want-version is the revision the connection must end
// up on.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

const (
	sampledText = "hi from fastmcp"
	rootURI     = "file:///tmp/interop-root"
)

func main() {
	url := flag.String("url", "", "server URL (Streamable HTTP, or legacy SSE)")
	name := flag.String("name", "", "the server name to expect")
	version := flag.String("version", "", "protocol revision to speak (default: negotiated)")
	wantVersion := flag.String("want-version", "", "protocol revision the connection must use")
	stateless := flag.Bool("stateless", false, "the server serves each request on its own (stateless legacy HTTP): it can send no server-to-client requests and no notifications outside a request")
	flag.Parse()
	if (*url == "") == (flag.NArg() == 0) {
		fmt.Fprintln(os.Stderr, "usage: goclient [flags] -url URL | goclient [flags] -- command args...")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r := &run{stateless: *stateless, listChanged: make(chan string, 16)}
	r.main(ctx, *url, flag.Args(), *name, *version, *wantVersion)
	fmt.Printf("%d passed, %d failed\n", r.passed, r.failed)
	if r.failed > 0 {
		os.Exit(1)
	}
}

type run struct {
	passed, failed int
	stateless      bool

	mu          sync.Mutex
	logs        []string // data of notifications/message, in order
	listChanged chan string
}

// check runs fn and prints its outcome.
func (r *run) check(name string, fn func() error) bool {
	if err := fn(); err != nil {
		r.failed++
		fmt.Printf("FAIL %s: %s\n", name, strings.Join(strings.Fields(err.Error()), " "))
		return false
	}
	r.passed++
	fmt.Printf("ok   %s\n", name)
	return true
}

func (r *run) onLog(m *protocol.LoggingMessageParams) {
	var s string
	if protocol.Unmarshal(m.Data, &s) != nil {
		s = string(m.Data)
	}
	r.mu.Lock()
	r.logs = append(r.logs, s)
	r.mu.Unlock()
}

func (r *run) takeLogs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.logs
	r.logs = nil
	return l
}

func (r *run) main(ctx context.Context, url string, command []string, name, version, wantVersion string) {
	opts := []client.Option{
		client.WithInfo("interop-goclient", "1.0.0"),
		client.WithLogHandler(r.onLog),
		client.WithListChangedHandler(func(method string) {
			select {
			case r.listChanged <- method:
			default:
			}
		}),
		client.WithSampling(func(ctx context.Context, req *fastmcp.SamplingRequest) (*fastmcp.SamplingResult, error) {
			if len(req.Messages) == 0 {
				return nil, errors.New("sampling request without messages")
			}
			return &fastmcp.SamplingResult{Role: protocol.RoleAssistant, Content: protocol.SamplingContent{fastmcp.Text(sampledText)}, Model: "interop-model"}, nil
		}),
		client.WithElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
			return &client.ElicitResult{Action: "accept", Content: []byte(`{"name":"gopher"}`)}, nil
		}),
		client.WithRoots(fastmcp.Root{URI: rootURI, Name: "interop"}),
	}
	if version != "" {
		opts = append(opts, client.WithProtocolVersion(version))
	}
	var c *client.Client
	if !r.check("connect", func() (err error) {
		if url != "" {
			c, err = client.ConnectHTTP(ctx, url, opts...)
		} else {
			c, err = client.ConnectCommand(ctx, &client.Command{Path: command[0], Args: command[1:], Stderr: os.Stderr}, opts...)
		}
		return err
	}) {
		return
	}
	defer c.Close()

	r.check("server identity and protocol version", func() error {
		if got := c.ServerInfo().Name; got != name {
			return fmt.Errorf("server name %q, want %q", got, name)
		}
		if wantVersion != "" && c.ProtocolVersion() != wantVersion {
			return fmt.Errorf("protocol version %s, want %s", c.ProtocolVersion(), wantVersion)
		}
		caps := c.ServerCapabilities()
		if caps.Tools == nil || caps.Resources == nil || caps.Prompts == nil {
			return fmt.Errorf("capabilities %+v lack tools, resources or prompts", caps)
		}
		return nil
	})
	r.check("ping", func() error { return c.Ping(ctx) })

	r.check("tools/list", func() error {
		var names []string
		for tool, err := range c.Tools(ctx) {
			if err != nil {
				return err
			}
			names = append(names, tool.Name)
			if tool.Name == "add" && (tool.InputSchema == nil || tool.OutputSchema == nil) {
				return errors.New("add has no input or output schema")
			}
		}
		slices.Sort(names)
		if want := []string{"add", "ask", "countdown", "echo", "fail", "touch"}; !slices.Equal(names, want) {
			return fmt.Errorf("tools %v, want %v", names, want)
		}
		return nil
	})

	r.check("tools/call: structured result", func() error {
		res, err := c.CallTool(ctx, "add", map[string]any{"a": 2, "b": 3})
		if err != nil {
			return err
		}
		if got := text(res.Content); got != "5" || res.IsError {
			return fmt.Errorf("text %q isError %v, want 5", got, res.IsError)
		}
		var sc struct {
			Sum float64 `json:"sum"`
		}
		if err := protocol.Unmarshal(res.StructuredContent, &sc); err != nil || sc.Sum != 5 {
			return fmt.Errorf("structuredContent %s, want {\"sum\":5}", res.StructuredContent)
		}
		return nil
	})

	r.check("tools/call: non-ASCII text round-trips", func() error {
		for _, s := range []string{"Zürich 🌍 \"quoted\" \\ \u2028 <&>", "\x00\x1f\u007f", "  padded  "} {
			res, err := c.CallTool(ctx, "echo", map[string]string{"text": s})
			if err != nil {
				return err
			}
			if got := text(res.Content); got != s || res.IsError {
				return fmt.Errorf("echo %q: got %q (isError %v)", s, got, res.IsError)
			}
		}
		return nil
	})

	r.check("tools/call: progress and log notifications", func() error {
		r.takeLogs()
		var progress []float64
		res, err := c.CallTool(ctx, "countdown", map[string]any{"from": 3}, client.WithProgress(func(p *protocol.ProgressParams) {
			progress = append(progress, p.Progress)
			if p.Total != 3 {
				progress = append(progress, -1)
			}
		}))
		if err != nil {
			return err
		}
		if text(res.Content) != "liftoff" {
			return fmt.Errorf("result %q", text(res.Content))
		}
		if !slices.Equal(progress, []float64{1, 2, 3}) {
			return fmt.Errorf("progress %v, want [1 2 3] of 3", progress)
		}
		if logs := r.takeLogs(); !slices.Equal(logs, []string{"step 1", "step 2", "step 3"}) {
			return fmt.Errorf("logs %q, want step 1..3", logs)
		}
		return nil
	})

	mode := "server-to-client requests"
	if c.Era() == protocol.Modern {
		mode = "input_required"
	}
	if r.stateless {
		fmt.Println("skip sampling, elicitation and roots: a stateless server cannot send server-to-client requests")
	} else {
		r.check("sampling, elicitation and roots ("+mode+")", func() error { return ask(ctx, c) })
	}

	if r.stateless {
		fmt.Println("skip notifications/tools/list_changed: a stateless server has no stream outside a request")
	} else {
		r.check("notifications/tools/list_changed", func() error { return r.toolsChanged(ctx, c) })
	}

	r.check("tools/call: tool error is a result with isError", func() error {
		res, err := c.CallTool(ctx, "fail", nil)
		if err != nil {
			return err
		}
		if !res.IsError || !strings.Contains(text(res.Content), "always fails") {
			return fmt.Errorf("isError %v text %q", res.IsError, text(res.Content))
		}
		return nil
	})

	r.check("tools/call: invalid arguments", func() error {
		res, err := c.CallTool(ctx, "add", map[string]any{"a": "two", "b": 3})
		if errors.Is(err, protocol.ErrInvalidParams) {
			return nil // a protocol error is allowed too
		}
		if err != nil {
			return err
		}
		if !res.IsError {
			return fmt.Errorf("no error for invalid arguments: %q", text(res.Content))
		}
		return nil
	})

	r.check("tools/call: unknown tool", func() error {
		res, err := c.CallTool(ctx, "no_such_tool", nil)
		if err == nil && !res.IsError {
			return errors.New("calling an unknown tool succeeded")
		}
		return nil
	})

	r.check("resources/list and resources/read", func() error {
		var uris []string
		for res, err := range c.Resources(ctx) {
			if err != nil {
				return err
			}
			uris = append(uris, res.URI)
		}
		if !slices.Contains(uris, "interop://greeting") {
			return fmt.Errorf("resources %v lack interop://greeting", uris)
		}
		rr, err := c.ReadResource(ctx, "interop://greeting")
		if err != nil {
			return err
		}
		if len(rr.Contents) != 1 || rr.Contents[0].Text != "hello from TypeScript" || rr.Contents[0].MIMEType != "text/plain" {
			return fmt.Errorf("contents %+v", rr.Contents)
		}
		return nil
	})

	r.check("resources/templates/list and a templated read", func() error {
		var templates []string
		for t, err := range c.ResourceTemplates(ctx) {
			if err != nil {
				return err
			}
			templates = append(templates, t.URITemplate)
		}
		if !slices.Contains(templates, "interop://items/{id}") {
			return fmt.Errorf("templates %v lack interop://items/{id}", templates)
		}
		rr, err := c.ReadResource(ctx, "interop://items/42")
		if err != nil {
			return err
		}
		if len(rr.Contents) != 1 || rr.Contents[0].Text != `{"id":"42"}` {
			return fmt.Errorf("contents %+v", rr.Contents)
		}
		return nil
	})

	r.check("prompts/list and prompts/get", func() error {
		var found *protocol.Prompt
		for p, err := range c.Prompts(ctx) {
			if err != nil {
				return err
			}
			if p.Name == "review" {
				found = p
			}
		}
		if found == nil || len(found.Arguments) != 2 {
			return fmt.Errorf("prompt review missing or without its two arguments: %+v", found)
		}
		pr, err := c.GetPrompt(ctx, "review", map[string]string{"language": "go", "code": "x := 1"})
		if err != nil {
			return err
		}
		if len(pr.Messages) != 1 || text([]fastmcp.Content{pr.Messages[0].Content}) != "Review this go: x := 1" {
			return fmt.Errorf("messages %+v", pr.Messages)
		}
		return nil
	})

	r.check("completion/complete", func() error {
		res, err := c.Complete(ctx, protocol.CompleteReference{Type: "ref/prompt", Name: "review"}, "language", "ja", nil)
		if err != nil {
			return err
		}
		if !slices.Equal(res.Completion.Values, []string{"javascript"}) {
			return fmt.Errorf("values %v, want [javascript]", res.Completion.Values)
		}
		return nil
	})

	r.check("cancellation: cancelled call, then the session still works", func() error {
		cctx, ccancel := context.WithCancel(ctx)
		_, err := c.CallTool(cctx, "countdown", map[string]any{"from": 10}, client.WithProgress(func(*protocol.ProgressParams) { ccancel() }))
		ccancel()
		if err != nil && !errors.Is(err, context.Canceled) {
			return fmt.Errorf("cancelled call: %w", err)
		}
		_, err = c.CallTool(ctx, "add", map[string]any{"a": 1, "b": 1})
		return err
	})

	r.check("close", c.Close)
}

// toolsChanged calls the tool that makes the server send
// notifications/tools/list_changed, and waits for it.
func (r *run) toolsChanged(ctx context.Context, c *client.Client) error {
	if _, err := c.CallTool(ctx, "touch", nil); err != nil {
		return err
	}
	select {
	case m := <-r.listChanged:
		if m != protocol.NotificationToolsListChanged {
			return fmt.Errorf("got %s", m)
		}
		return nil
	case <-time.After(3 * time.Second):
		return errors.New("no notifications/tools/list_changed within 3s")
	}
}

// ask calls the tool that asks the client for a sample, a form and its roots.
func ask(ctx context.Context, c *client.Client) error {
	res, err := c.CallTool(ctx, "ask", nil)
	if err != nil {
		return err
	}
	want := "sample=" + sampledText + " form=accept:gopher roots=" + rootURI
	if got := text(res.Content); got != want || res.IsError {
		return fmt.Errorf("got %q (isError %v), want %q", got, res.IsError, want)
	}
	return nil
}

func text(content []fastmcp.Content) string {
	for _, c := range content {
		if t, ok := c.(*fastmcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}
