package fastmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

type AddArgs struct {
	A int `json:"a" jsonschema:"description=first addend"`
	B int `json:"b" jsonschema:"description=second addend" validate:"gte=0"`
}

type Sum struct {
	Sum int `json:"sum"`
}

func textOf(t *testing.T, res *fastmcp.ToolResult) string {
	t.Helper()
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*fastmcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "|")
}

func TestHandlerShapes(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("ctx_args", func(ctx *fastmcp.Context, in AddArgs) (int, error) { return in.A + in.B, nil })
	s.Tool("std_ctx_args", func(ctx context.Context, in AddArgs) (int, error) { return in.A + in.B, nil })
	s.Tool("args_only", func(in AddArgs) (int, error) { return in.A + in.B, nil })
	s.Tool("ptr_args", func(in *AddArgs) (int, error) { return in.A + in.B, nil })
	s.Tool("ctx_only", func(ctx *fastmcp.Context) (string, error) { return "no args", nil })
	s.Tool("lone_result", func(in AddArgs) int { return in.A + in.B })
	s.Tool("lone_error", func(ctx *fastmcp.Context, in AddArgs) error { return nil })
	s.Tool("no_params", func() string { return "hi" })
	// A context.Context handler is given the request's *fastmcp.Context.
	s.Tool("std_ctx_is_fastmcp", func(ctx context.Context) (string, error) {
		fc, ok := ctx.(*fastmcp.Context)
		if !ok || !fc.RequestID().IsValid() {
			return "", fmt.Errorf("handler got %T, want the request's *fastmcp.Context", ctx)
		}
		return "fastmcp context", nil
	})
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		c := connect(t, s, era)
		for _, tc := range []struct{ tool, want string }{
			{"ctx_args", "5"}, {"std_ctx_args", "5"}, {"args_only", "5"}, {"ptr_args", "5"},
			{"ctx_only", "no args"}, {"lone_result", "5"}, {"lone_error", ""}, {"no_params", "hi"},
			{"std_ctx_is_fastmcp", "fastmcp context"},
		} {
			t.Run(tc.tool, func(t *testing.T) {
				res, err := c.CallTool(ctxT(t), tc.tool, map[string]int{"a": 2, "b": 3})
				if err != nil {
					t.Fatal(err)
				}
				if res.IsError || textOf(t, res) != tc.want {
					t.Fatalf("result = %q (isError %v), want %q", textOf(t, res), res.IsError, tc.want)
				}
			})
		}
	})
}

func TestRegistrationErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		fn   any
		want string
	}{
		{"add", func(a, b int) int { return a + b }, "put the arguments in a struct"},
		{"add", func(a int) int { return a }, "put the arguments in a struct"},
		{"add", 42, "not a function"},
		{"add", nil, "handler is nil"},
		{"add", func(in AddArgs) {}, "returns nothing"},
		{"add", func(in AddArgs) (int, int) { return 0, 0 }, "second result must be error"},
		{"add", func(ctx context.Context, in AddArgs, x int) int { return 0 }, "put the arguments in a struct"},
		{"bad name", func() string { return "" }, "character ' ' is not allowed"},
		{"", func() string { return "" }, "must be 1 to 64 characters"},
		{strings.Repeat("x", 65), func() string { return "" }, "must be 1 to 64 characters"},
		{"m", func(in map[string]any) string { return "" }, "give its schema with fastmcp.InputSchema"},
	}
	for _, tc := range cases {
		s := newServer()
		err := registerErr(t, func() { s.Tool(tc.name, tc.fn) })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Tool(%q, %T) panicked with %v, want an error containing %q", tc.name, tc.fn, err, tc.want)
		}
	}
	// The example from the issue: the message says how to fix it.
	err := registerErr(t, func() { newServer().Tool("add", func(a, b int) int { return a + b }) })
	if got := err.Error(); !strings.Contains(got, `fastmcp: tool "add": handler func(int, int) int: put the arguments in a struct`) ||
		!strings.Contains(got, "func(ctx *fastmcp.Context, in Args) (R, error)") {
		t.Errorf("message = %q", got)
	}
	// A name twice is an error.
	s := newServer()
	s.Tool("add", func(in AddArgs) int { return 0 })
	if err := registerErr(t, func() { s.Tool("add", func(in AddArgs) int { return 0 }) }); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Errorf("duplicate: %v", err)
	}
}

