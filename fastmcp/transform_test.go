package fastmcp_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

type xfArgs struct {
	Q     string `json:"q" jsonschema:"description=what to look for"`
	Repo  string `json:"repo" validate:"contains=/"`
	Limit int    `json:"limit,omitempty" validate:"omitempty,min=1,max=50"`
}

type xfOut struct {
	Q     string `json:"q"`
	Repo  string `json:"repo"`
	Limit int    `json:"limit"`
}

func xfSearch(in xfArgs) (xfOut, error) {
	return xfOut(in), nil
}

// schemaOf returns the input schema of the tool name as c lists it.
func schemaOf(t *testing.T, c *client.Client, name string) map[string]any {
	t.Helper()
	page, err := c.ListTools(ctxT(t), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range page.Tools {
		if tl.Name == name {
			var m map[string]any
			if err := json.Unmarshal(tl.InputSchema, &m); err != nil {
				t.Fatal(err)
			}
			return m
		}
	}
	t.Fatalf("tool %s not listed", name)
	return nil
}

// TestTransformTool: the derived tool publishes renamed, described,
// defaulted arguments and none of the hidden one; the client's calls are
// validated against that schema, mapped back to the source's names, the
// hidden argument never taken from the client, and the source's own
// validation still holds; over both eras.
func TestTransformTool(t *testing.T) {
	bothEras(t, func(t *testing.T, opt client.Option, _ bool) {
		s := newServer()
		s.Tool("search", xfSearch, fastmcp.Tags("github"))
		s.TransformTool("search", "find_bugs",
			fastmcp.Description("Find bugs in our repository"),
			fastmcp.TransformArg("q", fastmcp.ArgTransform{Rename: "query", Description: "words in the bug's title"}),
			fastmcp.TransformArg("repo", fastmcp.ArgTransform{Hide: true, Default: "fastmcp-go/fastmcp"}),
			fastmcp.TransformArg("limit", fastmcp.ArgTransform{Default: 5}),
		)
		c := connect(t, s, opt)

		sch := schemaOf(t, c, "find_bugs")
		props := sch["properties"].(map[string]any)
		if _, ok := props["repo"]; ok {
			t.Errorf("hidden argument published: %v", props)
		}
		if _, ok := props["q"]; ok {
			t.Errorf("old name published: %v", props)
		}
		q := props["query"].(map[string]any)
		if q["description"] != "words in the bug's title" {
			t.Errorf("query = %v", q)
		}
		if l := props["limit"].(map[string]any); l["default"] != float64(5) || l["minimum"] != float64(1) {
			t.Errorf("limit = %v (its default and its source's constraints)", l)
		}
		if req := sch["required"]; !slices.Equal(anyStrings(req), []string{"query"}) {
			t.Errorf("required = %v", req)
		}

		tests := []struct {
			args    string
			want    xfOut
			wantErr string
		}{
			{`{"query":"panic"}`, xfOut{"panic", "fastmcp-go/fastmcp", 5}, ""},
			{`{"query":"panic","limit":7}`, xfOut{"panic", "fastmcp-go/fastmcp", 7}, ""},
			{`{"query":"panic","repo":"evil/repo"}`, xfOut{}, "repo: is not an argument of this tool"},
			{`{"q":"panic"}`, xfOut{}, "query"},
			{`{"query":"panic","limit":0}`, xfOut{}, "limit: must be >= 1"},
			{`{"query":"panic","limit":99}`, xfOut{}, "limit: must be <= 50"},
			{`{"query":5}`, xfOut{}, "invalid arguments for tool find_bugs: query: must be string"},
			{`{}`, xfOut{}, "invalid arguments for tool find_bugs: query: is required"},
		}
		for _, tc := range tests {
			res, err := c.CallTool(ctxT(t), "find_bugs", json.RawMessage(tc.args))
			if err != nil {
				t.Fatalf("%s: %v", tc.args, err)
			}
			if tc.wantErr != "" {
				if !res.IsError || !strings.Contains(resultText(res), tc.wantErr) {
					t.Errorf("%s: got %v %q, want an error with %q", tc.args, res.IsError, resultText(res), tc.wantErr)
				}
				continue
			}
			var got xfOut
			if res.IsError || json.Unmarshal(res.StructuredContent, &got) != nil || got != tc.want {
				t.Errorf("%s: got %v %s, want %+v", tc.args, res.IsError, res.StructuredContent, tc.want)
			}
		}

		// The original serves on, until disabled; the derived one then
		// still works.
		s.Disable(fastmcp.Selector{Names: []string{"search"}})
		page, err := c.ListTools(ctxT(t), "")
		if err != nil || len(page.Tools) != 1 || page.Tools[0].Name != "find_bugs" || page.Tools[0].Description != "Find bugs in our repository" {
			t.Fatalf("after Disable(search): %+v %v", page, err)
		}
		if res, err := c.CallTool(ctxT(t), "find_bugs", map[string]any{"query": "x"}); err != nil || res.IsError {
			t.Fatalf("derived tool after its source was disabled: %v %v", res, err)
		}
	})
}

func anyStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func resultText(res *client.ToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*fastmcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestTransformWrapAndValue: a hidden argument computed per call from the
// Context, and a WrapCall that rewrites the arguments and the result.
func TestTransformWrapAndValue(t *testing.T) {
	s := newServer()
	s.Tool("search", xfSearch)
	s.TransformTool("search", "shout",
		fastmcp.TransformArg("repo", fastmcp.ArgTransform{Hide: true, Value: func(ctx *fastmcp.Context) (any, error) {
			if info := ctx.ClientInfo(); info != nil && info.Name == "mallory" {
				return nil, errors.New("no repository for you")
			}
			return "users/" + ctx.ClientInfo().Name, nil
		}}),
		fastmcp.WrapCall(func(ctx *fastmcp.Context, args map[string]any, next func(map[string]any) (*fastmcp.ToolResult, error)) (*fastmcp.ToolResult, error) {
			args["q"] = strings.ToUpper(args["q"].(string))
			res, err := next(args)
			if err != nil || res.IsError {
				return res, err
			}
			res.Content = append(res.Content, fastmcp.Text("wrapped"))
			return res, nil
		}),
	)
	c := connect(t, s, client.WithInfo("alice", "1"))
	res, err := c.CallTool(ctxT(t), "shout", map[string]any{"q": "hi"})
	if err != nil {
		t.Fatal(err)
	}
	var got xfOut
	if err := json.Unmarshal(res.StructuredContent, &got); err != nil || got.Q != "HI" || got.Repo != "users/alice" || !strings.Contains(resultText(res), "wrapped") {
		t.Fatalf("got %+v %q %v", got, resultText(res), err)
	}
	m := connect(t, s, client.WithInfo("mallory", "1"))
	res, err = m.CallTool(ctxT(t), "shout", map[string]any{"q": "hi"})
	if err != nil || !res.IsError || !strings.Contains(resultText(res), "no repository for you") {
		t.Fatalf("Value's error: %v %q", err, resultText(res))
	}
}

// TestTransformMounted: a tool of a mounted server is transformed on the
// parent; the derived tool follows its source as the mounted server adds
// and removes it, with list_changed each time.
func TestTransformMounted(t *testing.T) {
	child := newServer()
	child.Tool("search", xfSearch)
	parent := newServer()
	parent.Mount("gh", child)
	parent.TransformTool("gh_search", "find",
		fastmcp.TransformArg("repo", fastmcp.ArgTransform{Hide: true, Default: "a/b"}))
	parent.TransformTool("gh_later", "later_renamed",
		fastmcp.TransformArg("q", fastmcp.ArgTransform{Rename: "text"}))

	var mu sync.Mutex
	changes := 0
	c := connect(t, parent, client.WithListChangedHandler(func(string) { mu.Lock(); changes++; mu.Unlock() }))
	res, err := c.CallTool(ctxT(t), "find", map[string]any{"q": "x"})
	var got xfOut
	if err != nil || res.IsError || json.Unmarshal(res.StructuredContent, &got) != nil || got.Repo != "a/b" || got.Q != "x" {
		t.Fatalf("forwarded derived call: %v %v %s", res, err, resultText(res))
	}
	if _, err := c.CallTool(ctxT(t), "later_renamed", map[string]any{"text": "x"}); err == nil {
		t.Fatal("a tool derived from a source not yet there is callable")
	}

	child.Tool("later", xfSearch)
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return changes > 0 })
	res, err = c.CallTool(ctxT(t), "later_renamed", map[string]any{"text": "y", "repo": "c/d"})
	if err != nil || res.IsError || json.Unmarshal(res.StructuredContent, &got) != nil || got.Q != "y" {
		t.Fatalf("derived after its source came: %v %v", err, resultText(res))
	}
	child.RemoveTool("later")
	if _, err := c.CallTool(ctxT(t), "later_renamed", map[string]any{"text": "y", "repo": "c/d"}); err == nil {
		t.Fatal("a derived tool outlived its source")
	}
}

