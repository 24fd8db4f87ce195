package fastmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/proxy"
)

// mountedParent returns a server with a tool of its own, a server mounted
// as "weather" and a Proxy of proxyBackendServer mounted as "remote".
func mountedParent(t *testing.T, back client.Option) (parent, weather, backend *fastmcp.Server) {
	weather = newServer()
	weather.Tool("forecast", func(ctx *fastmcp.Context, in proxyNameArgs) (string, error) {
		ctx.Info("forecasting")
		if err := ctx.Progress(1, 1, "done"); err != nil {
			return "", err
		}
		var who proxyNameArgs
		if _, err := ctx.Elicit("Who?", &who); err != nil {
			return "", err
		}
		return "sunny in " + in.Name + " for " + who.Name, nil
	}, fastmcp.Description("forecast"))
	weather.Prompt("brief", func(in proxyNameArgs) string { return "Brief " + in.Name },
		fastmcp.Description("brief"), fastmcp.CompleteArg("name", fastmcp.Choices("Paris", "Perth")))
	weather.Resource("file:///x", func() string { return "X" }, fastmcp.Description("x"))
	weather.Resource("file:///city/{name}", func(in proxyNameArgs) string { return "city " + in.Name }, fastmcp.Description("city"))

	backend, _ = proxyBackendServer(t)
	bc := connect(t, backend, back, client.WithRequestForwarding())
	remote := proxy.New(bc, fastmcp.Logger(quietLogger))

	parent = newServer()
	parent.Tool("own", func() string { return "own" }, fastmcp.Description("the parent's"))
	parent.Mount("weather", weather)
	parent.Mount("remote", remote)
	return parent, weather, backend
}

// TestMount: the items of mounted servers (a Server and a Proxy) appear
// under their prefix and work as on their own server, Context features
// included, in both eras.
func TestMount(t *testing.T) {
	t.Parallel()
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		parent, _, _ := mountedParent(t, era)
		var logs []string
		c := connect(t, parent, era,
			client.WithLogHandler(func(p *protocol.LoggingMessageParams) { logs = append(logs, string(p.Data)) }),
			client.WithElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
				return &client.ElicitResult{Action: "accept", Content: json.RawMessage(`{"name":"Ada"}`)}, nil
			}))
		ctx := ctxT(t)

		var names []string
		for tool, err := range c.Tools(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, tool.Name)
		}
		want := "own,remote_add,remote_ask,remote_block,remote_chatty,remote_refuse,weather_forecast"
		if got := strings.Join(names, ","); got != want {
			t.Errorf("tools = %s, want %s", got, want)
		}

		var progress int
		res, err := c.CallTool(ctx, "weather_forecast", map[string]string{"name": "Paris"},
			client.WithProgress(func(*protocol.ProgressParams) { progress++ }))
		if err != nil || res.IsError || res.Content[0].(*protocol.TextContent).Text != "sunny in Paris for Ada" {
			t.Fatalf("weather_forecast = %+v, %v", res, err)
		}
		// A 2026-07-28 request runs the handler again once the client
		// has answered the elicitation: twice the progress and the log.
		if runs := map[bool]int{false: 1, true: 2}[modern]; progress != runs || len(logs) != runs || logs[0] != `"forecasting"` {
			t.Errorf("progress %d, logs %q", progress, logs)
		}
		res, err = c.CallTool(ctx, "remote_add", map[string]int{"a": 1, "b": 2})
		if err != nil || string(res.StructuredContent) != `{"sum":3}` {
			t.Errorf("remote_add = %+v, %v", res, err)
		}
		if _, err := c.CallTool(ctx, "weather_nope", nil); !errors.Is(err, protocol.ErrInvalidParams) {
			t.Errorf("weather_nope: %v", err)
		}

		for uri, want := range map[string]string{
			"weather+file:///x": "X", "weather+file:///city/Perth": "city Perth",
			"remote+file:///a.txt": "A", "remote+file:///t/bob": "T bob",
		} {
			rr, err := c.ReadResource(ctx, uri)
			if err != nil || len(rr.Contents) != 1 || rr.Contents[0].Text != want {
				t.Errorf("read %s = %+v, %v", uri, rr, err)
			}
		}
		var uris []string
		for r, err := range c.Resources(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			uris = append(uris, r.URI)
		}
		if got := strings.Join(uris, ","); got != "remote+file:///a.txt,weather+file:///x" {
			t.Errorf("resources = %s", got)
		}
		var templates []string
		for r, err := range c.ResourceTemplates(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			templates = append(templates, r.URITemplate)
		}
		if got := strings.Join(templates, ","); got != "remote+file:///t/{name},weather+file:///city/{name}" {
			t.Errorf("templates = %s", got)
		}

		pr, err := c.GetPrompt(ctx, "weather_brief", map[string]string{"name": "Perth"})
		if err != nil || pr.Messages[0].Content.(*protocol.TextContent).Text != "Brief Perth" {
			t.Errorf("weather_brief = %+v, %v", pr, err)
		}
		if pr, err = c.GetPrompt(ctx, "remote_greet", map[string]string{"name": "Ada"}); err != nil || pr.Messages[0].Content.(*protocol.TextContent).Text != "Hello Ada" {
			t.Errorf("remote_greet = %+v, %v", pr, err)
		}
		for _, tc := range []struct {
			ref         protocol.CompleteReference
			value, want string
		}{
			{fastmcp.PromptRef("weather_brief"), "P", "Paris,Perth"},
			{fastmcp.PromptRef("remote_greet"), "A", "Ada,Alan"},
		} {
			var cr protocol.CompleteResult
			err := c.Call(ctx, protocol.MethodCompletionComplete, &protocol.CompleteParams{
				Ref: tc.ref, Argument: protocol.CompleteArgument{Name: "name", Value: tc.value},
			}, &cr)
			if err != nil || strings.Join(cr.Completion.Values, ",") != tc.want {
				t.Errorf("complete %s = %+v, %v", tc.ref.Name, cr, err)
			}
		}
	})
}

