package fastmcp_test

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
)

// TestDocSnippets checks that every Go snippet in docs/resources.md,
// prompts.md, tools.md, context.md, tasks.md, proxy.md, http.md, auth.md and transform.md is taken from a compiled, tested Example: its lines must
// appear, in order and together, in one of the example files (leading tabs
// aside).
func TestDocSnippets(t *testing.T) {
	t.Parallel()
	docsnippets.Check(t,
		[]string{"../docs/resources.md", "../docs/prompts.md", "../docs/tools.md", "../docs/context.md", "../docs/tasks.md", "../docs/proxy.md", "../docs/http.md", "../docs/auth.md", "../docs/transform.md"},
		[]string{"example_resource_test.go", "example_prompt_test.go", "example_tool_test.go", "example_test.go", "example_auth_test.go", "example_task_test.go", "example_transform_test.go", "../proxy/example_test.go", "../examples/conformance/server/tools.go", "../examples/proxy/main.go", "docs_http_test.go", "docs_auth_test.go", "../oauthserver/example_test.go", "../oauthserver/oauthproxy/example_test.go"})
}
