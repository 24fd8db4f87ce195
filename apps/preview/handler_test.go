package preview_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/apps/preview"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
)

// pageToken loads the page at base and returns the token it embeds, as
// the page's script reads it.
func pageToken(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /: %s: %s", resp.Status, body)
	}
	m := regexp.MustCompile(`<meta name="fastmcp-token" content="([0-9a-f]+)">`).FindSubmatch(body)
	if m == nil {
		t.Fatalf("the page embeds no token:\n%s", body)
	}
	return string(m[1])
}

type apiResponse struct {
	status int
	body   map[string]any
}

func post(t *testing.T, base, path, token string, body any, header http.Header) apiResponse {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, base+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set(preview.TokenHeader, token)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("POST %s: %s: body is not JSON: %v", path, resp.Status, err)
	}
	return apiResponse{resp.StatusCode, out}
}

// jsonOf re-encodes v, for comparing parts of answers as text.
func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func newTestPreview(t *testing.T, opts ...client.Option) (base, token string) {
	t.Helper()
	c := fastmcptest.NewClient(t, newAppServer(), opts...)
	p := preview.New(c, &preview.Options{SandboxURL: "http://127.0.0.1:1"})
	srv := httptest.NewServer(p.Handler())
	t.Cleanup(srv.Close)
	return srv.URL, pageToken(t, srv.URL)
}

func TestHandlerRefusesForeignHost(t *testing.T) {
	p := preview.New(fastmcptest.NewClient(t, newAppServer()), nil)
	for name, h := range map[string]http.Handler{"page": p.Handler(), "sandbox": p.SandboxHandler()} {
		for _, host := range []string{"evil.example", "evil.example:8080", "127.0.0.1.evil.example"} {
			for _, path := range []string{"/", "/api/tools", "/static/host.js", "/sandbox.js"} {
				req := httptest.NewRequest(http.MethodGet, path, nil)
				req.Host = host
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusMisdirectedRequest {
					t.Errorf("%s handler, Host %s, %s: status %d, want 421", name, host, path, rec.Code)
				}
			}
		}
	}
}

func TestAPIGuards(t *testing.T) {
	base, token := newTestPreview(t)
	u, _ := url.Parse(base)
	tests := []struct {
		name   string
		token  string
		header http.Header
		want   int
	}{
		{"no token", "", nil, http.StatusForbidden},
		{"wrong token", strings.Repeat("0", len(token)), nil, http.StatusForbidden},
		{"token", token, nil, http.StatusOK},
		{"same origin", token, http.Header{"Origin": {"http://" + u.Host}}, http.StatusOK},
		{"other origin", token, http.Header{"Origin": {"http://evil.example"}}, http.StatusForbidden},
		{"other port", token, http.Header{"Origin": {"http://127.0.0.1:1"}}, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := post(t, base, "/api/tools", tt.token, map[string]any{}, tt.header)
			if r.status != tt.want {
				t.Errorf("status %d (%v), want %d", r.status, r.body, tt.want)
			}
		})
	}
	t.Run("GET", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodGet, base+"/api/tools", nil)
		req.Header.Set(preview.TokenHeader, token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("status %d, want 405", resp.StatusCode)
		}
	})
}

func TestPageHeaders(t *testing.T) {
	base, _ := newTestPreview(t)
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"frame-src http://127.0.0.1:1", "script-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("page CSP %q lacks %q", csp, want)
		}
	}
}

// TestAPIEndpoints runs every endpoint against a server of each protocol
// era, over the in-memory transport and over Streamable HTTP.
func TestAPIEndpoints(t *testing.T) {
	for _, v := range fastmcptest.Versions() {
		t.Run(v, func(t *testing.T) {
			base, token := newTestPreview(t, client.WithProtocolVersion(v))
			testAPIEndpoints(t, base, token)
		})
		t.Run(v+"/http", func(t *testing.T) {
			c := fastmcptest.NewHTTPClient(t, newAppServer(), client.WithProtocolVersion(v))
			srv := httptest.NewServer(preview.New(c, &preview.Options{SandboxURL: "http://127.0.0.1:1"}).Handler())
			t.Cleanup(srv.Close)
			testAPIEndpoints(t, srv.URL, pageToken(t, srv.URL))
		})
	}
}

