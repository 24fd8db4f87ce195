package fastmcp_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
)

type optInner struct {
	N int `json:"n"`
}

type optArgs struct {
	In optInner `json:"in"`
}

// TestSchemaOptionsAtBothLevels: Strict and KeepRefs given to New set the
// default for every tool; given to a tool they override it.
func TestSchemaOptionsAtBothLevels(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.Strict(true), fastmcp.KeepRefs(true))
	h := func(in optArgs) int { return in.In.N }
	s.Tool("default", h)
	s.Tool("override", h, fastmcp.Strict(false), fastmcp.KeepRefs(false))
	c := connect(t, s)
	page, err := c.ListTools(ctxT(t), "")
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]string{}
	for _, tool := range page.Tools {
		schemas[tool.Name] = string(tool.InputSchema)
	}
	for _, tc := range []struct {
		tool           string
		strict, hasRef bool
	}{
		{"default", true, true},
		{"override", false, false},
	} {
		got := schemas[tc.tool]
		if strings.Contains(got, `"additionalProperties":false`) != tc.strict || strings.Contains(got, `"$defs"`) != tc.hasRef {
			t.Errorf("%s: schema %s, want strict %v, $defs %v", tc.tool, got, tc.strict, tc.hasRef)
		}
		res, err := c.CallTool(ctxT(t), tc.tool, map[string]any{"in": map[string]any{"n": 1}, "extra": true})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError != tc.strict {
			t.Errorf("%s: a call with an unknown field: isError %v, want %v", tc.tool, res.IsError, tc.strict)
		}
	}
}

// TestServerIdentityOptions: ServerTitle, ServerDescription,
// ServerWebsiteURL and ServerIcons reach the client's ServerInfo in both
// eras.
func TestServerIdentityOptions(t *testing.T) {
	t.Parallel()
	icon := protocol.Icon{Src: "https://example.com/i.png", MIMEType: "image/png"}
	s := newServer(fastmcp.ServerTitle("Test Server"), fastmcp.ServerDescription("serves tests"),
		fastmcp.ServerWebsiteURL("https://example.com"), fastmcp.ServerIcons(icon))
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		info := connect(t, s, era).ServerInfo()
		if info.Title != "Test Server" || info.Description != "serves tests" || info.WebsiteURL != "https://example.com" ||
			len(info.Icons) != 1 || info.Icons[0].Src != icon.Src {
			t.Fatalf("server info = %+v", info)
		}
	})
}

// TestToolSchemaAndAnnotationOptions: Annotations and OutputSchema are
// published as given.
func TestToolSchemaAndAnnotationOptions(t *testing.T) {
	t.Parallel()
	s := newServer()
	out := `{"type":"object","properties":{"n":{"type":"integer"}}}`
	s.Tool("t", func() map[string]any { return map[string]any{"n": 1} },
		fastmcp.Annotations(protocol.ToolAnnotations{Title: "T", DestructiveHint: new(bool)}),
		fastmcp.OutputSchema([]byte(out)))
	c := connect(t, s)
	page, err := c.ListTools(ctxT(t), "")
	if err != nil {
		t.Fatal(err)
	}
	tool := page.Tools[0]
	if a := tool.Annotations; a == nil || a.Title != "T" || a.DestructiveHint == nil || *a.DestructiveHint || a.ReadOnlyHint != nil {
		t.Errorf("annotations = %+v", a)
	}
	if string(tool.OutputSchema) != out {
		t.Errorf("output schema = %s, want %s", tool.OutputSchema, out)
	}
}

// TestLinkAndEmbeddedBlob: the content helpers arrive as the content types
// they name.
func TestLinkAndEmbeddedBlob(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("t", func() *fastmcp.ToolResult {
		return &fastmcp.ToolResult{Content: []fastmcp.Content{
			fastmcp.Link("docs://readme", "readme"),
			fastmcp.EmbeddedBlob("docs://logo", "image/png", []byte{1, 2, 3}),
		}}
	})
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		res, err := connect(t, s, era).CallTool(ctxT(t), "t", nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Content) != 2 {
			t.Fatalf("content = %+v", res.Content)
		}
		link, ok := res.Content[0].(*fastmcp.ResourceLink)
		if !ok || link.URI != "docs://readme" || link.Name != "readme" {
			t.Errorf("content[0] = %#v", res.Content[0])
		}
		emb, ok := res.Content[1].(*fastmcp.EmbeddedResource)
		if !ok || emb.Resource.URI != "docs://logo" || emb.Resource.MIMEType != "image/png" || !bytes.Equal(emb.Resource.Blob, []byte{1, 2, 3}) {
			t.Errorf("content[1] = %#v", res.Content[1])
		}
	})
}

