package fastmcp_test

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/apps"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/proxy"
)

const chartHTML = `<!doctype html><html><body><div id="chart"></div></body></html>`

type SalesArgs struct {
	Region string `json:"region"`
}

type Sales struct {
	Region string `json:"region"`
	Total  int    `json:"total"`
}

// appServer has a tool with a view, an app-only tool sharing it, a
// model-only tool and a plain tool.
func appServer(t testing.TB) *fastmcp.Server {
	t.Helper()
	border := true
	view := apps.NewView("ui://sales/chart.html", chartHTML)
	view.Name = "Sales chart"
	view.Meta = apps.ViewMeta{CSP: &apps.CSP{ConnectDomains: []string{"https://api.example.com"}}, PrefersBorder: &border}
	s := newServer()
	s.Tool("sales", func(in SalesArgs) (Sales, error) { return Sales{in.Region, 42}, nil },
		fastmcp.Description("Sales of a region"), apps.WithView(view), fastmcp.Meta(protocol.Meta{"com.example/owner": "sales"}))
	s.Tool("refresh", func(in SalesArgs) (Sales, error) { return Sales{in.Region, 43}, nil },
		apps.WithView(view), apps.AppOnly())
	s.Tool("export", func() (string, error) { return "exported", nil }, apps.ModelOnly())
	s.Tool("plain", func() (string, error) { return "plain", nil })
	return s
}

// appClients connects to s in memory and over Streamable HTTP, in both
// eras, and runs fn with each client.
func appClients(t *testing.T, s func(testing.TB) *fastmcp.Server, opts []client.Option, fn func(t *testing.T, c *client.Client)) {
	for _, tr := range []string{"memory", "http"} {
		t.Run(tr, func(t *testing.T) {
			t.Parallel()
			bothEras(t, func(t *testing.T, era client.Option, modern bool) {
				o := append([]client.Option{era, client.WithLogger(quietLogger)}, opts...)
				if tr == "memory" {
					fn(t, connect(t, s(t), o...))
					return
				}
				srv := s(t)
				ts := httptest.NewServer(srv)
				t.Cleanup(func() { closeNow(srv); ts.Close() })
				c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", o...)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { c.Close() })
				fn(t, c)
			})
		})
	}
}

func listToolsByName(t *testing.T, c *client.Client) map[string]*protocol.Tool {
	t.Helper()
	out := map[string]*protocol.Tool{}
	for tool, err := range c.Tools(ctxT(t)) {
		if err != nil {
			t.Fatal(err)
		}
		out[tool.Name] = tool
	}
	return out
}

func listResourceURIs(t *testing.T, c *client.Client) []string {
	t.Helper()
	var out []string
	for r, err := range c.Resources(ctxT(t)) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r.URI)
	}
	return out
}

func TestAppsHost(t *testing.T) {
	t.Parallel()
	appClients(t, appServer, []client.Option{client.WithApps()}, func(t *testing.T, c *client.Client) {
		ctx := ctxT(t)
		if _, ok := c.ServerCapabilities().Extensions[apps.Extension]; !ok {
			t.Fatalf("extensions = %v, want %s", c.ServerCapabilities().Extensions, apps.Extension)
		}
		tools := listToolsByName(t, c)
		if len(tools) != 4 {
			t.Fatalf("tools = %v, want all four", tools)
		}
		tests := []struct {
			tool string
			want apps.ToolMeta
			ok   bool
		}{
			{"sales", apps.ToolMeta{ResourceURI: "ui://sales/chart.html"}, true},
			{"refresh", apps.ToolMeta{ResourceURI: "ui://sales/chart.html", Visibility: []apps.Visibility{apps.VisibilityApp}}, true},
			{"export", apps.ToolMeta{Visibility: []apps.Visibility{apps.VisibilityModel}}, true},
			{"plain", apps.ToolMeta{}, false},
		}
		for _, tt := range tests {
			got, ok, err := apps.ToolMetaOf(tools[tt.tool])
			if err != nil || ok != tt.ok || got.ResourceURI != tt.want.ResourceURI || !equalVisibility(got.Visibility, tt.want.Visibility) {
				t.Errorf("%s: ToolMetaOf = %+v, %v, %v; want %+v, %v", tt.tool, got, ok, err, tt.want, tt.ok)
			}
		}
		if got := tools["sales"].Meta[apps.LegacyResourceURIMetaKey]; got != "ui://sales/chart.html" {
			t.Errorf("sales: _meta[%q] = %v, want the view's URI for older hosts", apps.LegacyResourceURIMetaKey, got)
		}
		if got := tools["sales"].Meta["com.example/owner"]; got != "sales" {
			t.Errorf("sales: the tool's own _meta was lost: %v", tools["sales"].Meta)
		}
		if uris := listResourceURIs(t, c); len(uris) != 1 || uris[0] != "ui://sales/chart.html" {
			t.Errorf("resources = %v, want the view once", uris)
		}
		v, err := apps.ReadView(ctx, c, "ui://sales/chart.html")
		if err != nil {
			t.Fatal(err)
		}
		if v.HTML != chartHTML || v.Meta.CSP == nil || v.Meta.CSP.ConnectDomains[0] != "https://api.example.com" || v.Meta.PrefersBorder == nil || !*v.Meta.PrefersBorder {
			t.Errorf("ReadView = %+v", v)
		}
		res, err := c.CallTool(ctx, "refresh", SalesArgs{"north"})
		if err != nil || res.IsError {
			t.Fatalf("a host calls an app-only tool: %v %+v", err, res)
		}
	})
}