func TestResultKinds(t *testing.T) {
	t.Parallel()
	png := []byte{0x89, 'P', 'N', 'G'}
	s := newServer()
	s.Tool("text", func() string { return "plain" })
	s.Tool("content", func() fastmcp.Content { return fastmcp.Image(png, "image/png") })
	s.Tool("contents", func() []fastmcp.Content {
		return []fastmcp.Content{fastmcp.Text("a"), fastmcp.EmbeddedText("test://x", "text/plain", "b")}
	})
	s.Tool("result", func() *fastmcp.ToolResult {
		return &fastmcp.ToolResult{Content: []fastmcp.Content{fastmcp.Text("custom")}, IsError: true}
	})
	s.Tool("struct", func() Sum { return Sum{Sum: 7} })
	s.Tool("slice", func() []int { return []int{1, 2} })
	s.Tool("map", func() map[string]int { return map[string]int{"x": 1} })
	s.Tool("anyval", func() any { return 3.5 })
	c := connect(t, s)
	check := func(tool, text, structured string, isErr bool) {
		t.Helper()
		res, err := c.CallTool(ctxT(t), tool, nil)
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		if got := textOf(t, res); got != text {
			t.Errorf("%s: text = %q, want %q", tool, got, text)
		}
		if string(res.StructuredContent) != structured {
			t.Errorf("%s: structured = %s, want %s", tool, res.StructuredContent, structured)
		}
		if res.IsError != isErr {
			t.Errorf("%s: isError = %v", tool, res.IsError)
		}
	}
	check("text", "plain", "", false)
	check("struct", `{"sum":7}`, `{"sum":7}`, false)
	check("slice", `[1,2]`, `{"result":[1,2]}`, false)
	check("map", `{"x":1}`, `{"x":1}`, false)
	check("anyval", `3.5`, `{"result":3.5}`, false)
	check("result", "custom", "", true)
	res, err := c.CallTool(ctxT(t), "content", nil)
	if err != nil {
		t.Fatal(err)
	}
	if img, ok := res.Content[0].(*fastmcp.ImageContent); !ok || string(img.Data) != string(png) || img.MIMEType != "image/png" {
		t.Errorf("content = %#v", res.Content[0])
	}
	res, err = c.CallTool(ctxT(t), "contents", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 2 {
		t.Fatalf("contents = %d blocks", len(res.Content))
	}
	if er, ok := res.Content[1].(*fastmcp.EmbeddedResource); !ok || er.Resource.Text != "b" {
		t.Errorf("embedded = %#v", res.Content[1])
	}
	// Output schemas are published for structured results.
	tools := map[string]*protocol.Tool{}
	for tool, err := range c.Tools(ctxT(t)) {
		if err != nil {
			t.Fatal(err)
		}
		tools[tool.Name] = tool
	}
	if got := string(tools["struct"].OutputSchema); !strings.Contains(got, `"sum"`) {
		t.Errorf("struct output schema = %s", got)
	}
	if got := string(tools["slice"].OutputSchema); !strings.Contains(got, `"result"`) {
		t.Errorf("slice output schema = %s", got)
	}
	if tools["text"].OutputSchema != nil {
		t.Errorf("text tool has an output schema")
	}
}

var errBoom = errors.New("boom: the disk is full")

func TestErrorPaths(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("add", func(in AddArgs) (int, error) { return in.A + in.B, nil })
	s.Tool("fails", func() (string, error) { return "", errBoom })
	s.Tool("protocol_error", func() (string, error) {
		return "", fmt.Errorf("%w: nope", protocol.ErrInvalidParams)
	})
	s.Tool("panics", func() (string, error) { panic("kaboom") })
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		c := connect(t, s, era)

		res, err := c.CallTool(ctxT(t), "fails", nil)
		if err != nil || !res.IsError || textOf(t, res) != errBoom.Error() {
			t.Errorf("returned error: res=%+v err=%v", res, err)
		}
		_, err = c.CallTool(ctxT(t), "protocol_error", nil)
		if !errors.Is(err, protocol.ErrInvalidParams) || !strings.Contains(err.Error(), "nope") {
			t.Errorf("protocol error: %v", err)
		}
		res, err = c.CallTool(ctxT(t), "panics", nil)
		if err != nil || !res.IsError || !strings.Contains(textOf(t, res), "internal error") {
			t.Errorf("panic: res=%+v err=%v", res, err)
		}
		// The session lives on after a panic.
		if res, err := c.CallTool(ctxT(t), "add", map[string]int{"a": 1, "b": 1}); err != nil || textOf(t, res) != "2" {
			t.Errorf("after panic: %v %v", res, err)
		}
		_, err = c.CallTool(ctxT(t), "nope", nil)
		if !errors.Is(err, protocol.ErrInvalidParams) || !strings.Contains(err.Error(), `unknown tool "nope"`) {
			t.Errorf("unknown tool: %v", err)
		}
	})
	c := connect(t, s, legacy)
	var raw json.RawMessage
	err := c.Call(ctxT(t), "tools/call", json.RawMessage(`{"name":"add","arguments":[1,2]}`), &raw)
	if !errors.Is(err, protocol.ErrInvalidParams) {
		t.Errorf("array arguments: %v", err)
	}
	err = c.Call(ctxT(t), "tools/call", json.RawMessage(`["add"]`), &raw)
	if !errors.Is(err, protocol.ErrInvalidParams) {
		t.Errorf("array params: %v", err)
	}
}

