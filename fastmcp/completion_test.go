package fastmcp_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

type FrameworkArgs struct {
	Language  string `json:"language"`
	Framework string `json:"framework"`
}

type RepoArgs struct {
	Owner string `json:"owner"`
	Repo  string `json:"repo"`
}

func TestCompletion(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []fastmcp.CompleteRequest
	frameworks := func(ctx *fastmcp.Context, req fastmcp.CompleteRequest) ([]string, error) {
		mu.Lock()
		seen = append(seen, req)
		mu.Unlock()
		all := map[string][]string{"python": {"flask", "fastapi", "django"}, "go": {"gin", "echo"}}
		var out []string
		for _, f := range all[req.Arguments["language"]] {
			if strings.HasPrefix(f, req.Value) {
				out = append(out, f)
			}
		}
		return out, nil
	}
	many := func(_ *fastmcp.Context, req fastmcp.CompleteRequest) ([]string, error) {
		out := make([]string, 250)
		for i := range out {
			out[i] = fmt.Sprintf("v%03d", i)
		}
		return out, nil
	}
	s := newServer()
	s.Prompt("code", func(in FrameworkArgs) string { return "" },
		fastmcp.CompleteArg("language", fastmcp.Choices("Go", "Python", "pytorch-lang")),
		fastmcp.CompleteArg("framework", frameworks))
	s.Prompt("plain", func(in ReviewArgs) string { return "" })
	s.Prompt("many", func(in NoteName) string { return "" }, fastmcp.CompleteArg("name", many))
	s.Prompt("failing", func(in NoteName) string { return "" }, fastmcp.CompleteArg("name", func(*fastmcp.Context, fastmcp.CompleteRequest) ([]string, error) {
		return nil, errors.New("index offline")
	}))
	s.Prompt("coded", func(in NoteName) string { return "" }, fastmcp.CompleteArg("name", func(*fastmcp.Context, fastmcp.CompleteRequest) ([]string, error) {
		return nil, fmt.Errorf("%w: too short", protocol.ErrInvalidParams)
	}))
	s.Prompt("panicking", func(in NoteName) string { return "" }, fastmcp.CompleteArg("name", func(*fastmcp.Context, fastmcp.CompleteRequest) ([]string, error) {
		panic("boom")
	}))
	s.Resource("repo://{owner}/{repo}", func(in RepoArgs) string { return "" },
		fastmcp.CompleteArg("owner", fastmcp.Choices("golang", "google")))
	s.Resource("x://static", func() string { return "" })
	// A completer attached after registration.
	if err := s.Complete(fastmcp.ResourceRef("repo://{owner}/{repo}"), "repo", func(_ *fastmcp.Context, req fastmcp.CompleteRequest) ([]string, error) {
		return []string{req.Arguments["owner"] + "/tools"}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Complete(fastmcp.PromptRef("plain"), "language", fastmcp.Choices("go", "rust")); err != nil {
		t.Fatal(err)
	}

	type result struct {
		values  []string
		total   int
		hasMore bool
	}
	ok := []struct {
		name     string
		ref      protocol.CompleteReference
		arg, val string
		resolved map[string]string
		want     result
	}{
		{"choices", fastmcp.PromptRef("code"), "language", "p", nil, result{[]string{"Python", "pytorch-lang"}, 2, false}},
		{"choices ignore case", fastmcp.PromptRef("code"), "language", "GO", nil, result{[]string{"Go"}, 1, false}},
		{"no match", fastmcp.PromptRef("code"), "language", "zig", nil, result{[]string{}, 0, false}},
		{"context arguments", fastmcp.PromptRef("code"), "framework", "f", map[string]string{"language": "python"}, result{[]string{"flask", "fastapi"}, 2, false}},
		{"no completer", fastmcp.PromptRef("plain"), "code", "x", nil, result{[]string{}, 0, false}},
		{"attached later", fastmcp.PromptRef("plain"), "language", "r", nil, result{[]string{"rust"}, 1, false}},
		{"truncated", fastmcp.PromptRef("many"), "name", "", nil, result{nil, 250, true}},
		{"template variable", fastmcp.ResourceRef("repo://{owner}/{repo}"), "owner", "go", nil, result{[]string{"golang", "google"}, 2, false}},
		{"template with context", fastmcp.ResourceRef("repo://{owner}/{repo}"), "repo", "", map[string]string{"owner": "golang"}, result{[]string{"golang/tools"}, 1, false}},
	}
	bad := []struct {
		name string
		ref  protocol.CompleteReference
		arg  string
		code int64
		msg  string
	}{
		{"unknown prompt", fastmcp.PromptRef("nope"), "x", protocol.CodeInvalidParams, `unknown prompt "nope"`},
		{"unknown argument", fastmcp.PromptRef("code"), "nope", protocol.CodeInvalidParams, `prompt "code" has no argument "nope"`},
		{"unknown template", fastmcp.ResourceRef("nope://{x}"), "x", protocol.CodeInvalidParams, `unknown resource template "nope://{x}"`},
		{"unknown variable", fastmcp.ResourceRef("repo://{owner}/{repo}"), "branch", protocol.CodeInvalidParams, `has no variable "branch"`},
		{"static resource", fastmcp.ResourceRef("x://static"), "x", protocol.CodeInvalidParams, "has no variables to complete"},
		{"unknown reference type", protocol.CompleteReference{Type: "ref/tool", Name: "x"}, "x", protocol.CodeInvalidParams, `unknown reference type "ref/tool"`},
		{"completer error", fastmcp.PromptRef("failing"), "name", protocol.CodeInternalError, "index offline"},
		{"completer protocol error", fastmcp.PromptRef("coded"), "name", protocol.CodeInvalidParams, "too short"},
		{"completer panic", fastmcp.PromptRef("panicking"), "name", protocol.CodeInternalError, "completing name failed"},
	}
	revisions(t, s, func(t *testing.T, c *client.Client) {
		for _, tc := range ok {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				res, err := c.Complete(ctxT(t), tc.ref, tc.arg, tc.val, tc.resolved)
				if err != nil {
					t.Fatal(err)
				}
				got := res.Completion
				if got.Total == nil || *got.Total != tc.want.total || got.HasMore != tc.want.hasMore {
					t.Fatalf("total %v, hasMore %v; want %d, %v", got.Total, got.HasMore, tc.want.total, tc.want.hasMore)
				}
				if tc.want.values == nil {
					if len(got.Values) != 100 || got.Values[0] != "v000" || got.Values[99] != "v099" {
						t.Fatalf("values = %d of them, want the first 100", len(got.Values))
					}
					return
				}
				if !slices.Equal(got.Values, tc.want.values) {
					t.Fatalf("values = %q, want %q", got.Values, tc.want.values)
				}
			})
		}
		for _, tc := range bad {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				_, err := c.Complete(ctxT(t), tc.ref, tc.arg, "", nil)
				perr := wireError(t, err)
				if perr.Code != tc.code || !strings.Contains(perr.Message, tc.msg) {
					t.Fatalf("err = %d %q, want %d containing %q", perr.Code, perr.Message, tc.code, tc.msg)
				}
			})
		}
	})
	t.Run("the completer sees the request", func(t *testing.T) {
		t.Parallel()
		c := connect(t, s, legacyRevision)
		if _, err := c.Complete(ctxT(t), fastmcp.PromptRef("code"), "framework", "dj", map[string]string{"language": "python"}); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		i := slices.IndexFunc(seen, func(r fastmcp.CompleteRequest) bool { return r.Value == "dj" })
		if i < 0 {
			t.Fatal("the completer was not called")
		}
		r := seen[i]
		if r.Ref != fastmcp.PromptRef("code") || r.Argument != "framework" || !maps.Equal(r.Arguments, map[string]string{"language": "python"}) {
			t.Fatalf("request = %+v", r)
		}
	})
	t.Run("empty result on the wire", func(t *testing.T) {
		t.Parallel()
		c := connect(t, s, legacyRevision)
		var raw json.RawMessage
		params := &protocol.CompleteParams{Ref: fastmcp.PromptRef("plain"), Argument: protocol.CompleteArgument{Name: "code"}}
		if err := c.Call(ctxT(t), protocol.MethodCompletionComplete, params, &raw); err != nil {
			t.Fatal(err)
		}
		if got := string(raw); got != `{"completion":{"values":[],"total":0}}` {
			t.Fatalf("result = %s", got)
		}
	})
}

func TestCompleteErrors(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Prompt("p", func(in NoteName) string { return "" })
	s.Resource("r://{name}", func(in NoteName) string { return "" })
	choices := fastmcp.Choices("a")
	for _, tc := range []struct {
		ref protocol.CompleteReference
		arg string
		c   fastmcp.Completer
		err string
	}{
		{fastmcp.PromptRef("nope"), "name", choices, `no prompt "nope" is registered`},
		{fastmcp.PromptRef("p"), "nope", choices, `prompt "p" has no argument "nope"`},
		{fastmcp.ResourceRef("r://{nope}"), "name", choices, `no resource template "r://{nope}" is registered`},
		{fastmcp.ResourceRef("r://{name}"), "nope", choices, `has no variable "nope"`},
		{protocol.CompleteReference{Type: "ref/tool"}, "x", choices, "use fastmcp.PromptRef or fastmcp.ResourceRef"},
		{fastmcp.PromptRef("p"), "name", nil, "the completer is nil"},
	} {
		if err := s.Complete(tc.ref, tc.arg, tc.c); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Complete(%+v, %q) = %v, want an error containing %q", tc.ref, tc.arg, err, tc.err)
		}
	}
}
