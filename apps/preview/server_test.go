package preview_test

import (
	"context"
	_ "embed"
	"log/slog"
	"net"
	"testing"

	"github.com/fastmcp-go/fastmcp/apps"
	"github.com/fastmcp-go/fastmcp/apps/preview"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

//go:embed testdata/view.html
var counterView string

const viewURI = "ui://counter/view.html"

type countArgs struct {
	Count int    `json:"count" jsonschema:"description=Where the counter starts"`
	Label string `json:"label,omitempty"`
}

type countResult struct {
	Count int    `json:"count"`
	Label string `json:"label"`
}

type doubleArgs struct {
	N int `json:"n"`
}

type doubleResult struct {
	Value int `json:"value"`
}

// newAppServer is an MCP Apps server written by hand: a tool with a view,
// an app-only tool, a model-only tool, and the view resource.
func newAppServer() *fastmcp.Server { return newAppServerWith(nil, "") }

type probeArgs struct {
	URL string `json:"url"`
}

// newAppServerWith is newAppServer with more: when release is not nil, a
// tool with the view, slow_counter, whose calls return only once release
// is closed or sends; when connect is not empty, the view's
// _meta.ui.csp.connectDomains (in its resources/list entry) and a tool
// with the view, probe, whose view fetches the URL it is called with.
func newAppServerWith(release <-chan struct{}, connect string) *fastmcp.Server {
	s := fastmcp.New("counter-app", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("show_counter", func(in countArgs) countResult {
		return countResult(in)
	}, fastmcp.Description("Shows a counter in a view."),
		fastmcp.Meta(protocol.Meta{"ui": map[string]any{"resourceUri": viewURI}}))
	if release != nil {
		s.Tool("slow_counter", func(ctx *fastmcp.Context, in countArgs) (countResult, error) {
			select {
			case <-release:
				return countResult(in), nil
			case <-ctx.Done():
				return countResult{}, ctx.Err()
			}
		}, fastmcp.Description("Shows a counter once released."),
			fastmcp.Meta(protocol.Meta{"ui": map[string]any{"resourceUri": viewURI}}))
	}
	s.Tool("double", func(in doubleArgs) doubleResult {
		return doubleResult{Value: 2 * in.N}
	}, fastmcp.Description("Doubles a number."))
	s.Tool("secret", func() doubleResult {
		return doubleResult{Value: 7}
	}, fastmcp.Description("Only the view may call this."),
		fastmcp.Meta(protocol.Meta{"ui": map[string]any{"resourceUri": viewURI, "visibility": []string{"app"}}}))
	s.Tool("model_only", func() doubleResult {
		return doubleResult{Value: 9}
	}, fastmcp.Description("The view may not call this."),
		fastmcp.Meta(protocol.Meta{"ui": map[string]any{"visibility": []string{"model"}}}))
	ui := map[string]any{"prefersBorder": true, "permissions": map[string]any{"clipboardWrite": map[string]any{}}}
	if connect != "" {
		ui["csp"] = map[string]any{"connectDomains": []string{connect}}
		s.Tool("probe", func(in probeArgs) countResult {
			return countResult{Label: in.URL}
		}, fastmcp.Description("Its view fetches url."),
			fastmcp.Meta(protocol.Meta{"ui": map[string]any{"resourceUri": viewURI}}))
	}
	s.Resource(viewURI, func() string { return counterView },
		fastmcp.MIMEType(apps.MIMEType), fastmcp.Meta(protocol.Meta{"ui": ui}))
	return s
}

// servePreview serves a preview of client on two loopback ports and
// returns the page's URL. The servers stop when the test ends.
func servePreview(t *testing.T, c *client.Client) (url string, p *preview.Preview) {
	t.Helper()
	page, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sandbox, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p = preview.New(c, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Serve(ctx, page, sandbox) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return "http://" + page.Addr().String() + "/", p
}
