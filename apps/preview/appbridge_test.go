package preview_test

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fastmcp-go/fastmcp/apps"
	"github.com/fastmcp-go/fastmcp/apps/preview/internal/browser"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/internal/nodepeers"
	"github.com/fastmcp-go/fastmcp/protocol"
)

var bridgeScreenshot = flag.String("screenshot", "", "write a PNG of the view, as the AppBridge host renders it, to this file (docs/images/apps-view.png)")

// bridgeImports maps the bare module names the AppBridge's graph imports
// (app-bridge.js and its dependencies are unbundled ESM written for
// Node's resolver) to their browser entry points under /node_modules/.
// jose is imported lazily, only for OAuth, which the bridge never does.
var bridgeImports = map[string]string{
	"@modelcontextprotocol/ext-apps/app-bridge": "@modelcontextprotocol/ext-apps/dist/src/app-bridge.js",
	"@modelcontextprotocol/client":              "@modelcontextprotocol/client/dist/index.mjs",
	"@modelcontextprotocol/client/_shims":       "@modelcontextprotocol/client/dist/shimsBrowser.mjs",
	"@modelcontextprotocol/core":                "@modelcontextprotocol/core/dist/index.mjs",
	"@modelcontextprotocol/core/internal":       "@modelcontextprotocol/core/dist/internal.mjs",
	"zod/v4":                                    "zod/v4/index.js",
	"zod/compile":                               "zod/compile.js",
	"eventsource":                               "eventsource/dist/index.js",
	"eventsource-parser":                        "eventsource-parser/dist/index.js",
	"eventsource-parser/stream":                 "eventsource-parser/dist/stream.js",
	"pkce-challenge":                            "pkce-challenge/dist/index.browser.js",
	"jose":                                      "jose/dist/webapi/index.js",
}

