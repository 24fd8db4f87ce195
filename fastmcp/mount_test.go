package fastmcp_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// The Server is an http.Handler.
var _ http.Handler = (*fastmcp.Server)(nil)

// TestServerMountedInMux mounts the Server in the user's own mux, beside
// the user's /healthz, and checks that every era and transport works
// through it, that its protections come with it (DNS-rebinding host check,
// body limit), that the HTTPEndpoints option moves it, and that Shutdown
// drains it gracefully: a call in flight gets its answer, new ones are
// refused.
func TestServerMountedInMux(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.MaxBodyBytes(1 << 10))
	s.Tool("add", func(in AddArgs) int { return in.A + in.B }, fastmcp.Description("add"))
	started, release := make(chan struct{}, 1), make(chan struct{})
	s.Tool("gate", func() string {
		started <- struct{}{}
		<-release
		return "done"
	}, fastmcp.Description("answers when released"))
	mux := http.NewServeMux()
	for _, p := range []string{"/mcp", "/sse", "/message"} {
		mux.Handle(p, s)
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "mine") })
	ts := httptest.NewServer(mux)
	t.Cleanup(func() { closeNow(s); ts.Close() })

	for _, tc := range []struct {
		name, url, version string
	}{
		{"streamable 2026-07-28", ts.URL + "/mcp", protocol.Version20260728},
		{"streamable 2025-11-25", ts.URL + "/mcp", protocol.Version20251125},
		{"legacy http+sse", ts.URL + "/sse", protocol.Version20241105},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := client.ConnectHTTP(ctxT(t), tc.url, client.WithProtocolVersion(tc.version), client.WithLogger(quietLogger))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			res, err := c.CallTool(ctxT(t), "add", map[string]int{"a": 2, "b": 3})
			if err != nil || textOf(t, res) != "5" {
				t.Fatalf("add: %v %v", res, err)
			}
		})
	}
	t.Run("user routes", func(t *testing.T) {
		resp, err := http.Get(ts.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != "mine" {
			t.Errorf("/healthz = %q, want the user's handler", body)
		}
	})
	t.Run("protections", func(t *testing.T) {
		const ping = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
		req, _ := http.NewRequestWithContext(ctxT(t), http.MethodPost, ts.URL+"/mcp", strings.NewReader(ping))
		req.Host = "evil.example"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("Host evil.example: %d, want 403", resp.StatusCode)
		}
		big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 2<<10) + `"}}`
		if status, body := post(t, ts.URL+"/mcp", big, map[string]string{"MCP-Protocol-Version": "2026-07-28"}); status != http.StatusRequestEntityTooLarge {
			t.Errorf("body over MaxBodyBytes: %d %s, want 413", status, body)
		}
	})

	// Shutdown: the call in flight is answered, new requests are refused.
	c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", legacy, client.WithLogger(quietLogger))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	answer := make(chan string, 1)
	go func() {
		res, err := c.CallTool(ctxT(t), "gate", nil)
		if err != nil {
			answer <- err.Error()
			return
		}
		answer <- textOf(t, res)
	}()
	<-started
	shut := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		shut <- s.Shutdown(ctx)
	}()
	const init = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	refused := false
	for range 500 {
		if status, _ := post(t, ts.URL+"/mcp", init, nil); status == http.StatusServiceUnavailable {
			refused = true
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !refused {
		t.Error("new sessions were still accepted during Shutdown")
	}
	close(release)
	if got := <-answer; got != "done" {
		t.Errorf("call in flight during Shutdown: %q, want done", got)
	}
	if err := <-shut; err != nil {
		t.Errorf("Shutdown = %v", err)
	}
	if status, _ := post(t, ts.URL+"/mcp", init, nil); status != http.StatusServiceUnavailable {
		t.Errorf("initialize after Shutdown: %d, want 503", status)
	}
}

// TestHTTPEndpointsOption checks that HTTPPath moves the mounted
// Streamable HTTP endpoint and HTTPEndpoints leaves the legacy ones out.
func TestHTTPEndpointsOption(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.HTTPPath("/rpc"), fastmcp.HTTPEndpoints(func(c *fastmcp.HTTPConfig) { c.NoSSE = true }))
	s.Tool("add", func(in AddArgs) int { return in.A + in.B }, fastmcp.Description("add"))
	ts := httptest.NewServer(s)
	t.Cleanup(func() { closeNow(s); ts.Close() })
	c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/rpc", client.WithLogger(quietLogger))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if res, err := c.CallTool(ctxT(t), "add", map[string]int{"a": 1, "b": 1}); err != nil || textOf(t, res) != "2" {
		t.Fatalf("add at /rpc: %v %v", res, err)
	}
	for _, path := range []string{"/mcp", "/sse"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, resp.StatusCode)
		}
	}
}

// TestMountedServerStartsItself checks that the first request to a
// mounted Server runs its Lifespan, that a Lifespan error answers 503 and
// is tried again by the next request, and that Shutdown runs the cleanup.
func TestMountedServerStartsItself(t *testing.T) {
	t.Parallel()
	var starts, cleanups atomic.Int32
	s := newServer(fastmcp.Lifespan(func(ctx context.Context) (*DB, func(context.Context) error, error) {
		if starts.Add(1) == 1 {
			return nil, nil, errors.New("database not up yet")
		}
		return &DB{Name: "pool"}, func(context.Context) error { cleanups.Add(1); return nil }, nil
	}))
	s.Tool("db", func(ctx *fastmcp.Context) string { return fastmcp.State[*DB](ctx).Name }, fastmcp.Description("db"))
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"db","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	hdr := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "db"}
	if status, body := post(t, ts.URL+"/mcp", call, hdr); status != http.StatusServiceUnavailable {
		t.Fatalf("first request, lifespan failing: %d %s, want 503", status, body)
	}
	if status, body := post(t, ts.URL+"/mcp", call, hdr); status != http.StatusOK || !strings.Contains(body, `"text":"pool"`) {
		t.Fatalf("second request: %d %s, want the lifespan's state", status, body)
	}
	if err := s.Shutdown(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if starts.Load() != 2 || cleanups.Load() != 1 {
		t.Errorf("lifespan ran %d times, cleanup %d; want 2 and 1", starts.Load(), cleanups.Load())
	}
	if status, _ := post(t, ts.URL+"/mcp", call, hdr); status != http.StatusServiceUnavailable {
		t.Errorf("after Shutdown: %d, want 503", status)
	}
}
