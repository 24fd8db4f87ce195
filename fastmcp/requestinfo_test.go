package fastmcp_test

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// Caller is what the whoami tool reports about the HTTP request that
// carried its call.
type Caller struct {
	HTTP       bool   `json:"http"`
	Header     string `json:"header"` // the X-Caller header
	RemoteAddr string `json:"remoteAddr"`
	Host       string `json:"host"`
	SessionID  string `json:"sessionId"`
	Principal  string `json:"principal"`
}

// whoami reports ctx.HTTPRequest, as a tool reads it.
func whoami(ctx *fastmcp.Context) (Caller, error) {
	r := ctx.HTTPRequest()
	if r == nil {
		return Caller{}, nil
	}
	return Caller{HTTP: true, Header: r.Header.Get("X-Caller"), RemoteAddr: r.RemoteAddr, Host: r.Host, SessionID: r.SessionID, Principal: r.Principal}, nil
}

// callWhoami calls whoami on c and decodes its structured result.
func callWhoami(t *testing.T, c *client.Client) Caller {
	t.Helper()
	res, err := c.CallTool(ctxT(t), "whoami", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("whoami: %s", textOf(t, res))
	}
	var got Caller
	if err := json.Unmarshal(res.StructuredContent, &got); err != nil {
		t.Fatalf("whoami answered %s: %v", res.StructuredContent, err)
	}
	return got
}

// TestContextHTTPRequest checks that a tool reads the caller's headers,
// remote address, host, session and principal through Context.HTTPRequest
// on every HTTP way in (Streamable HTTP with a legacy session, stateless
// 2026-07-28 requests, the legacy HTTP+SSE transport) and gets nil over
// stdio.
func TestContextHTTPRequest(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.HTTPPrincipal(func(r *http.Request) string { return "user:" + r.Header.Get("X-Caller") }))
	s.Tool("whoami", whoami)
	ts := httptest.NewServer(s)
	t.Cleanup(func() { closeNow(s); ts.Close() })
	host := ts.Listener.Addr().String()
	for _, tc := range []struct {
		name      string
		url       string
		version   string
		sessioned bool
	}{
		{"streamable legacy session", ts.URL + "/mcp", protocol.Version20251125, true},
		{"streamable stateless 2026-07-28", ts.URL + "/mcp", protocol.Version20260728, false},
		{"legacy http+sse", ts.URL + "/sse", protocol.Version20241105, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := client.ConnectHTTP(ctxT(t), tc.url, client.WithProtocolVersion(tc.version),
				client.WithHTTPHeader(http.Header{"X-Caller": {"alice"}}), client.WithLogger(quietLogger))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if c.ProtocolVersion() != tc.version {
				t.Fatalf("negotiated %s, want %s", c.ProtocolVersion(), tc.version)
			}
			got := callWhoami(t, c)
			if !got.HTTP || got.Header != "alice" || got.Host != host || got.Principal != "user:alice" {
				t.Errorf("whoami = %+v, want the X-Caller header alice, host %s and principal user:alice", got, host)
			}
			if ip, _, err := net.SplitHostPort(got.RemoteAddr); err != nil || ip != "127.0.0.1" {
				t.Errorf("RemoteAddr = %q, want 127.0.0.1:port", got.RemoteAddr)
			}
			if (got.SessionID != "") != tc.sessioned {
				t.Errorf("SessionID = %q, want one: %v", got.SessionID, tc.sessioned)
			}
		})
	}
	t.Run("stdio", func(t *testing.T) {
		t.Parallel()
		c, err := client.ConnectCommand(ctxT(t), stdioServerCommand(t, "serve"), client.WithLogger(quietLogger))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if got := callWhoami(t, c); got != (Caller{}) {
			t.Errorf("whoami over stdio = %+v, want no HTTP request", got)
		}
	})
}