// TestMountListChanged: what a mounted server (or a mounted Proxy's
// backend) adds later reaches the parent's clients.
func TestMountListChanged(t *testing.T) {
	t.Parallel()
	for _, b := range eras {
		t.Run("backend "+b.name, func(t *testing.T) {
			t.Parallel()
			parent, weather, backend := mountedParent(t, b.opt)
			changed := make(chan string, 8)
			c := connect(t, parent, legacy, client.WithListChangedHandler(func(m string) { changed <- m }))
			ctx := ctxT(t)
			if _, err := c.ListTools(ctx, ""); err != nil {
				t.Fatal(err)
			}
			for _, add := range []struct {
				srv  *fastmcp.Server
				name string
			}{{weather, "weather_late"}, {backend, "remote_late"}} {
				add.srv.Tool("late", func() string { return "late" }, fastmcp.Description("later"))
				if m := recvT(t, changed); m != protocol.NotificationToolsListChanged {
					t.Fatalf("notification %s", m)
				}
				list, err := c.ListTools(ctx, "")
				if err != nil || !hasTool(list.Tools, add.name) {
					t.Fatalf("no %s after the change: %v", add.name, err)
				}
				res, err := c.CallTool(ctx, add.name, nil)
				if err != nil || res.Content[0].(*protocol.TextContent).Text != "late" {
					t.Errorf("%s = %+v, %v", add.name, res, err)
				}
			}
			weather.Resource("file:///y", func() string { return "Y" }, fastmcp.Description("y"))
			if m := recvT(t, changed); m != protocol.NotificationResourcesListChanged {
				t.Fatalf("notification %s", m)
			}
		})
	}
}