// hostPage is a minimal host built on the official AppBridge: it renders
// the view in an iframe, sends it the tool's input and result once it is
// initialized, and forwards the view's tools/call to /api/call, where the
// test's fastmcp client calls the example server.
const hostPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>AppBridge host</title>
<script type="importmap">IMPORTMAP</script>
</head><body>
<p id="host-status">loading</p>
<iframe id="view" sandbox="allow-scripts allow-same-origin" style="width:600px;height:200px;border:1px solid #999"></iframe>
<script type="module">
window.addEventListener("error", (e) => { window.hostError = String(e.message); });
window.addEventListener("unhandledrejection", (e) => { window.hostError = String(e.reason && e.reason.stack || e.reason); });
const status = (s) => { document.getElementById("host-status").textContent = s; };
async function call(params) {
  const res = await fetch("/api/call", { method: "POST", body: JSON.stringify(params) });
  if (!res.ok) throw new Error(await res.text());
  return await res.json();
}
try {
  const { AppBridge, PostMessageTransport } = await import("@modelcontextprotocol/ext-apps/app-bridge");
  const view = await (await fetch("/api/view")).json();
  const iframe = document.getElementById("view");
  const bridge = new AppBridge(null, { name: "fastmcp-appbridge-test", version: "1.0.0" },
    { serverTools: {}, logging: {} },
    { hostContext: { theme: "light", displayMode: "inline", platform: "web" } });
  bridge.oncalltool = async (params) => call(params);
  bridge.onsizechange = ({ height }) => {
    if (height) iframe.style.height = height + "px";
    window.sized = true;
  };
  const args = { region: "east" };
  bridge.oninitialized = async () => {
    status("initialized");
    await bridge.sendToolInput({ arguments: args });
    const result = await call({ name: "sales_report", arguments: args });
    await bridge.sendToolResult(result);
    status("result sent");
  };
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = view.html;
} catch (err) {
  window.hostError = String(err && err.stack || err);
}
</script></body></html>`

// TestAppBridge renders the example's view with the official host library
// (AppBridge from @modelcontextprotocol/ext-apps) in headless Chromium,
// against the example server (examples/apps, built and run over stdio,
// as TestBrowserExampleApps runs it): the view loads and
// initializes, shows the tool's result, and its button calls the app-only
// forecast tool through the host and shows the answer.
func TestAppBridge(t *testing.T) {
	peers := nodepeers.Require(t, "@modelcontextprotocol/ext-apps", "@modelcontextprotocol/client", "zod")
	ctx := browser.Start(t)

	cctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := client.ConnectCommand(cctx, &client.Command{Path: buildExampleApps(t)}, client.WithApps())
	if err != nil {
		t.Fatalf("starting examples/apps: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	v, err := apps.ReadView(t.Context(), c, "ui://sales/chart.html") // the example's view
	if err != nil {
		t.Fatal(err)
	}

	imports := map[string]string{}
	for name, file := range bridgeImports {
		imports[name] = "/node_modules/" + file
	}
	importMap, err := json.Marshal(map[string]any{"imports": imports})
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		calls []string // the tools the host called, in order
	)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(strings.Replace(hostPage, "IMPORTMAP", string(importMap), 1)))
	})
	mux.Handle("GET /node_modules/", http.StripPrefix("/node_modules/", http.FileServer(http.Dir(filepath.Join(peers.Dir, "node_modules")))))
	mux.HandleFunc("GET /api/view", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"html": v.HTML})
	})
	mux.HandleFunc("POST /api/call", func(w http.ResponseWriter, r *http.Request) {
		var p struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
		}
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		calls = append(calls, p.Name)
		mu.Unlock()
		res, err := c.CallTool(r.Context(), p.Name, p.Arguments)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		b, err := protocol.Marshal(res)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	})
	host := httptest.NewServer(mux)
	t.Cleanup(host.Close)

	if err := chromedp.Do(ctx, chromedp.Navigate(host.URL)); err != nil {
		t.Fatal(err)
	}
	// inView evaluates an expression over the view's document.
	inView := func(expr string) string {
		return `window.hostError ? "host error: " + window.hostError : (() => {
			const d = document.getElementById("view").contentDocument;
			if (!d || !d.getElementById("status")) return null;
			return ` + expr + `;
		})()`
	}

	// The view shows the result the host sent it.
	got, err := chromedp.Run(ctx, chromedp.Poll[string](inView(`/units$/.test(d.getElementById("status").textContent) ? d.getElementById("status").textContent : null`)))
	if err != nil {
		t.Fatalf("the view never showed the tool result: %v", err)
	}
	if want := "6 months, 990 units"; got != want {
		t.Fatalf("view status = %q, want %q", got, want)
	}
	title, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("view").contentDocument.getElementById("title").textContent`))
	if err != nil || title != "Sales: east" {
		t.Errorf("view title = %q, %v; want the tool input's region", title, err)
	}
	bars, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.getElementById("view").contentDocument.querySelectorAll("#chart .bar").length`))
	if err != nil || bars != 6 {
		t.Errorf("chart bars = %d, %v; want 6", bars, err)
	}

	// Its button calls forecast through the AppBridge and shows the answer.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("view").contentDocument.getElementById("forecast").click()`)); err != nil {
		t.Fatal(err)
	}
	answer, err := chromedp.Run(ctx, chromedp.Poll[string](inView(`/^Forecast/.test(d.getElementById("answer").textContent) ? d.getElementById("answer").textContent : null`)))
	if err != nil {
		t.Fatalf("the view never showed the forecast: %v", err)
	}
	if want := "Forecast for Jul: 270 units"; answer != want {
		t.Errorf("answer = %q, want %q", answer, want)
	}
	if *bridgeScreenshot != "" {
		png, err := chromedp.Run(ctx, chromedp.Screenshot("#view"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*bridgeScreenshot, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sized, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.sized === true`))
	if err != nil || !sized {
		t.Errorf("the host got no size-changed from the view (%v)", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(calls, []string{"sales_report", "forecast"}) {
		t.Errorf("host calls = %v, want sales_report then forecast", calls)
	}
}
