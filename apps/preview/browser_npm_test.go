package preview_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fastmcp-go/fastmcp/apps/preview/internal/browser"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/internal/nodepeers"
)

const vanillaPkg = "@modelcontextprotocol/server-basic-vanillajs"

// TestBrowserNpmAppServer renders the view of the reference app server
// from npm (@modelcontextprotocol/server-basic-vanillajs, built on the
// official App class), run as a subprocess over stdio, in the preview:
// the view initializes, shows the tool's result, calls the server's
// get-time tool through the host and shows the new answer, and its
// message, log and link requests reach the side panel.
func TestBrowserNpmAppServer(t *testing.T) {
	peers := nodepeers.Require(t, vanillaPkg)
	ctx := browser.Start(t)

	cctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := client.ConnectCommand(cctx, &client.Command{
		Path: peers.Node,
		Args: []string{peers.Path(vanillaPkg, "dist/index.js"), "--stdio"},
	})
	if err != nil {
		t.Fatalf("starting %s: %v", vanillaPkg, err)
	}
	t.Cleanup(func() { c.Close() })
	url, _ := servePreview(t, c)

	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	hostText(t, ctx, "tools", "Get Time")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#call-button"))); err != nil {
		t.Fatal(err)
	}
	hostText(t, ctx, "view-status", "initialized")
	frame := viewFrame(t, ctx)
	first := viewMatches(t, ctx, frame, "server-time", `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$`)

	// The view calls get-time through the host; the answer is a new time.
	calls := `document.getElementById("log").textContent.split("← view tools/call").length - 1`
	clickInView(t, ctx, frame, "get-time-btn")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](calls+` >= 1`)); err != nil {
		t.Fatalf("the view's tools/call never reached the host: %v", err)
	}
	// The answer replaces the first time (the server's clock is in
	// milliseconds, and a round trip through the browser, the Go handler
	// and node takes longer than one).
	expr := `(function(){var e=document.getElementById("server-time"); return e.textContent !== ` + strconv.Quote(first) + ` && /^\d{4}-/.test(e.textContent)})()`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInFrame(frame))); err != nil {
		t.Fatalf("the view did not show a new time after calling get-time: %v", err)
	}

	clickInView(t, ctx, frame, "send-message-btn")
	hostText(t, ctx, "messages", "This is message text.")
	clickInView(t, ctx, frame, "send-log-btn")
	hostText(t, ctx, "log", "This is log text.")
	clickInView(t, ctx, frame, "open-link-btn")
	hostText(t, ctx, "links", "https://modelcontextprotocol.io/")
}
