package fastmcp_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/session"
)

// IssueQuery are the arguments of a generic issue search, as a generated
// or mounted tool might have them.
type IssueQuery struct {
	Repo  string `json:"repo" jsonschema:"description=owner/name" validate:"contains=/"`
	Q     string `json:"q"`
	State string `json:"state,omitempty" validate:"omitempty,oneof=open closed all"`
}

func searchIssues(in IssueQuery) (string, error) {
	return fmt.Sprintf("%s issues in %s matching %q", in.State, in.Repo, in.Q), nil
}

func ExampleServer_TransformTool() {
	s := fastmcp.New("issues", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("search_issues", searchIssues)

	s.TransformTool("search_issues", "find_bugs",
		fastmcp.Description("Find bugs in fastmcp's own repository"),
		fastmcp.TransformArg("q", fastmcp.ArgTransform{Rename: "query", Description: "words in the bug's title"}),
		fastmcp.TransformArg("repo", fastmcp.ArgTransform{Hide: true, Default: "fastmcp-go/fastmcp"}),
		fastmcp.TransformArg("state", fastmcp.ArgTransform{Default: "open"}),
	)
	s.Disable(fastmcp.Selector{Names: []string{"search_issues"}}) // serve only the derived tool

	c, stop := serveInMemory(s)
	defer stop()
	ctx := context.Background()
	page, _ := c.ListTools(ctx, "")
	fmt.Println(page.Tools[0].Name, string(page.Tools[0].InputSchema))

	res, _ := c.CallTool(ctx, "find_bugs", map[string]any{"query": "panic"})
	fmt.Println(res.Text())
	res, _ = c.CallTool(ctx, "find_bugs", map[string]any{"query": "panic", "repo": "someone/else"})
	fmt.Println(res.IsError, res.Text())
	// Output:
	// find_bugs {"type":"object","properties":{"query":{"type":"string","description":"words in the bug's title"},"state":{"type":"string","enum":["open","closed","all"],"default":"open"}},"required":["query"]}
	// open issues in fastmcp-go/fastmcp matching "panic"
	// true invalid arguments for tool find_bugs: repo: is not an argument of this tool
}

func ExampleWrapCall() {
	s := fastmcp.New("issues", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("search_issues", searchIssues)

	s.TransformTool("search_issues", "search_my_issues",
		// The repository is the caller's own: computed for every call.
		fastmcp.TransformArg("repo", fastmcp.ArgTransform{Hide: true, Value: func(ctx *fastmcp.Context) (any, error) {
			return "users/" + ctx.ClientInfo().Name, nil
		}}),
		fastmcp.WrapCall(func(ctx *fastmcp.Context, args map[string]any, next func(map[string]any) (*fastmcp.ToolResult, error)) (*fastmcp.ToolResult, error) {
			args["q"] = strings.TrimSpace(args["q"].(string))
			res, err := next(args)
			if err == nil && !res.IsError {
				res.Content = append(res.Content, fastmcp.Text("(searched by search_my_issues)"))
			}
			return res, err
		}),
	)

	c, stop := serveInMemory(s, client.WithInfo("alice", "1.0.0"))
	defer stop()
	res, _ := c.CallTool(context.Background(), "search_my_issues", map[string]any{"q": "  flaky test  ", "state": "all"})
	fmt.Println(res.Text())
	// Output:
	// all issues in users/alice matching "flaky test"
	// (searched by search_my_issues)
}

func ExampleServer_Disable() {
	s := fastmcp.New("ops", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("status", func() (string, error) { return "all good", nil }, fastmcp.Tags("read"))
	s.Tool("restart", func() (string, error) { return "restarted", nil }, fastmcp.Tags("write", "admin"))
	s.Tool("drain", func() (string, error) { return "drained", nil }, fastmcp.Tags("write"))

	c, stop := serveInMemory(s)
	defer stop()
	ctx := context.Background()
	names := func() (out []string) {
		page, _ := c.ListTools(ctx, "")
		for _, t := range page.Tools {
			out = append(out, t.Name)
		}
		return out
	}

	s.Disable(fastmcp.Selector{Tags: []string{"write"}}) // a read-only window
	fmt.Println(names())
	_, err := c.CallTool(ctx, "drain", nil)
	fmt.Println(err)

	s.Enable(fastmcp.Selector{Names: []string{"drain"}}) // an exception
	fmt.Println(names())
	// Output:
	// [status]
	// Invalid params: unknown tool "drain"
	// [drain status]
}

func ExampleVisibility() {
	isAdmin := func(r *session.Request) bool {
		// Over HTTP, decide from the caller's token or principal:
		// authinfo.FromContext(r.HTTP.Context), r.HTTP.Principal.
		info := r.ClientInfo()
		return info != nil && info.Name == "ops-console"
	}
	s := fastmcp.New("ops", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)),
		fastmcp.Visibility(func(r *session.Request, c fastmcp.Component) bool {
			return !c.HasTag("admin") || isAdmin(r)
		}))
	s.Tool("status", func() (string, error) { return "all good", nil })
	s.Tool("restart", func() (string, error) { return "restarted", nil }, fastmcp.Tags("admin"))

	ctx := context.Background()
	for _, name := range []string{"chat-app", "ops-console"} {
		c, stop := serveInMemory(s, client.WithInfo(name, "1.0.0"))
		page, _ := c.ListTools(ctx, "")
		_, err := c.CallTool(ctx, "restart", nil)
		fmt.Println(name, len(page.Tools), err)
		stop()
	}
	// Output:
	// chat-app 1 Invalid params: unknown tool "restart"
	// ops-console 2 <nil>
}

func ExampleSelector() {
	s := fastmcp.New("catalogue", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("list_pets", func() (string, error) { return "cat, dog", nil }, fastmcp.Tags("public"))
	s.Tool("delete_pet", func() (string, error) { return "deleted", nil }, fastmcp.Tags("admin"))
	s.Prompt("adopt", func() (string, error) { return "Adopt a pet", nil })

	s.Disable(fastmcp.Selector{All: true})
	s.Enable(fastmcp.Selector{Tags: []string{"public"}}) // only the public ones

	c, stop := serveInMemory(s)
	defer stop()
	tools, _ := c.ListTools(context.Background(), "")
	prompts, _ := c.ListPrompts(context.Background(), "")
	fmt.Println(len(tools.Tools), tools.Tools[0].Name, len(prompts.Prompts))
	// Output:
	// 1 list_pets 0
}