func equalVisibility(a, b []apps.Visibility) bool {
	return strings.Join(toStrings(a), ",") == strings.Join(toStrings(b), ",")
}

func toStrings(v []apps.Visibility) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = string(x)
	}
	return out
}

// TestAppsFallback checks what a client that renders no views gets: the
// tools without _meta.ui, no app-only tools and no views listed, and the
// same results.
func TestAppsFallback(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		opts []client.Option
	}{
		{"undeclared", nil},
		{"other MIME type", []client.Option{client.WithApps("text/uri-list")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			appClients(t, appServer, tt.opts, func(t *testing.T, c *client.Client) {
				ctx := ctxT(t)
				tools := listToolsByName(t, c)
				if _, ok := tools["refresh"]; ok || len(tools) != 3 {
					t.Fatalf("tools = %v, want sales, export and plain", tools)
				}
				for name, tool := range tools {
					if _, ok, _ := apps.ToolMetaOf(tool); ok {
						t.Errorf("%s: _meta = %v, want no view metadata", name, tool.Meta)
					}
				}
				if got := tools["sales"].Meta["com.example/owner"]; got != "sales" {
					t.Errorf("sales: the tool's own _meta was lost: %v", tools["sales"].Meta)
				}
				if uris := listResourceURIs(t, c); len(uris) != 0 {
					t.Errorf("resources = %v, want no views", uris)
				}
				res, err := c.CallTool(ctx, "sales", SalesArgs{"north"})
				if err != nil || res.IsError {
					t.Fatalf("sales: %v %+v", err, res)
				}
				if got := res.Text(); !strings.Contains(got, `"total":42`) {
					t.Errorf("sales text = %q, want the result unchanged", got)
				}
				_, err = c.CallTool(ctx, "refresh", SalesArgs{"north"})
				if !errors.Is(err, protocol.ErrInvalidParams) {
					t.Errorf("calling an app-only tool without the extension: err = %v, want an unknown tool", err)
				}
			})
		})
	}
}

func TestAppsRegistrationErrors(t *testing.T) {
	t.Parallel()
	fn := func() (string, error) { return "x", nil }
	view := apps.NewView("ui://a/view.html", chartHTML)
	tests := []struct {
		name  string
		setup func(s *fastmcp.Server)
		opts  []fastmcp.ToolOption
		want  string
	}{
		{"nil view", nil, []fastmcp.ToolOption{apps.WithView(nil)}, "nil"},
		{"not ui://", nil, []fastmcp.ToolOption{apps.WithView(apps.NewView("https://example.com/v.html", chartHTML))}, "ui:// scheme"},
		{"no HTML", nil, []fastmcp.ToolOption{apps.WithView(apps.NewView("ui://a/empty", ""))}, "no HTML"},
		{"two views on one URI", func(s *fastmcp.Server) { s.Tool("first", fn, apps.WithView(view)) },
			[]fastmcp.ToolOption{apps.WithView(apps.NewView("ui://a/view.html", "<p>other</p>"))}, "different contents"},
		{"URI of a plain resource", func(s *fastmcp.Server) { s.Resource("ui://a/view.html", fn) },
			[]fastmcp.ToolOption{apps.WithView(view)}, "not a view"},
		{"AppOnly and ModelOnly", nil, []fastmcp.ToolOption{apps.AppOnly(), apps.ModelOnly()}, "exclude each other"},
		{"ModelOnly and AppOnly", nil, []fastmcp.ToolOption{apps.ModelOnly(), apps.WithView(view), apps.AppOnly()}, "exclude each other"},
		{"ui in Meta given after", nil, []fastmcp.ToolOption{apps.AppOnly(), fastmcp.Meta(protocol.Meta{"ui": map[string]any{}})}, `Meta has a "ui" key`},
		{"Meta with ui", nil, []fastmcp.ToolOption{fastmcp.Meta(protocol.Meta{"ui": map[string]any{}}), apps.WithView(view)}, `Meta has a "ui" key`},
	}
	invalidView := map[string]bool{"nil view": true, "not ui://": true, "no HTML": true} // View.Validate's errors
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer()
			s.Tool("other", fn)
			if tt.setup != nil {
				tt.setup(s)
			}
			err := registerErr(t, func() { s.Tool("tool", fn, tt.opts...) })
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), `tool "tool"`) {
				t.Fatalf("Tool panicked with %v, want an error about %q naming the tool", err, tt.want)
			}
			if invalid := invalidView[tt.name]; invalid != errors.Is(err, apps.ErrInvalidView) {
				t.Fatalf("Tool panicked with %v: errors.Is(err, apps.ErrInvalidView) = %v, want %v", err, !invalid, invalid)
			}
			if tools := listToolsByName(t, connect(t, s, client.WithApps())); tools["tool"] != nil {
				t.Fatal("the failed tool was registered")
			}
		})
	}
}