// TestTransformRegistrationErrors: mistakes fail at registration with an
// ErrRegistration saying what to fix.
func TestTransformRegistrationErrors(t *testing.T) {
	tests := []struct {
		name, source, to string
		opts             []fastmcp.TransformOption
		want             string
	}{
		{"unknown source", "nope", "x", nil, `no tool "nope" is registered`},
		{"taken name", "search", "search", nil, "already registered"},
		{"unknown argument", "search", "x", []fastmcp.TransformOption{fastmcp.TransformArg("query", fastmcp.ArgTransform{Rename: "q2"})}, `no argument "query" (its arguments: limit, q, repo)`},
		{"hidden required", "search", "x", []fastmcp.TransformOption{fastmcp.TransformArg("repo", fastmcp.ArgTransform{Hide: true})}, "give the hidden argument a Value or a Default"},
		{"bad default", "search", "x", []fastmcp.TransformOption{fastmcp.TransformArg("limit", fastmcp.ArgTransform{Default: 500})}, "Default does not satisfy its schema"},
		{"clash", "search", "x", []fastmcp.TransformOption{fastmcp.TransformArg("q", fastmcp.ArgTransform{Rename: "repo"})}, `two arguments are published as "repo"`},
		{"twice", "search", "x", []fastmcp.TransformOption{fastmcp.TransformArg("q", fastmcp.ArgTransform{}), fastmcp.TransformArg("q", fastmcp.ArgTransform{})}, "transformed twice"},
		{"input schema", "search", "x", []fastmcp.TransformOption{fastmcp.InputSchema([]byte(`{"type":"object"}`))}, "InputSchema does not apply"},
		{"value not hidden", "search", "x", []fastmcp.TransformOption{fastmcp.TransformArg("q", fastmcp.ArgTransform{Value: func(*fastmcp.Context) (any, error) { return "", nil }})}, "not hidden"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer()
			s.Tool("search", xfSearch)
			defer func() {
				r := recover()
				err, ok := r.(error)
				if !ok || !errors.Is(err, fastmcp.ErrRegistration) || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("panic %v, want an ErrRegistration with %q", r, tc.want)
				}
			}()
			s.TransformTool(tc.source, tc.to, tc.opts...)
		})
	}
}
