package fastmcp_test

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
)

// TestSkillDocSnippets checks that every Go snippet in docs/skills.md is
// taken from the compiled, tested examples of example_skill_test.go.
func TestSkillDocSnippets(t *testing.T) {
	t.Parallel()
	docsnippets.Check(t, []string{"../docs/skills.md"}, []string{"example_skill_test.go"})
}