// TestAppsSharedView registers one view with several tools: it is listed
// once, and an equal view built separately is the same view.
func TestAppsSharedView(t *testing.T) {
	t.Parallel()
	s := newServer()
	fn := func() (string, error) { return "x", nil }
	s.Tool("a", fn, apps.WithView(apps.NewView("ui://shared/v.html", chartHTML)))
	s.Tool("b", fn, apps.WithView(apps.NewView("ui://shared/v.html", chartHTML)))
	s.Tool("c", fn, apps.WithView(apps.NewView("ui://shared/other.html", chartHTML)))
	c := connect(t, s, client.WithApps())
	if uris := listResourceURIs(t, c); strings.Join(uris, " ") != "ui://shared/other.html ui://shared/v.html" {
		t.Fatalf("resources = %v, want each view once", uris)
	}
}

// TestAppsViewCopied checks that changing a View after registering it
// changes nothing the server serves.
func TestAppsViewCopied(t *testing.T) {
	t.Parallel()
	s := newServer()
	v := apps.NewView("ui://a/v.html", chartHTML)
	v.Meta.CSP = &apps.CSP{ConnectDomains: []string{"https://a.example"}}
	s.Tool("a", func() (string, error) { return "x", nil }, apps.WithView(v))
	v.HTML = "<p>changed</p>"
	v.Meta.CSP.ConnectDomains[0] = "https://evil.example"
	got, err := apps.ReadView(ctxT(t), connect(t, s, client.WithApps()), "ui://a/v.html")
	if err != nil {
		t.Fatal(err)
	}
	if got.HTML != chartHTML || got.Meta.CSP.ConnectDomains[0] != "https://a.example" {
		t.Fatalf("view = %q %+v, want the registered one", got.HTML, got.Meta.CSP)
	}
}

func TestReadViewNotView(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Resource("ui://a/text", func() string { return "plain text" })
	_, err := apps.ReadView(ctxT(t), connect(t, s, client.WithApps()), "ui://a/text")
	if !errors.Is(err, apps.ErrNotView) {
		t.Fatalf("err = %v, want ErrNotView", err)
	}
}

// TestReadViewMIMESpelling checks that ReadView takes the view MIME type
// as apps.IsViewMIMEType does: with a space and a charset too.
func TestReadViewMIMESpelling(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Resource("ui://a/loose", func() string { return "<p>loose</p>" }, fastmcp.MIMEType(`text/html; charset=utf-8; profile="mcp-app"`))
	v, err := apps.ReadView(ctxT(t), connect(t, s, client.WithApps()), "ui://a/loose")
	if err != nil || v.HTML != "<p>loose</p>" {
		t.Fatalf("ReadView = %+v, %v", v, err)
	}
}

// TestAppsNoViewsNoChange checks that a server without views lists the
// same for every client and declares no extension.
func TestAppsNoViewsNoChange(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("plain", func() (string, error) { return "plain", nil })
	c := connect(t, s)
	if _, ok := c.ServerCapabilities().Extensions[apps.Extension]; ok {
		t.Fatal("a server without views declares the extension")
	}
	if tools := listToolsByName(t, c); len(tools) != 1 {
		t.Fatalf("tools = %v", tools)
	}
}

