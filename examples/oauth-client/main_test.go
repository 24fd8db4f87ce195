package main

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/internal/exampletest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// follow plays the browser: the demo's authorization page redirects at
// once to the client's loopback listener.
func follow(ctx context.Context, authURL string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

func TestRun(t *testing.T) {
	tokens := filepath.Join(t.TempDir(), "tokens.json")
	out := exampletest.Run(t, func(ctx context.Context, out io.Writer) error { return runDemo(ctx, out, follow, tokens) })
	exampletest.Equal(t, out, `login: opening the authorization page
first connection: whoami → demo-user
second connection: whoami → demo-user
`)
}
