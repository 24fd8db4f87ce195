package lowlevel_test

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
)

// TestDocSnippets checks that every Go snippet in docs/lowlevel.md is taken
// from a compiled, tested Example: its lines must appear, in order and
// together, in one of the example files (leading tabs aside).
func TestDocSnippets(t *testing.T) {
	t.Parallel()
	docsnippets.Check(t, []string{"../docs/lowlevel.md"},
		[]string{"example_test.go", "example_middleware_test.go"})
}