func TestArgumentValidation(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("add", func(in AddArgs) (int, error) { return in.A + in.B, nil })
	type Strict struct {
		Name string `json:"name"`
	}
	s.Tool("strict", func(in Strict) string { return in.Name }, fastmcp.Strict(true))
	c := connect(t, s, legacy)
	cases := []struct {
		tool string
		args string
		want []string
	}{
		{"add", `{"a":1}`, []string{"b", "required"}},
		{"add", `{"a":"x","b":1}`, []string{"a", "integer"}},
		{"add", `{"a":1,"b":-2}`, []string{"b", ">= 0"}},
		{"add", `{"A":1,"b":2}`, []string{"a", "required"}}, // case-sensitive: "A" is not "a"
		{"add", `{}`, []string{"a", "b"}},
		{"strict", `{"name":"x","extra":1}`, []string{"extra"}},
	}
	for _, tc := range cases {
		var res fastmcp.ToolResult
		err := c.Call(ctxT(t), "tools/call", json.RawMessage(`{"name":"`+tc.tool+`","arguments":`+tc.args+`}`), &res)
		if err != nil {
			t.Errorf("%s %s: protocol error %v, want an isError result", tc.tool, tc.args, err)
			continue
		}
		text := textOf(t, &res)
		if !res.IsError {
			t.Errorf("%s %s: not an error: %s", tc.tool, tc.args, text)
		}
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %s: %q lacks %q", tc.tool, tc.args, text, w)
			}
		}
	}
	// Duplicate keys are rejected.
	var res fastmcp.ToolResult
	err := c.Call(ctxT(t), "tools/call", json.RawMessage(`{"name":"add","arguments":{"a":1,"a":2,"b":0}}`), &res)
	if err == nil && !res.IsError {
		t.Errorf("duplicate keys accepted: %s", textOf(t, &res))
	}
}