func testAPIEndpoints(t *testing.T, base, token string) {
	tests := []struct {
		name       string
		path       string
		body       any
		wantStatus int
		// want are substrings of the answer's JSON.
		want []string
		// notWant must not be in it.
		notWant []string
	}{
		{
			name: "tools lists views, visibility and form fields",
			path: "/api/tools", body: map[string]any{}, wantStatus: 200,
			want: []string{
				`"name":"show_counter"`, `"resourceUri":"ui://counter/view.html"`,
				`{"description":"Where the counter starts","kind":"integer","name":"count","required":true}`,
				`{"kind":"string","name":"label"}`,
				`"appOnly":true`, `"visibility":["app"]`, `"name":"counter-app"`,
			},
		},
		{
			name: "call turns form texts into arguments",
			path: "/api/call", body: map[string]any{"name": "show_counter", "values": map[string]string{"count": "41", "label": "x"}}, wantStatus: 200,
			want: []string{`"arguments":{"count":41,"label":"x"}`, `"structuredContent":{"count":41,"label":"x"}`},
		},
		{
			name: "arguments checks the form without calling",
			path: "/api/arguments", body: map[string]any{"name": "show_counter", "values": map[string]string{"count": "3"}}, wantStatus: 200,
			want: []string{`{"arguments":{"count":3}}`},
		},
		{
			name: "arguments refuses a bad form", path: "/api/arguments", body: map[string]any{"name": "show_counter", "values": map[string]string{}}, wantStatus: 400,
			want: []string{`\"count\": required`},
		},
		{
			name: "arguments refuses app-only tools", path: "/api/arguments", body: map[string]any{"name": "secret"}, wantStatus: 403,
			want: []string{"app-only"},
		},
		{
			name: "call refuses app-only tools", path: "/api/call", body: map[string]any{"name": "secret"}, wantStatus: 403,
			want: []string{"app-only"},
		},
		{
			name: "call of an unknown tool", path: "/api/call", body: map[string]any{"name": "nope"}, wantStatus: 404,
			want: []string{`no tool \"nope\"`},
		},
		{
			name: "call with a bad value", path: "/api/call", body: map[string]any{"name": "show_counter", "values": map[string]string{"count": "many"}}, wantStatus: 400,
			want: []string{`\"count\": \"many\" is not an integer`},
		},
		{
			name: "view reads the resource", path: "/api/view", body: map[string]any{"uri": "ui://counter/view.html"}, wantStatus: 200,
			want: []string{`"uri":"ui://counter/view.html"`, `Counter view`, `"prefersBorder":true`, `"permissions":{"clipboardWrite":{}}`, `"sandboxUrl":"http://127.0.0.1:1"`},
		},
		{
			name: "view refuses other schemes", path: "/api/view", body: map[string]any{"uri": "file:///etc/passwd"}, wantStatus: 400,
			want: []string{"not a ui:// URI"},
		},
		{
			name: "view of a missing resource is the server's error", path: "/api/view", body: map[string]any{"uri": "ui://counter/missing.html"}, wantStatus: 200,
			want: []string{`"error":{"code":`, "Resource not found"},
		},
		{
			name: "the view calls a tool", path: "/api/view/tools/call", body: map[string]any{"name": "double", "arguments": map[string]int{"n": 4}}, wantStatus: 200,
			want: []string{`"structuredContent":{"value":8}`},
		},
		{
			name: "the view calls an app-only tool", path: "/api/view/tools/call", body: map[string]any{"name": "secret"}, wantStatus: 200,
			want: []string{`"structuredContent":{"value":7}`},
		},
		{
			name: "the view may not call a model-only tool", path: "/api/view/tools/call", body: map[string]any{"name": "model_only"}, wantStatus: 200,
			want: []string{`"error":{"code":-32602`, "not visible to apps"}, notWant: []string{`"value":9`},
		},
		{
			name: "the view calls an unknown tool", path: "/api/view/tools/call", body: map[string]any{"name": "nope"}, wantStatus: 200,
			want: []string{`"error":{"code":-32602`, "Unknown tool: nope"},
		},
		{
			name: "the view lists the tools it may call", path: "/api/view/tools/list", body: map[string]any{}, wantStatus: 200,
			want: []string{`"name":"double"`, `"name":"secret"`}, notWant: []string{"model_only"},
		},
		{
			name: "the view reads a resource", path: "/api/view/resources/read", body: map[string]any{"uri": "ui://counter/view.html"}, wantStatus: 200,
			want: []string{`"result":{`, `"mimeType":"text/html;profile=mcp-app"`},
		},
		{
			name: "a body that is not JSON", path: "/api/view/tools/call", body: "not an object", wantStatus: 400,
			want: []string{"request body"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := post(t, base, tt.path, token, tt.body, nil)
			got := jsonOf(r.body)
			if r.status != tt.wantStatus {
				t.Fatalf("status %d, want %d: %s", r.status, tt.wantStatus, got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("answer lacks %s:\n%s", w, got)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("answer has %s:\n%s", w, got)
				}
			}
		})
	}
}