// TestAppsListsPrivate checks that on 2026-07-28 a server whose lists
// depend on whether the client renders views marks them private, even
// when it makes its lists public otherwise: a shared cache must not hand a
// host's list to a client that gets the fallback, or the reverse.
func TestAppsListsPrivate(t *testing.T) {
	t.Parallel()
	public := fastmcp.CacheHint(time.Minute, protocol.CacheScopePublic)
	fn := func() (string, error) { return "x", nil }
	tests := []struct {
		name  string
		views bool
		opts  []client.Option
		want  protocol.CacheScope
	}{
		{"no views", false, []client.Option{client.WithApps()}, protocol.CacheScopePublic},
		{"host", true, []client.Option{client.WithApps()}, protocol.CacheScopePrivate},
		{"fallback", true, nil, protocol.CacheScopePrivate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(public)
			s.Tool("plain", fn)
			if tt.views {
				s.Tool("viewed", fn, apps.WithView(apps.NewView("ui://a/v.html", chartHTML)))
			} else {
				s.Resource("docs://a", fn)
			}
			c := connect(t, s, append(tt.opts, client.WithProtocolVersion(protocol.LatestVersion))...)
			tools, err := c.ListTools(ctxT(t), "")
			if err != nil {
				t.Fatal(err)
			}
			resources, err := c.ListResources(ctxT(t), "")
			if err != nil {
				t.Fatal(err)
			}
			if tools.CacheScope != tt.want || resources.CacheScope != tt.want {
				t.Fatalf("cacheScope: tools %q, resources %q; want %q", tools.CacheScope, resources.CacheScope, tt.want)
			}
		})
	}
}

// TestAppsRemoveTool checks that a view goes with the last tool naming it.
func TestAppsRemoveTool(t *testing.T) {
	t.Parallel()
	s := newServer()
	fn := func() (string, error) { return "x", nil }
	view := apps.NewView("ui://a/v.html", chartHTML)
	s.Tool("one", fn, apps.WithView(view))
	s.Tool("two", fn, apps.WithView(view))
	s.Tool("plain", fn)
	c := connect(t, s, client.WithApps())
	steps := []struct {
		remove string
		want   string // the resources listed after
	}{
		{"one", "ui://a/v.html"},
		{"plain", "ui://a/v.html"},
		{"two", ""},
	}
	for _, st := range steps {
		if !s.RemoveTool(st.remove) {
			t.Fatalf("RemoveTool(%q) = false", st.remove)
		}
		if got := strings.Join(listResourceURIs(t, c), " "); got != st.want {
			t.Fatalf("after removing %s: resources = %q, want %q", st.remove, got, st.want)
		}
	}
	// The URI is free again, for a different view.
	if err := registerErr(t, func() { s.Tool("three", fn, apps.WithView(apps.NewView("ui://a/v.html", "<p>new</p>"))) }); err != nil {
		t.Fatal(err)
	}
}

// TestProxyApps: MCP Apps through a Proxy, in every era pair: a caller
// that renders views gets the backend's tools and views as the backend
// lists them and may call its app-only tools; another gets the
// extension's fallback (no app-only tools, no views, no _meta.ui).
func TestProxyApps(t *testing.T) {
	t.Parallel()
	eachEraPair(t, func(t *testing.T, back, front client.Option, _ bool) {
		bc := connect(t, appServer(t), back, client.WithRequestForwarding(), client.WithApps())
		proxy := proxy.New(bc, fastmcp.Logger(quietLogger))
		ctx := ctxT(t)

		host := connect(t, proxy, front, client.WithApps())
		if _, ok := host.ServerCapabilities().Extensions[apps.Extension]; !ok {
			t.Errorf("the proxy does not declare %s", apps.Extension)
		}
		if tools := listToolsByName(t, host); len(tools) != 4 {
			t.Errorf("host: tools = %v, want all four", tools)
		}
		if uris := listResourceURIs(t, host); len(uris) != 1 || uris[0] != "ui://sales/chart.html" {
			t.Errorf("host: resources = %v, want the view", uris)
		}
		if res, err := host.CallTool(ctx, "refresh", SalesArgs{"north"}); err != nil || res.IsError {
			t.Errorf("host: an app-only tool through the proxy = %+v, %v", res, err)
		}

		plain := connect(t, proxy, front)
		tools := listToolsByName(t, plain)
		if _, ok := tools["refresh"]; ok || len(tools) != 3 {
			t.Fatalf("plain: tools = %v, want sales, export and plain", tools)
		}
		if _, ok := tools["sales"].Meta[apps.MetaKey]; ok || tools["sales"].Meta["com.example/owner"] != "sales" {
			t.Errorf("plain: sales _meta = %v, want its own without ui", tools["sales"].Meta)
		}
		if uris := listResourceURIs(t, plain); len(uris) != 0 {
			t.Errorf("plain: resources = %v, want no view", uris)
		}
		if _, err := plain.CallTool(ctx, "refresh", SalesArgs{"north"}); err == nil {
			t.Error("plain: an app-only tool could be called by a client that renders no views")
		}
	})
}
