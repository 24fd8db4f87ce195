package preview_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/fastmcp-go/fastmcp/apps/preview/internal/browser"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
)

// hostText waits until the element id of the host page has the text want.
func hostText(t *testing.T, ctx context.Context, id, want string) {
	t.Helper()
	expr := `document.getElementById(` + strconv.Quote(id) + `).textContent.includes(` + strconv.Quote(want) + `)`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr)); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById(`+strconv.Quote(id)+`).textContent`))
		t.Fatalf("host page #%s: waiting for %q: %v (text: %q)", id, want, err, got)
	}
}

// viewFrame returns the node of the view's iframe: the inner frame of the
// sandbox proxy, which the host page embeds as #view-frame.
func viewFrame(t *testing.T, ctx context.Context) *chromedp.Node {
	t.Helper()
	outer, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("#view-frame")))
	if err != nil {
		t.Fatalf("the sandbox frame: %v", err)
	}
	inner, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("iframe"), chromedp.FromNode(outer[0])))
	if err != nil {
		t.Fatalf("the view frame inside the sandbox: %v", err)
	}
	return inner[0]
}

// viewText waits until the element id of the view has the text want.
func viewText(t *testing.T, ctx context.Context, frame *chromedp.Node, id, want string) {
	t.Helper()
	expr := `(document.getElementById(` + strconv.Quote(id) + `) || {textContent: ""}).textContent === ` + strconv.Quote(want)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInFrame(frame))); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Poll[string](`(document.getElementById(`+strconv.Quote(id)+`) || {textContent: "(missing)"}).textContent`, chromedp.WithPollingInFrame(frame)))
		t.Fatalf("view #%s: waiting for %q: %v (text: %q)", id, want, err, got)
	}
}

// viewMatches waits until the text of the element id of the view matches
// the JavaScript regular expression re.
func viewMatches(t *testing.T, ctx context.Context, frame *chromedp.Node, id, re string) string {
	t.Helper()
	expr := `(function(){var e=document.getElementById(` + strconv.Quote(id) + `); return e && new RegExp(` + strconv.Quote(re) + `).test(e.textContent) ? e.textContent : ""})()`
	got, err := chromedp.Run(ctx, chromedp.Poll[string](expr, chromedp.WithPollingInFrame(frame)))
	if err != nil {
		t.Fatalf("view #%s: waiting for /%s/: %v", id, re, err)
	}
	return got
}

func clickInView(t *testing.T, ctx context.Context, frame *chromedp.Node, id string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#"+id), chromedp.FromNode(frame))); err != nil {
		t.Fatalf("clicking #%s in the view: %v", id, err)
	}
}

// screenshot writes the page to docs/images/name when
// FASTMCP_UPDATE_SCREENSHOTS=1.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if ok, _ := strconv.ParseBool(os.Getenv("FASTMCP_UPDATE_SCREENSHOTS")); !ok {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join("..", "..", "docs", "images", name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}

// TestBrowserGoAppServer renders the view of an app server written in the
// test in the preview, in headless Chromium (TestBrowserExampleApps renders
// examples/apps; this one covers what the example does not use): the view initializes, gets the
// tool's input and result, calls server tools through the host (an
// app-only one too; a model-only one is refused), and its messages,
// context updates, links and logs reach the side panel. Its CSP blocks
// network access, and it is torn down when closed.
func TestBrowserGoAppServer(t *testing.T) {
	client := fastmcptest.NewClient(t, newAppServer())
	url, _ := servePreview(t, client)
	ctx := browser.Start(t)

	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	hostText(t, ctx, "tools", "show_counter")
	hostText(t, ctx, "tools", "app-only")
	hostText(t, ctx, "other-tools", "double")
	// The first tool with a view is selected; fill its form and call it.
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#field-count"), "41"),
		chromedp.SetValue(chromedp.CSS("#field-label"), "clicks"),
		chromedp.Click(chromedp.CSS("#call-button")),
	); err != nil {
		t.Fatal(err)
	}
	hostText(t, ctx, "view-status", "initialized")
	hostText(t, ctx, "result-structured", `"count": 41`)

	frame := viewFrame(t, ctx)
	viewText(t, ctx, frame, "result", "41")
	viewText(t, ctx, frame, "input", `{"count":41,"label":"clicks"}`)
	viewText(t, ctx, frame, "platform", "web")
	viewText(t, ctx, frame, "tool", "show_counter")
	viewText(t, ctx, frame, "fetch", "blocked")

	clickInView(t, ctx, frame, "ask")
	viewText(t, ctx, frame, "answer", "42")
	clickInView(t, ctx, frame, "secret")
	viewText(t, ctx, frame, "secret-answer", "7")
	clickInView(t, ctx, frame, "model-only")
	viewMatches(t, ctx, frame, "model-only-answer", `^error: .*not visible to apps`)

	clickInView(t, ctx, frame, "say")
	hostText(t, ctx, "messages", "hello from the view")
	clickInView(t, ctx, frame, "ctx")
	hostText(t, ctx, "model-context", "the counter is shown")
	clickInView(t, ctx, frame, "link")
	hostText(t, ctx, "links", "https://modelcontextprotocol.io/")
	hostText(t, ctx, "log", "view started")

	// The view asked for 380px.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("view-frame").style.height === "380px"`)); err != nil {
		t.Fatalf("the frame was not resized: %v", err)
	}
	// The theme switch reaches the view.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#theme-toggle"))); err != nil {
		t.Fatal(err)
	}
	viewText(t, ctx, frame, "theme", "dark")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#theme-toggle"))); err != nil {
		t.Fatal(err)
	}

	// Closing the view sends ui/resource-teardown and waits for the answer.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#close-view"))); err != nil {
		t.Fatal(err)
	}
	hostText(t, ctx, "log", "→ view ui/resource-teardown")
	hostText(t, ctx, "log", "← view result")
	hostText(t, ctx, "view-status", "closed")
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("view-frame") === null`)); err != nil {
		t.Fatalf("the view frame was not removed: %v", err)
	}
}

// TestBrowserInputBeforeResult checks that the view gets the tool's
// arguments as soon as it is initialized, while the call still runs, and
// the result when it returns.
func TestBrowserInputBeforeResult(t *testing.T) {
	release := make(chan struct{})
	client := fastmcptest.NewClient(t, newAppServerWith(release, ""))
	url, _ := servePreview(t, client)
	ctx := browser.Start(t)
	defer close(release) // if the test fails before releasing the call

	if err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		chromedp.Click(chromedp.CSS(`[data-tool="slow_counter"]`)),
		chromedp.SetValue(chromedp.CSS("#field-count"), "5"),
		chromedp.Click(chromedp.CSS("#call-button")),
	); err != nil {
		t.Fatal(err)
	}
	hostText(t, ctx, "view-status", "initialized")
	frame := viewFrame(t, ctx)
	viewText(t, ctx, frame, "input", `{"count":5}`)
	viewText(t, ctx, frame, "result", "waiting")
	release <- struct{}{}
	viewText(t, ctx, frame, "result", "5")
}

// TestBrowserCSP checks the view's Content-Security-Policy end to end: the
// view may fetch from the origin its resource declares in
// _meta.ui.csp.connectDomains, and from no other.
func TestBrowserCSP(t *testing.T) {
	pong := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		fmt.Fprint(w, "pong")
	})
	declared := httptest.NewServer(pong)
	defer declared.Close()
	other := httptest.NewServer(pong)
	defer other.Close()

	client := fastmcptest.NewClient(t, newAppServerWith(nil, declared.URL))
	url, _ := servePreview(t, client)
	ctx := browser.Start(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		url, want string
	}{
		{declared.URL, "allowed: pong"},
		{other.URL, "blocked"},
	} {
		if err := chromedp.Do(ctx,
			chromedp.Click(chromedp.CSS(`[data-tool="probe"]`)),
			chromedp.SetValue(chromedp.CSS("#field-url"), tt.url),
			chromedp.Click(chromedp.CSS("#call-button")),
		); err != nil {
			t.Fatal(err)
		}
		hostText(t, ctx, "view-status", "initialized")
		viewText(t, ctx, viewFrame(t, ctx), "probe", tt.want)
		// Close the view so that the next one is not mistaken for it.
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#close-view"))); err != nil {
			t.Fatal(err)
		}
		hostText(t, ctx, "view-status", "closed")
	}
}
