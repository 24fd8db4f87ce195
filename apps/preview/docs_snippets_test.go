package preview_test

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
)

// TestDocSnippets checks that the Go snippets of docs/apps-preview.md are
// taken from the package's examples.
func TestDocSnippets(t *testing.T) {
	docsnippets.Check(t, []string{"../../docs/apps-preview.md"}, []string{"example_test.go"})
}
