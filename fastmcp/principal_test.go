package fastmcp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// TestHTTPPrincipal checks that one principal function, set with
// HTTPPrincipal, decides both who may use a legacy session and who may
// present a requestState: here the X-User header, so a caller keeps its
// session and its state when its Authorization header changes (a refreshed
// token), and another user gets neither.
func TestHTTPPrincipal(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.HTTPPrincipal(func(r *http.Request) string { return r.Header.Get("X-User") }))
	s.Tool("ask", func(ctx *fastmcp.Context) (string, error) {
		var p Profile
		if _, err := ctx.Elicit("Who?", &p); err != nil {
			return "", err
		}
		return p.Username, nil
	})
	h := s
	ts := httptest.NewServer(h)
	t.Cleanup(func() { closeNow(h); ts.Close() })
	url := ts.URL + "/mcp"

	t.Run("legacy session", func(t *testing.T) {
		init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
		req, _ := http.NewRequestWithContext(ctxT(t), http.MethodPost, url, strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("X-User", "alice")
		req.Header.Set("Authorization", "Bearer token-1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		// Read the answer to the end: a client that hangs up before the
		// initialize result arrives has not opened the session.
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		sid := resp.Header.Get("Mcp-Session-Id")
		if resp.StatusCode != http.StatusOK || sid == "" {
			t.Fatalf("initialize: %d, session %q", resp.StatusCode, sid)
		}
		ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
		for _, tc := range []struct {
			user, auth string
			want       int
		}{
			{"alice", "Bearer token-2", http.StatusOK},
			{"bob", "Bearer token-1", http.StatusNotFound},
			{"", "Bearer token-1", http.StatusNotFound},
		} {
			hdr := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25", "Authorization": tc.auth}
			if tc.user != "" {
				hdr["X-User"] = tc.user
			}
			if status, body := post(t, url, ping, hdr); status != tc.want {
				t.Errorf("ping as %q with %q: %d %s, want %d", tc.user, tc.auth, status, body, tc.want)
			}
		}
	})

	t.Run("requestState", func(t *testing.T) {
		call := func(user, auth, extra string) (int, string) {
			return post(t, url, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`+string(modernParams("ask", extra))+`}`,
				map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "ask", "X-User": user, "Authorization": auth})
		}
		status, body := call("alice", "Bearer token-1", "")
		var r1 struct {
			Result struct {
				ResultType   string `json:"resultType"`
				RequestState string `json:"requestState"`
			} `json:"result"`
		}
		if err := protocol.Unmarshal(json.RawMessage(body), &r1); err != nil || status != http.StatusOK || r1.Result.RequestState == "" {
			t.Fatalf("round 1: %d %s (%v)", status, body, err)
		}
		extra := `,"inputResponses":{"elicit-1":{"action":"accept","content":{"username":"ada","email":"a@b.c"}}},"requestState":"` + r1.Result.RequestState + `"`
		if _, body := call("bob", "Bearer token-1", extra); !strings.Contains(body, "different client") {
			t.Errorf("bob presenting alice's state: %s, want it refused", body)
		}
		if _, body := call("alice", "Bearer token-2", extra); !strings.Contains(body, `"ada"`) {
			t.Errorf("alice with a new token: %s, want the tool's answer", body)
		}
	})
}
