package redisstore_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// post sends one legacy (2025-11-25) JSON-RPC message and returns the
// response with its body read.
func post(t *testing.T, url, session, body string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// TestResumeFromRedis: the events of a legacy session's SSE response are
// stored in Redis by a server given Options, and a GET with Last-Event-ID
// replays them from there.
func TestResumeFromRedis(t *testing.T) {
	rdb := startRedis(t).client(t)
	ctx := context.Background()
	opts, err := options(ctx, rdb, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := fastmcp.New("resume", "1.0.0", append(opts, fastmcp.Logger(slog.New(slog.DiscardHandler)))...)
	// It reports progress first, so that its answer is an SSE stream (a
	// response that comes first is answered as JSON, and not stored).
	s.Tool("echo", func(c *fastmcp.Context, in struct {
		Text string `json:"text"`
	}) (string, error) {
		if err := c.Progress(1, 1, ""); err != nil {
			return "", err
		}
		return in.Text, nil
	})
	ts := httptest.NewServer(s)
	defer func() {
		ts.Close()
		c, cancel := context.WithCancel(ctx)
		cancel()
		_ = s.Shutdown(c)
	}()
	url := ts.URL + "/mcp"

	resp, _ := post(t, url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	session := resp.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatalf("initialize: no session (HTTP %d)", resp.StatusCode)
	}
	post(t, url, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	_, body := post(t, url, session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"from redis"},"_meta":{"progressToken":"p"}}}`)
	var first string // the priming event's id
	for line := range strings.SplitSeq(body, "\n") {
		if id, ok := strings.CutPrefix(line, "id: "); ok && first == "" {
			first = id
		}
	}
	if first == "" || !strings.Contains(body, "from redis") {
		t.Fatalf("tools/call answered without a priming event or the result:\n%s", body)
	}
	if n, err := rdb.LLen(ctx, "fastmcp:ev:{"+session+"}:log").Result(); err != nil || n == 0 {
		t.Fatalf("events in Redis: %d, %v", n, err)
	}

	// Resume after the priming event: the result comes back from Redis.
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, _ := http.NewRequestWithContext(gctx, "GET", url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	req.Header.Set("Last-Event-ID", first)
	gresp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer gresp.Body.Close()
	sc := bufio.NewScanner(gresp.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data:") && strings.Contains(sc.Text(), "from redis") {
			return
		}
	}
	t.Fatalf("the resumed stream ended without the result (HTTP %d): %v", gresp.StatusCode, sc.Err())
}