func TestListPaginationAndChanges(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.PageSize(3))
	for i := range 7 {
		s.Tool(fmt.Sprintf("tool%02d", i), func() string { return "" })
	}
	changed := make(chan string, 10)
	c := connect(t, s, legacy, client.WithListChangedHandler(func(m string) { changed <- m }))
	page, err := c.ListTools(ctxT(t), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Tools) != 3 || page.NextCursor == "" || page.Tools[0].Name != "tool00" {
		t.Fatalf("first page = %d tools, cursor %q", len(page.Tools), page.NextCursor)
	}
	var names []string
	for tool, err := range c.Tools(ctxT(t)) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	if len(names) != 7 || names[6] != "tool06" {
		t.Fatalf("all tools = %v", names)
	}
	if _, err := c.ListTools(ctxT(t), "not-a-cursor"); !errors.Is(err, protocol.ErrInvalidParams) {
		t.Fatalf("invalid cursor: %v", err)
	}
	s.Tool("late", func() string { return "" })
	select {
	case m := <-changed:
		if m != protocol.NotificationToolsListChanged {
			t.Fatalf("notification %s", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no list_changed after Tool")
	}
	if !s.RemoveTool("late") || s.RemoveTool("late") {
		t.Fatal("RemoveTool results wrong")
	}
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no list_changed after RemoveTool")
	}
	if c.ServerCapabilities().Tools == nil || !c.ServerCapabilities().Tools.ListChanged {
		t.Fatal("tools capability not declared")
	}
}

func TestContextLogsAndProgress(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("work", func(ctx *fastmcp.Context) (string, error) {
		ctx.Debug("debug line")
		ctx.Info("info line", "step", 1)
		ctx.Warning("warning line")
		for i := 1; i <= 3; i++ {
			if err := ctx.Progress(float64(i), 3, "step"); err != nil {
				return "", err
			}
		}
		return "done", nil
	})
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		var mu sync.Mutex
		var logs []string
		c := connect(t, s, era, client.WithLogHandler(func(m *protocol.LoggingMessageParams) {
			mu.Lock()
			logs = append(logs, string(m.Level)+":"+string(m.Data))
			mu.Unlock()
		}))
		var progress []float64
		if _, err := c.CallTool(ctxT(t), "work", nil, client.WithProgress(func(p *protocol.ProgressParams) {
			progress = append(progress, p.Progress)
		})); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		got := strings.Join(logs, " ")
		mu.Unlock()
		want := `debug:"debug line" info:{"msg":"info line","step":1} warning:"warning line"`
		if got != want {
			t.Errorf("logs = %s\nwant   %s", got, want)
		}
		if fmt.Sprint(progress) != "[1 2 3]" {
			t.Errorf("progress = %v", progress)
		}
	})
	// With level warning, lower levels are not sent: set by logging/setLevel
	// on a legacy session, in each request's _meta on 2026-07-28.
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		var mu sync.Mutex
		var logs []string
		c := connect(t, s, era, client.WithLogLevel(protocol.LevelWarning), client.WithLogHandler(func(m *protocol.LoggingMessageParams) {
			mu.Lock()
			logs = append(logs, string(m.Level)+":"+string(m.Data))
			mu.Unlock()
		}))
		if _, err := c.CallTool(ctxT(t), "work", nil); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if strings.Join(logs, " ") != `warning:"warning line"` {
			t.Errorf("with level warning: %v", logs)
		}
	})
}

func TestCancellationEndToEnd(t *testing.T) {
	t.Parallel()
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		s := newServer()
		started := make(chan struct{})
		stopped := make(chan error, 1)
		s.Tool("block", func(ctx *fastmcp.Context) (string, error) {
			close(started)
			<-ctx.Done()
			stopped <- context.Cause(ctx)
			return "", ctx.Err()
		})
		c := connect(t, s, era)
		ctx, cancel := context.WithCancel(ctxT(t))
		errc := make(chan error, 1)
		go func() {
			_, err := c.CallTool(ctx, "block", nil)
			errc <- err
		}()
		<-started
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Fatalf("CallTool = %v, want context.Canceled", err)
		}
		select {
		case <-stopped:
		case <-time.After(5 * time.Second):
			t.Fatal("handler's context was not cancelled")
		}
	})
}

