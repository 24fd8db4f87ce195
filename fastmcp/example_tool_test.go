package fastmcp_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// SearchArgs are a tool's arguments: the struct is the schema.
type SearchArgs struct {
	Query string   `json:"query" jsonschema:"description=what to look for" validate:"min=2"`
	Limit int      `json:"limit,omitempty" jsonschema:"description=most results to return,default=10" validate:"omitempty,gte=1,lte=100"`
	Tags  []string `json:"tags,omitempty" validate:"dive,oneof=go rust zig"`
}

// Hit is one search result.
type Hit struct {
	Title string `json:"title"`
	Score int    `json:"score"`
}

var catalogue = []Hit{{"Go concurrency", 9}, {"Go generics", 7}, {"Rust ownership", 8}}

func search(ctx *fastmcp.Context, in SearchArgs) ([]Hit, error) {
	var hits []Hit
	for _, h := range catalogue {
		if strings.Contains(strings.ToLower(h.Title), strings.ToLower(in.Query)) && len(hits) < in.Limit {
			hits = append(hits, h)
		}
	}
	return hits, nil
}

func ExampleServer_Tool() {
	s := fastmcp.New("catalogue", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("search", search, fastmcp.Description("Search the catalogue"), fastmcp.ReadOnly())

	c, stop := serveInMemory(s)
	defer stop()
	ctx := context.Background()
	page, _ := c.ListTools(ctx, "")
	fmt.Println(string(page.Tools[0].InputSchema))

	res, _ := c.CallTool(ctx, "search", map[string]any{"query": "go"})
	fmt.Println(string(res.StructuredContent))

	res, _ = c.CallTool(ctx, "search", map[string]any{"query": "g", "tags": []string{"cobol"}})
	fmt.Println(res.IsError, res.Text())
	// Output:
	// {"type":"object","properties":{"query":{"type":"string","description":"what to look for","minLength":2},"limit":{"type":"integer","description":"most results to return","minimum":1,"maximum":100,"default":10},"tags":{"type":"array","items":{"type":"string","enum":["go","rust","zig"]}}},"required":["query"]}
	// {"result":[{"title":"Go concurrency","score":9},{"title":"Go generics","score":7}]}
	// true invalid arguments for tool search: query: must have at least 2 characters; tags[0]: must be one of "go", "rust", "zig"
}

func build(ctx *fastmcp.Context, in BuildArgs) (string, error) {
	ctx.Info("building", "target", in.Target) // notifications/message + the server's slog logger
	steps := []string{"fetch", "compile", "link"}
	for i, step := range steps {
		ctx.Progress(float64(i+1), float64(len(steps)), step) // only if the client asked for progress
	}
	return "built " + in.Target, nil
}

// BuildArgs are the arguments of the build tool.
type BuildArgs struct {
	Target string `json:"target"`
}

func ExampleContext_Progress() {
	s := fastmcp.New("builder", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("build", build)
	c, stop := serveInMemory(s, client.WithLogHandler(func(m *protocol.LoggingMessageParams) {
		fmt.Printf("log %s: %s\n", m.Level, m.Data)
	}))
	defer stop()
	res, _ := c.CallTool(context.Background(), "build", map[string]string{"target": "app"},
		client.WithProgress(func(p *protocol.ProgressParams) { fmt.Printf("progress %g/%g %s\n", p.Progress, p.Total, p.Message) }))
	fmt.Println(res.Text())
	// Output:
	// log info: {"msg":"building","target":"app"}
	// progress 1/3 fetch
	// progress 2/3 compile
	// progress 3/3 link
	// built app
}

// Shipping is an elicitation form: a flat struct of strings, numbers,
// booleans and enums.
type Shipping struct {
	Name    string `json:"name" jsonschema:"description=Full name"`
	Express bool   `json:"express,omitempty" jsonschema:"default=false"`
	Country string `json:"country" jsonschema:"enum=FR,enum=DE,enum=US"`
}

func ship(ctx *fastmcp.Context) (string, error) {
	var form Shipping
	action, err := ctx.Elicit("Where should we ship?", &form)
	if err != nil {
		return "", err
	}
	if action != fastmcp.ElicitAccept {
		return "not shipped", nil
	}
	return fmt.Sprintf("shipping to %s in %s (express: %v)", form.Name, form.Country, form.Express), nil
}

func ExampleContext_Elicit_form() {
	s := fastmcp.New("shop", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("ship", ship)
	c, stop := serveInMemory(s, client.WithElicitation(
		func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
			fmt.Println(string(req.RequestedSchema))
			// The user leaves "express" empty: the client fills its default.
			return client.AcceptElicitation(map[string]string{"name": "Ada", "country": "FR"})
		}))
	defer stop()
	res, _ := c.CallTool(context.Background(), "ship", nil)
	fmt.Println(res.Text())
	// Output:
	// {"type":"object","properties":{"name":{"type":"string","description":"Full name"},"express":{"type":"boolean","default":false},"country":{"type":"string","enum":["FR","DE","US"]}},"required":["name","country"]}
	// shipping to Ada in FR (express: false)
}

// register registers a tool from data: a mistake comes back as an error
// instead of a panic.
func register(s *fastmcp.Server, name string, fn any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			if !ok || !errors.Is(e, fastmcp.ErrRegistration) {
				panic(r)
			}
			err = e
		}
	}()
	s.Tool(name, fn)
	return nil
}

// ExampleErrRegistration registers tools named in data (a config file, a
// plugin list), recovering a registration mistake as an error.
func ExampleErrRegistration() {
	s := fastmcp.New("plugins", "1.0.0")
	add := func(in struct {
		A int `json:"a"`
		B int `json:"b"`
	}) int {
		return in.A + in.B
	}
	for _, name := range []string{"add", "add", "bad name"} {
		if err := register(s, name, add); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// fastmcp: tool "add" is already registered: choose another name or call RemoveTool first
	// fastmcp: tool name "bad name": character ' ' is not allowed: use only letters, digits, '_', '-', '.' and '/'
}
