package apps_test

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
)

// TestDocSnippets checks that every Go snippet of docs/apps.md comes from
// the example program or a tested file.
func TestDocSnippets(t *testing.T) {
	docsnippets.Check(t, []string{"../docs/apps.md"}, []string{"../examples/apps/main.go", "doc_snippets_test.go"})
}
