package fastmcp_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// TestJSONWindowSetting checks that the JSONWindow setting reaches the
// Streamable HTTP endpoint from its option and from FASTMCP_JSON_WINDOW,
// the option first: a quick answer is one JSON body by default, and an SSE
// stream when the window is none (negative).
func TestJSONWindowSetting(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []fastmcp.Option
		env  string
		want string
	}{
		{"default", nil, "", "application/json"},
		{"option negative", []fastmcp.Option{fastmcp.JSONWindow(-1)}, "", "text/event-stream"},
		{"env none", nil, "none", "text/event-stream"},
		{"env duration", nil, "1s", "application/json"},
		{"option over env", []fastmcp.Option{fastmcp.JSONWindow(time.Second)}, "none", "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("FASTMCP_JSON_WINDOW", tc.env)
			}
			s := batchServer(tc.opts...)
			ts := httptest.NewServer(s)
			t.Cleanup(func() { closeNow(s); ts.Close() })
			url := ts.URL + "/mcp"
			sid := httpSession(t, url, protocol.Version20250326, false)
			status, body, hdr := postBatch(t, url, sid, protocol.Version20250326, `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`)
			if ct := hdr.Get("Content-Type"); status != 200 || !strings.HasPrefix(ct, tc.want) || !strings.Contains(body, `"tools"`) {
				t.Fatalf("tools/list: %d %s %q, want 200 %s with the tools", status, ct, body, tc.want)
			}
		})
	}
}

// TestJSONWindowSettingInvalid checks that a bad FASTMCP_JSON_WINDOW is
// reported with the setting's name.
func TestJSONWindowSettingInvalid(t *testing.T) {
	t.Setenv("FASTMCP_JSON_WINDOW", "soon")
	_, err := newServer().Settings()
	if err == nil || !strings.Contains(err.Error(), "FASTMCP_JSON_WINDOW") {
		t.Fatalf("Settings with FASTMCP_JSON_WINDOW=soon: %v, want an error naming it", err)
	}
}
