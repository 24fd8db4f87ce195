package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestStart renders a page whose script writes into the document, so that
// it checks both that Chromium starts and that it runs scripts.
func TestStart(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><p id="out">static</p><script>document.getElementById("out").textContent = "ran " + (2+3)</script>`)
	}))
	defer srv.Close()
	ctx := Start(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Text("#out"))
	if err != nil {
		t.Fatal(err)
	}
	if got != "ran 5" {
		t.Fatalf("page text = %q, want %q", got, "ran 5")
	}
}