// A server that cannot be reached is not shown as the server's answer.
func TestAPIServerUnreachable(t *testing.T) {
	c := fastmcptest.NewClient(t, newAppServer())
	p := preview.New(c, nil)
	srv := httptest.NewServer(p.Handler())
	defer srv.Close()
	token := pageToken(t, srv.URL)
	c.Close()
	for _, path := range []string{"/api/tools", "/api/view/tools/call"} {
		r := post(t, srv.URL, path, token, map[string]any{"name": "double"}, nil)
		if r.status != http.StatusBadGateway || !strings.Contains(jsonOf(r.body), "could not be reached") {
			t.Errorf("%s: status %d %s, want 502 saying the server could not be reached", path, r.status, jsonOf(r.body))
		}
	}
}

func TestSandboxHandler(t *testing.T) {
	p := preview.New(fastmcptest.NewClient(t, newAppServer()), nil)
	srv := httptest.NewServer(p.SandboxHandler())
	defer srv.Close()
	tests := []struct {
		name     string
		query    string
		status   int
		contains string // in the CSP header
	}{
		{"no host", "", 400, ""},
		{"foreign host", "?host=" + url.QueryEscape("https://evil.example"), 400, ""},
		{"default policy", "?host=" + url.QueryEscape("http://127.0.0.1:9"), 200, "connect-src 'none'"},
		{"declared policy", "?host=" + url.QueryEscape("http://127.0.0.1:9") + "&csp=" + url.QueryEscape(`{"connectDomains":["https://api.example.com","https://x; script-src *"]}`), 200, "connect-src https://api.example.com;"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := http.Get(srv.URL + "/" + tt.query)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			if tt.status != 200 {
				return
			}
			csp := resp.Header.Get("Content-Security-Policy")
			if !strings.Contains(csp+";", tt.contains) || strings.Contains(csp, "script-src *") {
				t.Errorf("CSP %q, want it to contain %q", csp, tt.contains)
			}
			if !bytes.Contains(body, []byte(`content="http://127.0.0.1:9"`)) {
				t.Errorf("the sandbox page does not carry the host origin:\n%s", body)
			}
		})
	}
}

func TestListenAndServe(t *testing.T) {
	p := preview.New(fastmcptest.NewClient(t, newAppServer()), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	if err := p.ListenAndServe(ctx, "0.0.0.0:0", nil); !errors.Is(err, preview.ErrNotLoopback) {
		t.Fatalf("ListenAndServe on 0.0.0.0: %v, want ErrNotLoopback", err)
	}

	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- p.ListenAndServe(ctx, "", pw)
		pw.Close()
	}()
	line := make([]byte, 100)
	n, err := pr.Read(line)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^Preview: (http://127\.0\.0\.1:\d+/)\n$`).FindSubmatch(line[:n])
	if m == nil {
		t.Fatalf("printed %q, want Preview: URL", line[:n])
	}
	token := pageToken(t, strings.TrimSuffix(string(m[1]), "/"))
	if r := post(t, strings.TrimSuffix(string(m[1]), "/"), "/api/tools", token, map[string]any{}, nil); r.status != 200 {
		t.Fatalf("tools: %d %v", r.status, r.body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("ListenAndServe: %v", err)
	}
}
