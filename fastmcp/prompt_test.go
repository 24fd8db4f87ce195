package fastmcp_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

type ReviewArgs struct {
	Code     string `json:"code" jsonschema:"description=The code to review"`
	Language string `json:"language,omitempty" jsonschema:"description=Its language"`
}

type TypedPromptArgs struct {
	Count  int       `json:"count" validate:"gte=1"`
	Ratio  float64   `json:"ratio,omitempty"`
	Loud   bool      `json:"loud,omitempty"`
	Level  *uint8    `json:"level,omitempty"`
	Since  time.Time `json:"since,omitzero"`
	Tags   []string  `json:"tags,omitempty"`
	Choice string    `json:"choice,omitempty" validate:"omitempty,oneof=a b"`
}

func promptServer() *fastmcp.Server {
	s := newServer()
	s.Prompt("simple", func() string { return "This is a simple prompt." }, fastmcp.Title("Simple"), fastmcp.Description("A simple prompt"))
	s.Prompt("review", func(in ReviewArgs) (string, error) {
		return fmt.Sprintf("Review this %s code:\n%s", in.Language, in.Code), nil
	}, fastmcp.Description("Review code"))
	s.Prompt("typed", func(ctx *fastmcp.Context, in *TypedPromptArgs) (string, error) {
		level := "nil"
		if in.Level != nil {
			level = fmt.Sprint(*in.Level)
		}
		return fmt.Sprintf("%d %v %v %s %d %q %s", in.Count, in.Ratio, in.Loud, level, in.Since.Year(), in.Tags, in.Choice), nil
	})
	s.Prompt("rich", func() []fastmcp.PromptMessage {
		return []fastmcp.PromptMessage{
			fastmcp.UserMessage(fastmcp.Image(pngHeader, "image/png")),
			fastmcp.UserMessage(fastmcp.EmbeddedText("test://doc", "text/plain", "Embedded.")),
			fastmcp.AssistantMessage(fastmcp.Text("Looking at it.")),
		}
	})
	s.Prompt("one", func() fastmcp.PromptMessage { return fastmcp.AssistantMessage(fastmcp.Text("hi")) })
	s.Prompt("full", func() (*fastmcp.PromptResult, error) {
		return &fastmcp.PromptResult{Description: "From the handler", Messages: []fastmcp.PromptMessage{fastmcp.UserMessage(fastmcp.Text("x"))}}, nil
	}, fastmcp.Description("Registered"))
	s.Prompt("described", func() *fastmcp.PromptResult {
		return &fastmcp.PromptResult{Messages: []fastmcp.PromptMessage{fastmcp.UserMessage(fastmcp.Text("x"))}}
	}, fastmcp.Description("Registered"))
	s.Prompt("dynamic", func() any { return "dynamic" })
	s.Prompt("bad-dynamic", func() any { return 42 })
	s.Prompt("bad-role", func() []fastmcp.PromptMessage {
		return []fastmcp.PromptMessage{{Role: "system", Content: fastmcp.Text("x")}}
	})
	s.Prompt("no-content", func() []fastmcp.PromptMessage { return []fastmcp.PromptMessage{{Role: protocol.RoleUser}} })
	s.Prompt("fails", func() (string, error) { return "", errors.New("no inspiration") })
	s.Prompt("rejects", func(in ReviewArgs) (string, error) {
		return "", fmt.Errorf("%w: language %q is not supported", protocol.ErrInvalidParams, in.Language)
	})
	s.Prompt("panics", func() string { panic("boom") })
	return s
}

