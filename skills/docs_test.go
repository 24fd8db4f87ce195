package skills_test

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
)

// TestDocSnippets checks that every Go snippet in docs/skills.md is
// taken from the compiled, tested examples of example_test.go.
func TestDocSnippets(t *testing.T) {
	t.Parallel()
	docsnippets.Check(t, []string{"../docs/skills.md"}, []string{"example_test.go"})
}
