package fastmcp_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// RegionArgs mirror region into the Mcp-Param-Region header.
type RegionArgs struct {
	Region string `json:"region" jsonschema_extras:"x-mcp-header=Region"`
	Count  int    `json:"count,omitempty" jsonschema_extras:"x-mcp-header=Count"`
}

func httpServer(t *testing.T) (*fastmcp.Server, *httptest.Server) {
	t.Helper()
	s := newServer()
	s.Tool("add", func(in AddArgs) int { return in.A + in.B }, fastmcp.Description("add"))
	s.Tool("where", func(in RegionArgs) string { return in.Region }, fastmcp.Description("where"))
	s.Tool("slow", func(ctx *fastmcp.Context) (string, error) {
		for i := range 3 {
			ctx.Progress(float64(i+1), 3, "")
			select {
			case <-time.After(10 * time.Millisecond):
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}
		return "done", nil
	}, fastmcp.Description("slow"))
	h := s
	ts := httptest.NewServer(h)
	t.Cleanup(func() { closeNow(h); ts.Close() })
	return s, ts
}

func TestHTTPBothEras(t *testing.T) {
	t.Parallel()
	_, ts := httpServer(t)
	for _, tc := range []struct {
		name    string
		opts    []client.Option
		url     string
		version string
	}{
		{"auto", nil, ts.URL + "/mcp", protocol.Version20260728},
		{"legacy", []client.Option{legacy}, ts.URL + "/mcp", protocol.Version20251125},
		{"sse fallback", nil, ts.URL + "/sse", protocol.Version20251125},
		{"sse fallback 2024", []client.Option{client.WithProtocolVersion(protocol.Version20241105)}, ts.URL + "/sse", protocol.Version20241105},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := client.ConnectHTTP(ctxT(t), tc.url, append(tc.opts, client.WithLogger(quietLogger))...)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if c.ProtocolVersion() != tc.version {
				t.Errorf("version = %s, want %s", c.ProtocolVersion(), tc.version)
			}
			res, err := c.CallTool(ctxT(t), "add", map[string]int{"a": 2, "b": 3})
			if err != nil || textOf(t, res) != "5" {
				t.Fatalf("add: %v %v", res, err)
			}
			var progress int
			res, err = c.CallTool(ctxT(t), "slow", nil, client.WithProgress(func(*protocol.ProgressParams) { progress++ }))
			if err != nil || textOf(t, res) != "done" || progress != 3 {
				t.Fatalf("slow: %v %v, %d progress notifications", res, err, progress)
			}
		})
	}
}