func TestPromptGet(t *testing.T) {
	t.Parallel()
	s := promptServer()
	ok := []struct {
		name string
		args map[string]string
		want string
	}{
		{"simple", nil, `{"description":"A simple prompt","messages":[{"role":"user","content":{"type":"text","text":"This is a simple prompt."}}]}`},
		{"review", map[string]string{"code": "x := 1", "language": "Go"}, `{"description":"Review code","messages":[{"role":"user","content":{"type":"text","text":"Review this Go code:\nx := 1"}}]}`},
		{"typed", map[string]string{"count": "3", "ratio": "0.25", "loud": "true", "level": "7", "since": "2024-01-02T03:04:05Z", "tags": `["a","b"]`, "choice": "b"}, `{"messages":[{"role":"user","content":{"type":"text","text":"3 0.25 true 7 2024 [\"a\" \"b\"] b"}}]}`},
		{"typed", map[string]string{"count": "1", "unknown": "ignored"}, `{"messages":[{"role":"user","content":{"type":"text","text":"1 0 false nil 1 [] "}}]}`},
		{"rich", nil, `{"messages":[{"role":"user","content":{"type":"image","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ","mimeType":"image/png"}},` +
			`{"role":"user","content":{"type":"resource","resource":{"uri":"test://doc","mimeType":"text/plain","text":"Embedded."}}},` +
			`{"role":"assistant","content":{"type":"text","text":"Looking at it."}}]}`},
		{"one", nil, `{"messages":[{"role":"assistant","content":{"type":"text","text":"hi"}}]}`},
		{"full", nil, `{"description":"From the handler","messages":[{"role":"user","content":{"type":"text","text":"x"}}]}`},
		{"described", nil, `{"description":"Registered","messages":[{"role":"user","content":{"type":"text","text":"x"}}]}`},
		{"dynamic", nil, `{"messages":[{"role":"user","content":{"type":"text","text":"dynamic"}}]}`},
	}
	bad := []struct {
		name string
		args map[string]string
		code int64
		msg  string
	}{
		{"nope", nil, protocol.CodeInvalidParams, `unknown prompt "nope"`},
		{"review", nil, protocol.CodeInvalidParams, "code: is required"},
		{"review", map[string]string{"language": "Go"}, protocol.CodeInvalidParams, "invalid arguments for prompt review: code: is required"},
		{"typed", map[string]string{"count": "three", "loud": "yes", "ratio": "1e999", "level": "300", "tags": "a,b", "choice": "c"}, protocol.CodeInvalidParams,
			`choice: must be one of "a", "b"`},
		{"typed", map[string]string{"count": "three"}, protocol.CodeInvalidParams, `count: must be integer, got "three"`},
		{"typed", map[string]string{"count": "0"}, protocol.CodeInvalidParams, "count: must be >= 1"},
		{"typed", map[string]string{"count": "1", "level": "300"}, protocol.CodeInvalidParams, "level:"},
		{"typed", map[string]string{"count": "1", "tags": "a,b"}, protocol.CodeInvalidParams, `tags: must be JSON text, got "a,b"`},
		{"bad-dynamic", nil, protocol.CodeInternalError, "the handler returned a int"},
		{"bad-role", nil, protocol.CodeInternalError, `message 0 has role "system"`},
		{"no-content", nil, protocol.CodeInternalError, "message 0 has no content"},
		{"fails", nil, protocol.CodeInternalError, "no inspiration"},
		{"rejects", map[string]string{"code": "x", "language": "COBOL"}, protocol.CodeInvalidParams, `language "COBOL" is not supported`},
		{"panics", nil, protocol.CodeInternalError, "the prompt panics failed"},
	}
	revisions(t, s, func(t *testing.T, c *client.Client) {
		for _, tc := range ok {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				res, err := c.GetPrompt(ctxT(t), tc.name, tc.args)
				if err != nil {
					t.Fatal(err)
				}
				res.ResultType, res.Meta = "", nil // set on 2026-07-28
				b, _ := protocol.Marshal(res)
				if string(b) != tc.want {
					t.Fatalf("result:\n got %s\nwant %s", b, tc.want)
				}
			})
		}
		for _, tc := range bad {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				_, err := c.GetPrompt(ctxT(t), tc.name, tc.args)
				perr := wireError(t, err)
				if perr.Code != tc.code || !strings.Contains(perr.Message, tc.msg) {
					t.Fatalf("err = %d %q, want %d containing %q", perr.Code, perr.Message, tc.code, tc.msg)
				}
			})
		}
	})
	t.Run("all conversion problems at once", func(t *testing.T) {
		t.Parallel()
		c := connect(t, s, legacyRevision)
		_, err := c.GetPrompt(ctxT(t), "typed", map[string]string{"count": "three", "loud": "yes", "ratio": "x"})
		want := `prompt typed: count: must be integer, got "three"; loud: must be boolean, got "yes"; ratio: must be number, got "x"`
		if perr := wireError(t, err); !strings.HasSuffix(perr.Message, want) {
			t.Fatalf("message %q, want it to end with %q", perr.Message, want)
		}
	})
	t.Run("bad params", func(t *testing.T) {
		t.Parallel()
		c := connect(t, s, legacyRevision)
		for _, params := range []string{`{}`, `{"name":"review","arguments":{"code":1}}`, `{"name":"review","arguments":[]}`} {
			err := c.Call(ctxT(t), protocol.MethodPromptsGet, []byte(params), nil)
			if !errors.Is(err, protocol.ErrInvalidParams) {
				t.Errorf("prompts/get %s: err = %v, want invalid params", params, err)
			}
		}
	})
}