func TestToolAnnotationsAndMetadata(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("annotated", func() string { return "" },
		fastmcp.Description("does things"), fastmcp.Title("Annotated"),
		fastmcp.ReadOnly(), fastmcp.Idempotent(), fastmcp.ClosedWorld(), fastmcp.NonDestructive(),
		fastmcp.Icons(protocol.Icon{Src: "https://example.com/i.png", MIMEType: "image/png"}),
		fastmcp.Meta(protocol.Meta{"com.example/k": "v"}))
	c := connect(t, s)
	page, err := c.ListTools(ctxT(t), "")
	if err != nil {
		t.Fatal(err)
	}
	tool := page.Tools[0]
	a := tool.Annotations
	if tool.Description != "does things" || tool.Title != "Annotated" || a == nil || !*a.ReadOnlyHint || !*a.IdempotentHint || *a.OpenWorldHint || a.DestructiveHint == nil || *a.DestructiveHint {
		t.Fatalf("tool = %+v annotations %+v", tool, a)
	}
	if len(tool.Icons) != 1 || tool.Meta["com.example/k"] != "v" {
		t.Fatalf("icons/meta = %+v %+v", tool.Icons, tool.Meta)
	}
	if string(tool.InputSchema) != `{"type":"object"}` {
		t.Fatalf("input schema of a no-argument tool = %s", tool.InputSchema)
	}
}

func TestRawInputSchema(t *testing.T) {
	t.Parallel()
	const schema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"}},"additionalProperties":false}`
	s := newServer()
	s.Tool("json_schema_2020_12_tool", func(in map[string]any) (map[string]any, error) { return in, nil },
		fastmcp.InputSchema([]byte(schema)), fastmcp.Description("echo"))
	c := connect(t, s)
	page, err := c.ListTools(ctxT(t), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := string(page.Tools[0].InputSchema); got != schema {
		t.Fatalf("schema not byte for byte:\n got %s\nwant %s", got, schema)
	}
	res, err := c.CallTool(ctxT(t), "json_schema_2020_12_tool", map[string]any{"name": "x", "address": map[string]any{"city": "Paris"}})
	if err != nil || res.IsError {
		t.Fatalf("valid call: %v %v", res, err)
	}
	res, err = c.CallTool(ctxT(t), "json_schema_2020_12_tool", map[string]any{"name": "x", "other": 1})
	if err != nil || !res.IsError {
		t.Fatalf("additionalProperties not enforced: %v %v", textOf(t, res), err)
	}
	res, err = c.CallTool(ctxT(t), "json_schema_2020_12_tool", map[string]any{"address": map[string]any{"city": 5}})
	if err != nil || !res.IsError || !strings.Contains(textOf(t, res), "city") {
		t.Fatalf("$ref not resolved for validation: %v %v", res, err)
	}
}

func TestListChangedModern(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("first", func() string { return "" })
	s.Prompt("p", func() string { return "" }, fastmcp.Description("a prompt"))
	changed := make(chan string, 10)
	c := connect(t, s, client.WithProtocolVersion(protocol.Version20260728), client.WithListChangedHandler(func(m string) { changed <- m }))
	if c.Era() != protocol.Modern {
		t.Fatal("client is not modern")
	}
	s.Tool("second", func() string { return "" })
	select {
	case m := <-changed:
		if m != protocol.NotificationToolsListChanged {
			t.Fatalf("notification %s", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no list_changed on the subscriptions/listen stream")
	}
	s.NotifyPromptsChanged()
	select {
	case m := <-changed:
		if m != protocol.NotificationPromptsListChanged {
			t.Fatalf("notification %s", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no prompts list_changed")
	}
}