// post sends one modern request by hand.
func post(t *testing.T, url, body string, header map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctxT(t), "POST", url, bytes.NewBufferString(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestParamHeaders(t *testing.T) {
	t.Parallel()
	_, ts := httpServer(t)
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	call := func(args string, header map[string]string) (int, string) {
		h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "where"}
		for k, v := range header {
			h[k] = v
		}
		return post(t, ts.URL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"where","arguments":`+args+`,`+meta+`}}`, h)
	}
	for _, tc := range []struct {
		name   string
		args   string
		header map[string]string
		ok     bool
	}{
		{"plain", `{"region":"eu-west1"}`, map[string]string{"Mcp-Param-Region": "eu-west1"}, true},
		{"base64", `{"region":" café "}`, map[string]string{"Mcp-Param-Region": "=?base64?IGNhZsOpIA==?="}, true},
		{"integer", `{"region":"x","count":42}`, map[string]string{"Mcp-Param-Region": "x", "Mcp-Param-Count": "42"}, true},
		{"missing header", `{"region":"eu-west1"}`, nil, false},
		{"mismatch", `{"region":"eu-west1"}`, map[string]string{"Mcp-Param-Region": "us-east1"}, false},
		{"bad base64", `{"region":"Hello"}`, map[string]string{"Mcp-Param-Region": "=?base64?SGVsbG8?="}, false},
		{"header without argument", `{"region":"x"}`, map[string]string{"Mcp-Param-Region": "x", "Mcp-Param-Count": "1"}, false},
	} {
		status, body := call(tc.args, tc.header)
		if tc.ok && (status != 200 || strings.Contains(body, `"error"`)) {
			t.Errorf("%s: %d %s", tc.name, status, body)
		}
		if !tc.ok && (status != 400 || !strings.Contains(body, "-32020")) {
			t.Errorf("%s: %d %s, want 400 with HeaderMismatch", tc.name, status, body)
		}
	}
	// The schema announces the headers.
	c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", client.WithLogger(quietLogger))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for tool, err := range c.Tools(ctxT(t)) {
		if err != nil {
			t.Fatal(err)
		}
		if tool.Name == "where" && !strings.Contains(string(tool.InputSchema), `"x-mcp-header":"Region"`) {
			t.Errorf("schema = %s", tool.InputSchema)
		}
	}
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

func TestHealthzRoutesAndLifespan(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	release := make(chan struct{})
	cleaned := make(chan struct{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(fastmcp.Listener(ln), fastmcp.Lifespan(func(ctx context.Context) (string, func(context.Context) error, error) {
		close(started)
		<-release
		return "db", func(context.Context) error { close(cleaned); return nil }, nil
	}))
	s.Tool("state", func(ctx *fastmcp.Context) string { return fastmcp.State[string](ctx) }, fastmcp.Description("state"))
	s.HandleHTTP("GET /version", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "1.0.0") }))
	base := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- s.Run(ctx) }()
	<-started
	if code, body := get(t, base+"/healthz"); code != 503 || body != "starting" {
		t.Errorf("healthz while starting = %d %q", code, body)
	}
	if code, _ := post(t, base+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, nil); code != 503 {
		t.Errorf("MCP while starting = %d", code)
	}
	close(release)
	for {
		if code, _ := get(t, base+"/healthz"); code == 200 {
			break
		}
		time.Sleep(5 * time.Millisecond) // polling a readiness probe, as orchestrators do
	}
	if code, body := get(t, base+"/version"); code != 200 || body != "1.0.0" {
		t.Errorf("custom route = %d %q", code, body)
	}
	c, err := client.ConnectHTTP(ctxT(t), base+"/mcp", client.WithLogger(quietLogger))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(ctxT(t), "state", nil)
	if err != nil || textOf(t, res) != "db" {
		t.Fatalf("state: %v %v", res, err)
	}
	c.Close()
	cancel()
	if err := <-errc; err != nil {
		t.Fatalf("Run: %v", err)
	}
	select {
	case <-cleaned:
	default:
		t.Fatal("lifespan cleanup did not run")
	}
}

// TestHandleHTTPMistakes: a bad or duplicate route panics at HandleHTTP
// with the pattern named, and one on the MCP endpoint's path makes
// Run fail with an error naming it, instead of a panic inside
// the server.
func TestHandleHTTPMistakes(t *testing.T) {
	t.Parallel()
	ok := http.NotFoundHandler()
	for _, tt := range []struct{ name, first, second string }{
		{"invalid", "", "GET /{unclosed"},
		{"duplicate", "GET /version", "GET /version"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer()
			if tt.first != "" {
				s.HandleHTTP(tt.first, ok)
			}
			defer func() {
				r := recover()
				if r == nil || !strings.Contains(fmt.Sprint(r), "HandleHTTP(") || !strings.Contains(fmt.Sprint(r), "another pattern") {
					t.Fatalf("recovered %v", r)
				}
			}()
			s.HandleHTTP(tt.second, ok)
		})
	}
	t.Run("MCP path", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		s := newServer(fastmcp.Listener(ln))
		s.HandleHTTP("/mcp", ok)
		err = s.Run(ctxT(t))
		if err == nil || !strings.Contains(err.Error(), `HandleHTTP("/mcp")`) || !strings.Contains(err.Error(), "HTTPPath") {
			t.Fatalf("Run: %v", err)
		}
	})
}
