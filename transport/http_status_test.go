package transport_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestStreamableStatusCodes checks every way a request can be refused.
func TestStreamableStatusCodes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, &transport.HTTPOptions{MaxBodyBytes: 1 << 10}, nil)
	sid := rawSession(t, f.url)
	host := strings.TrimPrefix(f.ts.URL, "http://")
	_, port, _ := strings.Cut(host, ":")
	ping := `{"jsonrpc":"2.0","id":5,"method":"ping"}`
	withSession := func(kv ...string) map[string]string {
		m := map[string]string{"Mcp-Session-Id": sid}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name   string
		body   string
		hdr    map[string]string
		status int
		code   int64 // expected JSON-RPC error code, 0 = none checked
		id     string
	}{
		{"ok", ping, withSession(), 200, 0, ""},
		{"older supported version header", ping, withSession("MCP-Protocol-Version", "2025-03-26"), 200, 0, ""},
		{"missing session", ping, nil, 400, protocol.CodeInvalidRequest, "5"},
		{"notification without session", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil, 400, protocol.CodeInvalidRequest, "null"},
		{"unknown session", ping, map[string]string{"Mcp-Session-Id": "nope"}, 404, transport.CodeSessionNotFound, "5"},
		{"unsupported version", ping, withSession("MCP-Protocol-Version", "1999-01-01"), 400, protocol.CodeInvalidRequest, "5"},
		{"not acceptable", ping, withSession("Accept", "text/html"), 406, protocol.CodeInvalidRequest, "null"},
		{"json only accept", ping, withSession("Accept", "application/json"), 406, protocol.CodeInvalidRequest, "null"},
		{"wildcard accept", ping, withSession("Accept", "*/*"), 200, 0, ""},
		{"no accept", ping, withSession("Accept", ""), 200, 0, ""},
		{"wrong content type", ping, withSession("Content-Type", "text/plain"), 415, protocol.CodeInvalidRequest, "null"},
		{"content type with charset", ping, withSession("Content-Type", "application/json; charset=utf-8"), 200, 0, ""},
		{"too large", `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":"` + strings.Repeat("a", 2000) + `"}}`, withSession(), 413, protocol.CodeInvalidRequest, "null"},
		{"malformed JSON", `{"jsonrpc":"2.0",`, withSession(), 400, protocol.CodeParseError, "null"},
		{"not JSON-RPC", `{"foo":1}`, withSession(), 400, protocol.CodeInvalidRequest, "null"},
		{"wrong jsonrpc version keeps id", `{"jsonrpc":"1.0","id":9,"method":"ping"}`, withSession(), 400, protocol.CodeInvalidRequest, "9"},
		{"evil host", initBody, map[string]string{"Host": "evil.example.com", "Origin": "http://evil.example.com"}, 403, protocol.CodeInvalidRequest, "null"},
		{"evil origin", ping, withSession("Origin", "http://evil.example.com"), 403, protocol.CodeInvalidRequest, "null"},
		{"localhost host and origin", initBody, map[string]string{"Host": "localhost:" + port, "Origin": "http://localhost:" + port}, 200, 0, ""},
		{"ipv6 loopback host", initBody, map[string]string{"Host": "[::1]:" + port}, 200, 0, ""},
		{"null origin", ping, withSession("Origin", "null"), 403, protocol.CodeInvalidRequest, "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := rawPost(t, f.url, tt.body, tt.hdr)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			if tt.code == 0 {
				return
			}
			id, e := jsonRPCError(t, body)
			if e.Code != tt.code {
				t.Errorf("error code %d, want %d (%s)", e.Code, tt.code, e.Message)
			}
			if got := id.Raw(); got != tt.id && !(tt.id == "null" && got == "") {
				t.Errorf("error id %q, want %s", got, tt.id)
			}
		})
	}
}