// TestMountMistakes: clashes and bad prefixes fail at Mount, saying how
// to fix them.
func TestMountMistakes(t *testing.T) {
	t.Parallel()
	child := newServer()
	child.Tool("forecast", func() string { return "" }, fastmcp.Description("f"))
	child.Resource("file:///x", func() string { return "" }, fastmcp.Description("x"))
	plain := func() *fastmcp.Server { return newServer() }
	for _, tc := range []struct {
		name   string
		parent func() *fastmcp.Server
		prefix string
		child  *fastmcp.Server
		want   string
	}{
		{"tool clash", func() *fastmcp.Server {
			s := newServer()
			s.Tool("weather_forecast", func() string { return "" }, fastmcp.Description("f"))
			return s
		}, "weather", child, `tool "forecast" of the mounted server would be "weather_forecast", which this server already has: choose another prefix`},
		{"resource clash", func() *fastmcp.Server {
			s := newServer()
			s.Resource("weather+file:///x", func() string { return "" }, fastmcp.Description("x"))
			return s
		}, "weather", child, `resource "file:///x" of the mounted server would be "weather+file:///x"`},
		{"bad prefix", plain, "we ather", child, "the prefix must be"},
		{"underscore prefix", plain, "a_b", child, "the prefix must be"},
		{"empty prefix", plain, "", child, "the prefix must be"},
		{"nil", plain, "w", nil, "nil"},
		{"long names", plain, strings.Repeat("w", 32), func() *fastmcp.Server {
			s := newServer()
			s.Tool(strings.Repeat("t", 40), func() string { return "" }, fastmcp.Description("f"))
			return s
		}(), "choose a shorter prefix"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := registerErr(t, func() { tc.parent().Mount(tc.prefix, tc.child) })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Mount panicked with %v, want %q", err, tc.want)
			}
		})
	}
	t.Run("twice and loops", func(t *testing.T) {
		a, b := newServer(), newServer()
		a.Mount("b", b)
		for _, tc := range []struct {
			parent, child *fastmcp.Server
			prefix, want  string
		}{
			{a, newServer(), "b", "already mounted with this prefix"},
			{a, a, "self", "loop"},
			{b, a, "a", "loop"},
		} {
			if err := registerErr(t, func() { tc.parent.Mount(tc.prefix, tc.child) }); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Mount(%q) panicked with %v, want %q", tc.prefix, err, tc.want)
			}
		}
	})
}

// TestMountedProxyTaskTool: a task tool of a mounted Proxy's backend, called
// through the parent by a caller declaring the tasks extension, runs as a
// plain call: the parent neither forwards tasks/* nor knows the backend's
// task ids, so a task would be one the caller cannot follow.
func TestMountedProxyTaskTool(t *testing.T) {
	t.Parallel()
	backend := newServer()
	backend.Tool("slow", func() string { return "done" }, fastmcp.TaskSupport(fastmcp.TaskOptional))
	bc := connect(t, backend, eras[1].opt, client.WithRequestForwarding())
	parent := newServer()
	parent.Mount("r", proxy.New(bc, fastmcp.Logger(quietLogger)))
	fc := connect(t, parent, eras[1].opt)
	if tools := listToolsByName(t, fc); tools["r_slow"] == nil { // waits for the proxy's first lists
		t.Fatalf("tools = %v, want r_slow", tools)
	}
	started := false
	res, err := fc.CallTool(ctxT(t), "r_slow", nil, client.WithTaskStarted(func(*protocol.TaskCreatedResult) { started = true }))
	if err != nil || textOf(t, res) != "done" {
		t.Fatalf("CallTool(r_slow) = %v, %v", res, err)
	}
	if started {
		t.Error("the call through the parent became a task the caller cannot follow")
	}
}

// TestMountEachOtherConcurrently: two servers mounting each other at once
// cannot both succeed (that would be a loop).
func TestMountEachOtherConcurrently(t *testing.T) {
	t.Parallel()
	for range 50 {
		a, b := newServer(), newServer()
		a.Tool("x", func() string { return "a" })
		b.Tool("y", func() string { return "b" })
		errs := make(chan error, 2)
		start := make(chan struct{})
		go func() { <-start; errs <- registerErr(t, func() { a.Mount("b", b) }) }()
		go func() { <-start; errs <- registerErr(t, func() { b.Mount("a", a) }) }()
		close(start)
		e1, e2 := <-errs, <-errs
		if e1 == nil && e2 == nil {
			t.Fatal("both servers mounted each other: a loop")
		}
		if e1 != nil && e2 != nil {
			t.Fatalf("neither mount succeeded: %v; %v", e1, e2)
		}
	}
}
