package fastmcp_test

// This file is written as a user's program would be: it imports only
// fastmcp, its client and the standard library (TestUserTasksImportOnlyFastmcp checks
// that), and does the five common tasks — a tool with constrained
// arguments, resources and prompts, HTTP in one's own mux, an elicitation
// answered by the client, low-level middleware — on both protocol eras.

import (
	"context"
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

type bookArgs struct {
	Title  string `json:"title" jsonschema:"description=the book's title" validate:"min=2,max=50"`
	Copies int    `json:"copies" validate:"gte=1,lte=5"`
}

type booking struct {
	Title  string `json:"title"`
	Copies int    `json:"copies"`
	Ref    string `json:"ref"`
}

type confirmForm struct {
	Confirm bool   `json:"confirm" jsonschema:"description=go ahead?"`
	Note    string `json:"note,omitempty"`
}

type greetArgs struct {
	Name string `json:"name" jsonschema:"description=who to greet"`
}

// userServer registers a tool with constrained arguments, one that asks
// the user for confirmation, a resource and a prompt, and a middleware
// counting the requests per method.
func userServer(counts *methodCounts) *fastmcp.Server {
	s := fastmcp.New("library", "1.0.0")
	s.Tool("book", func(ctx *fastmcp.Context, in bookArgs) (booking, error) {
		return booking{Title: in.Title, Copies: in.Copies, Ref: "B-" + strconv.Itoa(in.Copies)}, nil
	}, fastmcp.Description("Books copies of a title."))
	s.Tool("cancel_all", func(ctx *fastmcp.Context) (string, error) {
		var form confirmForm
		action, err := ctx.Elicit("Cancel every booking?", &form)
		if err != nil {
			return "", err
		}
		if action != fastmcp.ElicitAccept {
			return "kept (" + string(action) + ")", nil
		}
		if !form.Confirm {
			return "kept (not confirmed)", nil
		}
		return "cancelled: " + form.Note, nil
	})
	s.Resource("library://hours", func() string { return "9 to 5" }, fastmcp.MIMEType("text/plain"))
	s.Resource("library://stats", func() (map[string]int, error) { return map[string]int{"books": 3}, nil })
	s.Prompt("greet", func(in greetArgs) string { return "Say hello to " + in.Name + "." })
	s.Lowlevel().Use(func(next fastmcp.Handler) fastmcp.Handler {
		return fastmcp.HandlerFunc(func(ctx context.Context, req *fastmcp.Request) (any, error) {
			counts.add(req.Method)
			return next.Handle(ctx, req)
		})
	})
	return s
}

type methodCounts struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *methodCounts) add(method string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[method]++
}

func (c *methodCounts) get(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[method]
}

