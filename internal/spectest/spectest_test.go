package spectest_test

import (
	"fmt"
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/spectest"
)

// recorder records failures instead of reporting them.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Helper() {}

func TestValidate(t *testing.T) {
	t.Parallel()
	spectest.Require(t)
	tests := []struct {
		rev, def, data string
		ok             bool
	}{
		{"2024-11-05", "TextContent", `{"type":"text","text":"hi"}`, true},
		{"2024-11-05", "TextContent", `{"type":"txt","text":"hi"}`, false},
		{"2024-11-05", "TextContent", `{"type":"text"}`, false},
		{"2025-03-26", "AudioContent", `{"type":"audio","data":"AA==","mimeType":"audio/wav"}`, true},
		{"2025-06-18", "Tool", `{"name":"t","inputSchema":{"type":"object"}}`, true},
		{"2025-06-18", "Tool", `{"name":"t","inputSchema":{"type":"string"}}`, false},
		{"2025-11-25", "Tool", `{"name":"t","inputSchema":{"type":"object"},"icons":[{"src":"not a uri"}]}`, false},
		{"2025-11-25", "Implementation", `{"name":"n","version":"1","websiteUrl":"https://example.com"}`, true},
		{"2026-07-28", "CallToolResult", `{"content":[],"resultType":"complete"}`, true},
		{"2026-07-28", "CallToolResult", `{"content":[]}`, false},
		{"2026-07-28", "ListToolsResult", `{"tools":[],"resultType":"complete","ttlMs":1,"cacheScope":"shared"}`, false},
		{"2026-07-28", "ListToolsResult", `{"tools":[],"resultType":"complete","ttlMs":1,"cacheScope":"public"}`, true},
		{"2026-07-28", "InitializeResult", `{}`, false}, // no such definition
		{"2026-07-28", "Tool", `{"name":"t",`, false},   // not JSON
	}
	for _, tt := range tests {
		t.Run(tt.rev+"/"+tt.def, func(t *testing.T) {
			t.Parallel()
			r := &recorder{TB: t}
			spectest.Validate(r, tt.rev, tt.def, []byte(tt.data))
			if ok := len(r.errors) == 0; ok != tt.ok {
				t.Errorf("Validate(%s) ok = %v, want %v; errors: %q", tt.data, ok, tt.ok, r.errors)
			}
		})
	}
}

func TestValidateMessage(t *testing.T) {
	t.Parallel()
	spectest.Require(t)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	tests := []struct {
		rev, data string
		ok        bool
	}{
		{"2024-11-05", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}`, true},
		{"2024-11-05", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}`, false}, // no name
		{"2024-11-05", `{"jsonrpc":"2.0","id":1,"method":"x/unknown"}`, true},                             // only the envelope is known
		{"2024-11-05", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, false},
		{"2025-03-26", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2}}`, true},
		{"2025-03-26", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":2}}`, false},
		{"2025-06-18", `{"jsonrpc":"2.0","id":"a","result":{}}`, true},
		{"2025-11-25", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, false}, // id may be absent, not null
		{"2025-11-25", `{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}`, true},
		{"2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`, true},
		{"2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`, false}, // _meta is required
		{"2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}`, true},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			r := &recorder{TB: t}
			spectest.ValidateMessage(r, tt.rev, []byte(tt.data))
			if ok := len(r.errors) == 0; ok != tt.ok {
				t.Errorf("ValidateMessage(%s, %s) ok = %v, want %v; errors: %q", tt.rev, tt.data, ok, tt.ok, r.errors)
			}
		})
	}
}

func TestHas(t *testing.T) {
	t.Parallel()
	spectest.Require(t)
	for _, tt := range []struct {
		rev, def string
		want     bool
	}{
		{"2024-11-05", "Annotated", true},
		{"2024-11-05", "Annotations", false},
		{"2025-11-25", "ToolUseContent", true},
		{"2026-07-28", "InputRequiredResult", true},
		{"2025-11-25", "InputRequiredResult", false},
		{"2026-07-28", "InitializeRequest", false},
	} {
		if got := spectest.Has(t, tt.rev, tt.def); got != tt.want {
			t.Errorf("Has(%s, %s) = %v, want %v", tt.rev, tt.def, got, tt.want)
		}
	}
}