func TestStreamableGETAndDeleteStatusCodes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, nil)
	sid := rawSession(t, f.url)
	req := func(method string, hdr map[string]string) *http.Request {
		r, _ := http.NewRequest(method, f.url, nil)
		for k, v := range hdr {
			r.Header.Set(k, v)
		}
		return r
	}
	for _, tt := range []struct {
		name   string
		req    *http.Request
		status int
	}{
		{"GET without session", req("GET", map[string]string{"Accept": "text/event-stream"}), 400},
		{"GET unknown session", req("GET", map[string]string{"Accept": "text/event-stream", "Mcp-Session-Id": "x"}), 404},
		{"GET not acceptable", req("GET", map[string]string{"Accept": "application/json", "Mcp-Session-Id": sid}), 406},
		{"GET bad version", req("GET", map[string]string{"Accept": "text/event-stream", "Mcp-Session-Id": sid, "MCP-Protocol-Version": "x"}), 400},
		{"GET bad Last-Event-ID", req("GET", map[string]string{"Accept": "text/event-stream", "Mcp-Session-Id": sid, "Last-Event-ID": "garbage"}), 400},
		{"DELETE without session", req("DELETE", nil), 400},
		{"DELETE unknown session", req("DELETE", map[string]string{"Mcp-Session-Id": "x"}), 404},
		{"PUT", req("PUT", nil), 405},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := do(t, tt.req)
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
		})
	}

	// One GET stream per session: a second one gets 409.
	first, err := http.DefaultClient.Do(req("GET", map[string]string{"Accept": "text/event-stream", "Mcp-Session-Id": sid}))
	if err != nil {
		t.Fatal(err)
	}
	defer first.Body.Close()
	if first.StatusCode != 200 {
		t.Fatalf("GET = %d", first.StatusCode)
	}
	if resp, body := do(t, req("GET", map[string]string{"Accept": "text/event-stream", "Mcp-Session-Id": sid})); resp.StatusCode != http.StatusConflict {
		t.Errorf("second GET = %d, want 409: %s", resp.StatusCode, body)
	}
}