func TestUserTasks(t *testing.T) {
	var counts methodCounts
	s := userServer(&counts)

	// HTTP in one's own mux, beside one's own route.
	mux := http.NewServeMux()
	mux.Handle("/", s) // the Server is an http.Handler
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })
	ts := httptest.NewServer(mux)
	t.Cleanup(func() { s.Shutdown(context.Background()); ts.Close() })

	resp, err := http.Get(ts.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /healthz: %s", resp.Status)
	}

	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			answers := []func() (*client.ElicitResult, error){
				func() (*client.ElicitResult, error) {
					return client.AcceptElicitation(map[string]any{"confirm": true, "note": "done"})
				},
				func() (*client.ElicitResult, error) { return client.AcceptElicitation(confirmForm{}) },
				func() (*client.ElicitResult, error) { return client.DeclineElicitation(), nil },
				func() (*client.ElicitResult, error) { return client.CancelElicitation(), nil },
			}
			var next int
			var mu sync.Mutex
			c, err := client.ConnectHTTP(ctx, ts.URL+"/mcp",
				client.WithProtocolVersion(version),
				client.WithElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
					if req.Message != "Cancel every booking?" || !json.Valid(req.RequestedSchema) {
						return nil, errors.New("unexpected elicitation")
					}
					mu.Lock()
					defer mu.Unlock()
					return answers[next]()
				}))
			if err != nil {
				t.Fatalf("ConnectHTTP: %v", err)
			}
			defer c.Close()

			// A tool with constrained arguments.
			before := counts.get("tools/call")
			res, err := c.CallTool(ctx, "book", map[string]any{"title": "Dune", "copies": 2})
			if err != nil {
				t.Fatalf("CallTool book: %v", err)
			}
			var got booking
			if err := res.Structured(&got); err != nil {
				t.Fatalf("Structured: %v", err)
			}
			if want := (booking{Title: "Dune", Copies: 2, Ref: "B-2"}); got != want {
				t.Errorf("book = %+v, want %+v", got, want)
			}
			var fromText booking
			if err := json.Unmarshal([]byte(res.Text()), &fromText); err != nil || fromText != got {
				t.Errorf("Text() = %q (%v), want the same booking as JSON", res.Text(), err)
			}
			res, err = c.CallTool(ctx, "book", map[string]any{"title": "D", "copies": 9})
			if err != nil {
				t.Fatalf("CallTool book with bad arguments: %v", err)
			}
			if err := res.Structured(&got); err == nil {
				t.Errorf("Structured on a failed call: no error") // protocol.ErrToolFailed
			}
			if !res.IsError || !strings.Contains(res.Text(), "title") || !strings.Contains(res.Text(), "copies") {
				t.Errorf("bad arguments: IsError=%v, Text()=%q; want both arguments named", res.IsError, res.Text())
			}

			// Low-level middleware saw both calls.
			if n := counts.get("tools/call") - before; n != 2 {
				t.Errorf("middleware counted %d tools/call, want 2", n)
			}

			// Resources and prompts.
			rr, err := c.ReadResource(ctx, "library://hours")
			if err != nil {
				t.Fatalf("ReadResource: %v", err)
			}
			if rr.Text() != "9 to 5" {
				t.Errorf("hours = %q", rr.Text())
			}
			rr, err = c.ReadResource(ctx, "library://stats")
			if err != nil {
				t.Fatalf("ReadResource stats: %v", err)
			}
			var stats map[string]int
			if err := json.Unmarshal([]byte(rr.Text()), &stats); err != nil || stats["books"] != 3 {
				t.Errorf("stats = %q (%v)", rr.Text(), err)
			}
			pr, err := c.GetPrompt(ctx, "greet", map[string]string{"name": "Ada"})
			if err != nil {
				t.Fatalf("GetPrompt: %v", err)
			}
			if len(pr.Messages) != 1 || pr.Messages[0].Text() != "Say hello to Ada." || pr.Text() != "Say hello to Ada." {
				t.Errorf("prompt = %q", pr.Text())
			}

			// Elicitation answered by the client: accept with content,
			// accept with the zero form, decline, cancel.
			for i, want := range []string{"cancelled: done", "kept (not confirmed)", "kept (decline)", "kept (cancel)"} {
				mu.Lock()
				next = i
				mu.Unlock()
				res, err := c.CallTool(ctx, "cancel_all", nil)
				if err != nil {
					t.Fatalf("CallTool cancel_all #%d: %v", i, err)
				}
				if res.IsError || res.Text() != want {
					t.Errorf("cancel_all #%d: %q (IsError=%v), want %q", i, res.Text(), res.IsError, want)
				}
			}
		})
	}
}

// TestUserTasksImportOnlyFastmcp: the program above needs nothing but
// fastmcp, package client and the standard library.
func TestUserTasksImportOnlyFastmcp(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "usertasks_test.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		first, _, _ := strings.Cut(path, "/")
		if path != "github.com/fastmcp-go/fastmcp/fastmcp" && path != "github.com/fastmcp-go/fastmcp/client" && strings.Contains(first, ".") {
			t.Errorf("usertasks_test.go imports %s: a user's program should need only fastmcp, its client and the standard library", path)
		}
	}
}
