package redisstore_test

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
)

// TestDocSnippets checks that the Go snippets of docs/scale.md are taken
// from the compiled examples.
func TestDocSnippets(t *testing.T) {
	docsnippets.Check(t, []string{"../../docs/scale.md"}, []string{"example*_test.go"})
}