// TestWithMeta: a call option's _meta entries reach the tool.
func TestWithMeta(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("meta", func(c *fastmcp.Context) string { return string(c.Request().Meta.Other["com.example/trace"]) })
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		res, err := connect(t, s, era).CallTool(ctxT(t), "meta", nil, client.WithMeta(protocol.Meta{"com.example/trace": "abc"}))
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Content[0].(*fastmcp.TextContent).Text; got != `"abc"` {
			t.Fatalf("tool saw _meta entry %s, want \"abc\"", got)
		}
	})
}

// TestCallToolSessionOption: client.CallOption is session.CallOption, and
// CallTool passes the session's options on: session.WithTimeout bounds the
// call, which ends with session.ErrTimeout.
func TestCallToolSessionOption(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("wait", func(c *fastmcp.Context) error {
		<-c.Done()
		return c.Err()
	})
	_, err := connect(t, s).CallTool(ctxT(t), "wait", nil, session.WithTimeout(50*time.Millisecond))
	if !errors.Is(err, session.ErrTimeout) {
		t.Fatalf("err = %v, want session.ErrTimeout", err)
	}
}

// TestClientNotify: Notify sends any notification, NotifyRootsChanged the
// roots one; the server's low-level handlers receive them.
func TestClientNotify(t *testing.T) {
	t.Parallel()
	s := newServer()
	got := make(chan string, 2)
	record := lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
		got <- req.Method + " " + string(req.Params)
		return nil, nil
	})
	s.Lowlevel().HandleNotification("notifications/x-test", record)
	s.Lowlevel().HandleNotification(protocol.NotificationRootsListChanged, record)
	c := connect(t, s, legacy, client.WithRoots())
	if err := c.Notify(ctxT(t), "notifications/x-test", map[string]int{"n": 1}); err != nil {
		t.Fatal(err)
	}
	if err := c.NotifyRootsChanged(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`notifications/x-test {"n":1}`, protocol.NotificationRootsListChanged + " "} {
		select {
		case g := <-got:
			if g != want {
				t.Errorf("server got %q, want %q", g, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no %q within 5 s", want)
		}
	}
}

// TestSettingOptions: each settings option sets its field of Settings.
func TestSettingOptions(t *testing.T) {
	for _, name := range []string{"FASTMCP_TRANSPORT", "FASTMCP_PATH", "FASTMCP_LOG_LEVEL", "FASTMCP_ALLOWED_ORIGINS", "FASTMCP_MAX_STREAMS_PER_SESSION", "FASTMCP_MAX_LISTENS"} {
		t.Setenv(name, "")
	}
	cases := []struct {
		opt   fastmcp.Option
		check func(fastmcp.Settings) bool
	}{
		{fastmcp.Transport("http"), func(s fastmcp.Settings) bool { return s.Transport == "http" }},
		{fastmcp.HTTPPath("/rpc"), func(s fastmcp.Settings) bool { return s.Path == "/rpc" }},
		{fastmcp.LogLevel(slog.LevelDebug), func(s fastmcp.Settings) bool { return s.LogLevel == slog.LevelDebug }},
		{fastmcp.AllowedOrigins("https://a.example"), func(s fastmcp.Settings) bool {
			return slices.Equal(s.AllowedOrigins, []string{"https://a.example"})
		}},
		{fastmcp.MaxStreamsPerSession(3), func(s fastmcp.Settings) bool { return s.MaxStreamsPerSession == 3 }},
		{fastmcp.MaxListens(4), func(s fastmcp.Settings) bool { return s.MaxListens == 4 }},
	}
	for i, tc := range cases {
		got, err := newServer(tc.opt).Settings()
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !tc.check(got) {
			t.Errorf("case %d: settings %+v", i, got)
		}
	}
}
