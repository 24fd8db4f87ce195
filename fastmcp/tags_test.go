package fastmcp_test

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/session"
)

// taggedServer has a tool, a prompt, a resource and a template tagged
// "admin", and a plain tool "echo".
func taggedServer(opts ...fastmcp.Option) *fastmcp.Server {
	s := newServer(opts...)
	s.Tool("echo", func() (string, error) { return "echo", nil })
	s.Tool("purge", func() (string, error) { return "purged", nil }, fastmcp.Tags("admin", "danger"))
	s.Prompt("audit", func() (string, error) { return "audit everything", nil }, fastmcp.Tags("admin"))
	s.Resource("config://admin", func() (string, error) { return "secret", nil }, fastmcp.Tags("admin"))
	s.Resource("users://{id}", func(in struct {
		ID string `json:"id"`
	}) (string, error) {
		return "user " + in.ID, nil
	}, fastmcp.Tags("admin"))
	return s
}

// listed returns what c lists: tool names, prompt names, resource URIs
// and template URI templates.
func listed(t *testing.T, c *client.Client) (tools, prompts, resources []string) {
	t.Helper()
	ctx := ctxT(t)
	tl, err := c.ListTools(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range tl.Tools {
		tools = append(tools, x.Name)
	}
	pl, err := c.ListPrompts(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range pl.Prompts {
		prompts = append(prompts, x.Name)
	}
	rl, err := c.ListResources(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range rl.Resources {
		resources = append(resources, x.URI)
	}
	tt, err := c.ListResourceTemplates(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range tt.ResourceTemplates {
		resources = append(resources, x.URITemplate)
	}
	return tools, prompts, resources
}

// reachable reports which admin components c can use.
func reachable(t *testing.T, c *client.Client) (tool, prompt, resource, template bool) {
	t.Helper()
	ctx := ctxT(t)
	res, err := c.CallTool(ctx, "purge", nil)
	tool = err == nil && !res.IsError
	_, err = c.GetPrompt(ctx, "audit", nil)
	prompt = err == nil
	_, err = c.ReadResource(ctx, "config://admin")
	resource = err == nil
	_, err = c.ReadResource(ctx, "users://7")
	template = err == nil
	return
}

// TestEnableDisable: Disable takes components out of lists and out of
// reach, for every kind, tells connected clients, holds for components
// registered later, and Enable undoes it; the last call wins.
func TestEnableDisable(t *testing.T) {
	bothEras(t, func(t *testing.T, opt client.Option, _ bool) {
		s := taggedServer()
		var mu sync.Mutex
		changed := map[string]int{}
		c := connect(t, s, opt, client.WithListChangedHandler(func(m string) {
			mu.Lock()
			defer mu.Unlock()
			changed[m]++
		}))
		if tools, prompts, res := listed(t, c); len(tools) != 2 || len(prompts) != 1 || len(res) != 2 {
			t.Fatalf("before: %v %v %v", tools, prompts, res)
		}

		s.Disable(fastmcp.Selector{Tags: []string{"admin"}})
		tools, prompts, res := listed(t, c)
		if !slices.Equal(tools, []string{"echo"}) || len(prompts) != 0 || len(res) != 0 {
			t.Fatalf("after Disable: %v %v %v", tools, prompts, res)
		}
		if a, b, cc, d := reachable(t, c); a || b || cc || d {
			t.Fatalf("disabled components reachable: tool %v prompt %v resource %v template %v", a, b, cc, d)
		}
		_, err := c.Complete(ctxT(t), client.CompleteReference{Type: "ref/prompt", Name: "audit"}, "x", "", nil)
		if err == nil || !strings.Contains(err.Error(), "unknown prompt") {
			t.Fatalf("completion of a disabled prompt: %v", err)
		}
		res2, err := c.CallTool(ctxT(t), "purge", nil)
		if err == nil && !res2.IsError {
			t.Fatal("purge ran")
		}
		if err != nil && !strings.Contains(err.Error(), `unknown tool "purge"`) {
			t.Fatalf("call of a disabled tool: %v", err)
		}

		// Registered later under the same rule: out of service too.
		s.Tool("reset", func() (string, error) { return "reset", nil }, fastmcp.Tags("admin"))
		if tools, _, _ := listed(t, c); !slices.Equal(tools, []string{"echo"}) {
			t.Fatalf("a tool registered after Disable is listed: %v", tools)
		}

		// An exception to a broader rule; then everything back.
		s.Enable(fastmcp.Selector{Names: []string{"purge"}})
		if tools, _, _ := listed(t, c); !slices.Equal(tools, []string{"echo", "purge"}) {
			t.Fatalf("after Enable(purge): %v", tools)
		}
		s.Enable(fastmcp.Selector{All: true})
		if a, b, cc, d := reachable(t, c); !a || !b || !cc || !d {
			t.Fatalf("after Enable(All): tool %v prompt %v resource %v template %v", a, b, cc, d)
		}
		if !s.RemoveTool("reset") {
			t.Fatal("RemoveTool of a tool registered while disabled")
		}

		// An allow-list: only the "danger" tools.
		s.Disable(fastmcp.Selector{All: true, Kinds: []fastmcp.ComponentKind{fastmcp.KindTool}})
		s.Enable(fastmcp.Selector{Tags: []string{"danger"}})
		if tools, prompts, _ := listed(t, c); !slices.Equal(tools, []string{"purge"}) || len(prompts) != 1 {
			t.Fatalf("allow-list: %v %v", tools, prompts)
		}
		if s.RemoveTool("echo") != true {
			t.Fatal("RemoveTool of a disabled tool reported false")
		}

		waitFor(t, func() bool {
			mu.Lock()
			defer mu.Unlock()
			return changed["notifications/tools/list_changed"] > 0 && changed["notifications/prompts/list_changed"] > 0 && changed["notifications/resources/list_changed"] > 0
		})
	})
}

// TestVisibility: a Visibility function hides components from some
// callers: not listed to them, and not reachable by them (tools/call,
// prompts/get, resources/read of a resource and through a template,
// completion), while other callers use them; over both eras.
func TestVisibility(t *testing.T) {
	bothEras(t, func(t *testing.T, opt client.Option, _ bool) {
		var asked sync.Map
		s := taggedServer(fastmcp.Visibility(func(r *session.Request, c fastmcp.Component) bool {
			asked.Store(c.Kind, true)
			info := r.ClientInfo()
			return !c.HasTag("admin") || info != nil && info.Name == "alice"
		}))
		alice := connect(t, s, opt, client.WithInfo("alice", "1"))
		bob := connect(t, s, opt, client.WithInfo("bob", "1"))

		tools, prompts, res := listed(t, alice)
		if len(tools) != 2 || len(prompts) != 1 || len(res) != 2 {
			t.Fatalf("alice lists %v %v %v", tools, prompts, res)
		}
		if a, b, c, d := reachable(t, alice); !a || !b || !c || !d {
			t.Fatalf("alice reaches tool %v prompt %v resource %v template %v", a, b, c, d)
		}
		tools, prompts, res = listed(t, bob)
		if !slices.Equal(tools, []string{"echo"}) || len(prompts) != 0 || len(res) != 0 {
			t.Fatalf("bob lists %v %v %v", tools, prompts, res)
		}
		if a, b, c, d := reachable(t, bob); a || b || c || d {
			t.Fatalf("bob reaches tool %v prompt %v resource %v template %v", a, b, c, d)
		}
		_, err := bob.Complete(ctxT(t), client.CompleteReference{Type: "ref/resource", URI: "users://{id}"}, "id", "", nil)
		if err == nil {
			t.Fatal("bob completes a hidden template's variable")
		}
		for _, k := range []fastmcp.ComponentKind{fastmcp.KindTool, fastmcp.KindPrompt, fastmcp.KindResource, fastmcp.KindResourceTemplate} {
			if _, ok := asked.Load(k); !ok {
				t.Errorf("Visibility was never asked about a %s", k)
			}
		}
	})
}

// waitFor polls cond until it holds or the test's time runs out.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	ctx := ctxT(t)
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatal("condition not met in time")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// TestVisibilityByPrincipal: over HTTP, a Visibility function decides by
// the caller's principal; the same HTTP endpoint lists and serves the
// admin tool to one principal and hides it from the other, over both eras.
func TestVisibilityByPrincipal(t *testing.T) {
	bothEras(t, func(t *testing.T, opt client.Option, _ bool) {
		s := taggedServer(
			fastmcp.HTTPPrincipal(func(r *http.Request) string { return r.Header.Get("X-User") }),
			fastmcp.Visibility(func(r *session.Request, c fastmcp.Component) bool {
				return !c.HasTag("admin") || r.HTTP != nil && r.HTTP.Principal == "root"
			}))
		hs := fastmcptest.NewHTTPServer(t, s)
		dial := func(user string) *client.Client {
			c, err := client.ConnectHTTP(ctxT(t), hs.URL+"/mcp", opt, client.WithLogger(quietLogger),
				client.WithHTTPHeader(http.Header{"X-User": {user}}))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			return c
		}
		root, guest := dial("root"), dial("guest")
		if tools, _, _ := listed(t, root); len(tools) != 2 {
			t.Fatalf("root lists %v", tools)
		}
		if a, b, c, d := reachable(t, root); !a || !b || !c || !d {
			t.Fatalf("root reaches tool %v prompt %v resource %v template %v", a, b, c, d)
		}
		if tools, prompts, res := listed(t, guest); len(tools) != 1 || len(prompts) != 0 || len(res) != 0 {
			t.Fatalf("guest lists %v %v %v", tools, prompts, res)
		}
		if a, b, c, d := reachable(t, guest); a || b || c || d {
			t.Fatalf("guest reaches tool %v prompt %v resource %v template %v", a, b, c, d)
		}
	})
}
