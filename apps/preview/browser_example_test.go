package preview_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fastmcp-go/fastmcp/apps/preview/internal/browser"
	"github.com/fastmcp-go/fastmcp/client"
)

// TestBrowserExampleApps renders the view of our example app server
// (examples/apps, built and run as a subprocess over stdio, as
// `fastmcp dev apps -- ./apps` runs it) in the preview, in headless
// Chromium: the view loads, receives the tool's result and draws it, calls
// the app-only forecast tool through the host and shows the answer. The
// screenshots of docs/apps.md come from this test.
//
// TestBrowserGoAppServer covers what the example does not use: an app
// server written in the test, whose view checks the host context, tool
// input, CSP blocking, messages, links, logs, size changes, a refused
// model-only tool and teardown; TestBrowserCSP and
// TestBrowserInputBeforeResult cover declared connect domains and input
// before the result.
func TestBrowserExampleApps(t *testing.T) {
	ctx := browser.Start(t)
	cctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := client.ConnectCommand(cctx, &client.Command{Path: buildExampleApps(t)}, client.WithApps())
	if err != nil {
		t.Fatalf("starting examples/apps: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	url, _ := servePreview(t, c)

	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	hostText(t, ctx, "tools", "sales_report")
	hostText(t, ctx, "tools", "app-only")
	// sales_report, the first tool with a view the model may call, is
	// selected.
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#field-region"), `"east"`), // an enum: the options are JSON
		chromedp.Click(chromedp.CSS("#call-button")),
	); err != nil {
		t.Fatal(err)
	}
	hostText(t, ctx, "view-status", "initialized")
	hostText(t, ctx, "result-structured", `"total": 990`)

	frame := viewFrame(t, ctx)
	viewText(t, ctx, frame, "title", "Sales: east")
	viewText(t, ctx, frame, "total", "990")
	viewText(t, ctx, frame, "status", "6 months, 990 units")

	clickInView(t, ctx, frame, "forecast")
	viewText(t, ctx, frame, "answer", "Forecast for Jul: 270 units")
	hostText(t, ctx, "log", "← view tools/call")
	screenshot(t, ctx, "apps-preview.png")

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#theme-toggle"))); err != nil {
		t.Fatal(err)
	}
	hostText(t, ctx, "log", "→ view ui/notifications/host-context-changed")
	screenshot(t, ctx, "apps-preview-dark.png")
}

// buildExampleApps builds the example app server (examples/apps, in the
// root module) for the test and returns its path.
func buildExampleApps(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "apps")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", exe, "github.com/fastmcp-go/fastmcp/examples/apps").CombinedOutput(); err != nil {
		t.Fatalf("building examples/apps: %v\n%s", err, out)
	}
	return exe
}