func TestHostPolicy(t *testing.T) {
	t.Parallel()
	ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	tests := []struct {
		name   string
		policy transport.HostPolicy
		host   string
		origin string
		local  string // local address; "" = none known
		want   int
	}{
		{"loopback localhost", transport.HostPolicy{}, "localhost:8080", "", "127.0.0.1:8080", 200},
		{"loopback evil host", transport.HostPolicy{}, "evil.com", "", "127.0.0.1:8080", 403},
		{"loopback evil origin", transport.HostPolicy{}, "127.0.0.1:8080", "https://evil.com", "127.0.0.1:8080", 403},
		{"loopback good origin", transport.HostPolicy{}, "127.0.0.1:8080", "http://localhost:3000", "127.0.0.1:8080", 200},
		{"ipv6 loopback", transport.HostPolicy{}, "[::1]:8080", "http://[::1]:8080", "[::1]:8080", 200},
		{"loopback ipv4-mapped", transport.HostPolicy{}, "127.0.0.1:8080", "", "[::ffff:127.0.0.1]:8080", 200},
		{"loopback rebinding", transport.HostPolicy{}, "evil.com:8080", "http://evil.com:8080", "127.0.0.1:8080", 403},
		{"loopback allowed name", transport.HostPolicy{AllowedHosts: []string{"mcp.test"}}, "mcp.test:8080", "http://mcp.test:8080", "127.0.0.1:8080", 200},
		{"loopback allowed name, foreign origin", transport.HostPolicy{AllowedHosts: []string{"mcp.test"}}, "mcp.test:8080", "http://evil.com:8080", "127.0.0.1:8080", 403},
		{"loopback any host, rebinding origin", transport.HostPolicy{AllowedHosts: []string{"*"}}, "evil.com:8080", "http://evil.com:8080", "127.0.0.1:8080", 403},
		{"loopback any host, local origin", transport.HostPolicy{AllowedHosts: []string{"*"}}, "evil.com:8080", "http://localhost:3000", "127.0.0.1:8080", 200},
		// Off loopback without AllowedHosts, only the address itself is a
		// name the server knows: a rebinding page's Host (and its
		// matching Origin) is refused.
		{"public rebinding", transport.HostPolicy{}, "evil.com:8000", "http://evil.com:8000", "10.0.0.1:8000", 403},
		{"public unlisted name", transport.HostPolicy{}, "api.example.com", "", "10.0.0.1:443", 403},
		{"public by address", transport.HostPolicy{}, "10.0.0.1:8000", "", "10.0.0.1:8000", 200},
		{"public by address, same origin", transport.HostPolicy{}, "10.0.0.1:8000", "http://10.0.0.1:8000", "10.0.0.1:8000", 200},
		{"public by address, foreign origin", transport.HostPolicy{}, "10.0.0.1:8000", "http://evil.com:8000", "10.0.0.1:8000", 403},
		{"public by another address", transport.HostPolicy{}, "10.0.0.2:8000", "", "10.0.0.1:8000", 403},
		{"public ipv6 by address", transport.HostPolicy{}, "[2001:db8::1]:8000", "", "[2001:db8::1]:8000", 200},
		{"public localhost name", transport.HostPolicy{}, "localhost:8000", "", "10.0.0.1:8000", 403},
		{"public allowed name", transport.HostPolicy{AllowedHosts: []string{"api.example.com"}}, "api.example.com", "", "10.0.0.1:443", 200},
		{"public allowed name, same origin", transport.HostPolicy{AllowedHosts: []string{"api.example.com"}}, "api.example.com", "https://api.example.com", "10.0.0.1:443", 200},
		{"public allowed name, cross origin", transport.HostPolicy{AllowedHosts: []string{"api.example.com"}}, "api.example.com", "https://evil.com", "10.0.0.1:443", 403},
		{"public allowed name, rebinding", transport.HostPolicy{AllowedHosts: []string{"api.example.com"}}, "evil.com:443", "https://evil.com", "10.0.0.1:443", 403},
		{"public allowed name, listed origin", transport.HostPolicy{AllowedHosts: []string{"api.example.com"}, AllowedOrigins: []string{"https://app.example.com"}}, "api.example.com", "https://app.example.com", "10.0.0.1:443", 200},
		{"public any host", transport.HostPolicy{AllowedHosts: []string{"*"}}, "anything.example", "", "10.0.0.1:443", 200},
		{"public any host, cross origin", transport.HostPolicy{AllowedHosts: []string{"*"}}, "api.example.com", "https://evil.com", "10.0.0.1:443", 403},
		{"unknown local address", transport.HostPolicy{}, "anything", "", "", 200},
		{"unknown local address, cross origin", transport.HostPolicy{}, "anything", "https://evil.com", "", 403},
		{"allowed hosts", transport.HostPolicy{AllowedHosts: []string{"mcp.internal"}}, "mcp.internal:9000", "", "127.0.0.1:9000", 200},
		{"allowed hosts with port", transport.HostPolicy{AllowedHosts: []string{"mcp.internal:9000"}}, "mcp.internal:9001", "", "127.0.0.1:9000", 403},
		{"allowed origins", transport.HostPolicy{AllowedOrigins: []string{"https://app.example.com"}}, "localhost", "https://app.example.com", "127.0.0.1:80", 200},
		{"allowed origins miss", transport.HostPolicy{AllowedOrigins: []string{"https://app.example.com"}}, "localhost", "https://evil.com", "127.0.0.1:80", 403},
		{"wildcards", transport.HostPolicy{AllowedHosts: []string{"*"}, AllowedOrigins: []string{"*"}}, "evil.com", "https://evil.com", "127.0.0.1:80", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRequest(tt.host, tt.origin, tt.local)
			w := newRecorder()
			tt.policy.Handler(ok).ServeHTTP(w, r)
			if w.Code != tt.want {
				t.Errorf("status %d, want %d (%s)", w.Code, tt.want, w.Body.String())
			}
		})
	}
}

func TestHeaderValueEncoding(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, enc string }{
		{"us-west1", "us-west1"},
		{"Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="},
		{" padded ", "=?base64?IHBhZGRlZCA=?="},
		{"line1\nline2", "=?base64?bGluZTEKbGluZTI=?="},
		{"=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="},
		{"", ""},
	} {
		if got := transport.EncodeHeaderValue(tt.in); got != tt.enc {
			t.Errorf("EncodeHeaderValue(%q) = %q, want %q", tt.in, got, tt.enc)
		}
		if got, err := transport.DecodeHeaderValue(tt.enc); err != nil || got != tt.in {
			t.Errorf("DecodeHeaderValue(%q) = %q, %v", tt.enc, got, err)
		}
	}
	for _, bad := range []string{"=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?=", "a\x01b"} {
		if _, err := transport.DecodeHeaderValue(bad); err == nil {
			t.Errorf("DecodeHeaderValue(%q) succeeded", bad)
		}
	}
	for _, literal := range []string{"SGVsbG8=", "=?base64?SGVsbG8="} {
		if got, err := transport.DecodeHeaderValue(literal); err != nil || got != literal {
			t.Errorf("DecodeHeaderValue(%q) = %q, %v", literal, got, err)
		}
	}
}
