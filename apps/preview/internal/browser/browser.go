// Package browser starts headless Chromium for tests that must see a page
// run for real (the MCP Apps views and the preview host), driven through
// the DevTools protocol with github.com/chromedp/chromedp.
//
// A test calls [Start]. Where Chromium is not installed it skips and says
// how to install it; under CI=true it fails instead, so that CI never
// passes by skipping.
package browser

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

// Path returns the Chromium binary: $FASTMCP_CHROMIUM, else chromium,
// chromium-browser or google-chrome on PATH. ok is false when none is found.
func Path() (path string, ok bool) {
	if p := os.Getenv("FASTMCP_CHROMIUM"); p != "" {
		return p, true
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}

// Start starts a headless Chromium with a fresh profile for the test and
// returns a chromedp context for its first tab. The browser is closed when
// the test ends. It skips the test when Chromium is missing, or fails it
// under CI=true.
func Start(tb testing.TB) context.Context {
	tb.Helper()
	path, ok := Path()
	if !ok {
		why := "chromium is not installed (apt-get install chromium, or set FASTMCP_CHROMIUM)"
		if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
			tb.Fatalf("browser: %s; CI must run this test", why)
		}
		tb.Skipf("browser: %s", why)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(tb.TempDir()),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		// Without these Chromium reaches for Google's hosts at every
		// start, which a closed network refuses, many at a time.
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx, chromedp.WithErrorf(tb.Logf))
	// The first Run starts the browser; fail here rather than in the
	// test's first step with a confusing error.
	if err := chromedp.Do(ctx); err != nil {
		cancelTab()
		cancelAlloc()
		tb.Fatalf("browser: starting %s: %v", path, err)
	}
	tb.Cleanup(func() {
		cancelTab()
		cancelAlloc()
	})
	return ctx
}