func TestPromptList(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.PageSize(3))
	for _, name := range []string{"e", "c", "a", "d", "b"} {
		s.Prompt(name, func() string { return name })
	}
	s.Prompt("review", func(in ReviewArgs) string { return "" }, fastmcp.Title("Review"), fastmcp.Description("Review code"),
		fastmcp.Icons(protocol.Icon{Src: "https://example.com/r.png"}), fastmcp.Meta(protocol.Meta{"k": 1}))
	revisions(t, s, func(t *testing.T, c *client.Client) {
		var names []string
		for p, err := range c.Prompts(ctxT(t)) {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, p.Name)
			if p.Name == "review" {
				b, _ := protocol.Marshal(p)
				want := `{"name":"review","title":"Review","description":"Review code","arguments":[` +
					`{"name":"code","description":"The code to review","required":true},{"name":"language","description":"Its language"}],` +
					`"icons":[{"src":"https://example.com/r.png"}],"_meta":{"k":1}}`
				if string(b) != want {
					t.Errorf("prompt:\n got %s\nwant %s", b, want)
				}
			}
		}
		if want := []string{"a", "b", "c", "d", "e", "review"}; !slices.Equal(names, want) {
			t.Fatalf("prompts = %v, want %v", names, want)
		}
		if _, err := c.ListPrompts(ctxT(t), "bogus"); !errors.Is(err, protocol.ErrInvalidParams) {
			t.Fatalf("invalid cursor: %v", err)
		}
	})
}

func TestPromptListChanged(t *testing.T) {
	t.Parallel()
	s := newServer()
	changed := make(chan string, 4)
	c := connect(t, s, legacyRevision, client.WithListChangedHandler(func(m string) { changed <- m }))
	s.Prompt("p", func() string { return "" })
	if got := recvT(t, changed); got != protocol.NotificationPromptsListChanged {
		t.Fatalf("notification %q", got)
	}
	if !s.RemovePrompt("p") || s.RemovePrompt("p") {
		t.Fatal("RemovePrompt did not report what it removed")
	}
	recvT(t, changed)
	res, err := c.ListPrompts(ctxT(t), "")
	if err != nil || len(res.Prompts) != 0 {
		t.Fatalf("after removal: %+v, %v", res, err)
	}
	caps := connect(t, newServer(), legacyRevision).ServerCapabilities()
	if caps.Prompts != nil || caps.Completions != nil {
		t.Fatalf("a server without prompts declares %+v", caps)
	}
}

func TestPromptRegistrationErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, prompt string
		fn           any
		opts         []fastmcp.PromptOption
		err          string
	}{
		{"empty name", "", func() string { return "" }, nil, "prompt name is empty"},
		{"nil handler", "p", nil, nil, "handler is nil"},
		{"map argument", "p", func(in map[string]string) string { return "" }, nil, "put the arguments in a struct"},
		{"two arguments", "p", func(a, b ReviewArgs) string { return "" }, nil, "put the arguments in a struct"},
		{"only an error", "p", func() error { return nil }, nil, "returns only an error"},
		{"bad result", "p", func() int { return 0 }, nil, "cannot return int"},
		{"bad argument type", "p", func(in struct {
			C chan int `json:"c"`
		}) string {
			return ""
		}, nil, `prompt "p"`},
		{"completer for unknown argument", "p", func(in ReviewArgs) string { return "" }, []fastmcp.PromptOption{fastmcp.CompleteArg("lang", fastmcp.Choices("go"))}, `the prompt has no argument "lang"`},
		{"nil completer", "p", func(in ReviewArgs) string { return "" }, []fastmcp.PromptOption{fastmcp.CompleteArg("language", nil)}, "the completer is nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newServer()
			err := registerErr(t, func() { s.Prompt(tc.prompt, tc.fn, tc.opts...) })
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("Prompt panicked with %v, want an error containing %q", err, tc.err)
			}
		})
	}
	t.Run("duplicate", func(t *testing.T) {
		t.Parallel()
		s := newServer()
		s.Prompt("p", func() string { return "" })
		if err := registerErr(t, func() { s.Prompt("p", func() string { return "" }) }); err == nil || !strings.Contains(err.Error(), "already registered") {
			t.Fatalf("duplicate: %v", err)
		}
	})
}
