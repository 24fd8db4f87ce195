package main

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
)

// TestDocSnippets: the program docs/serving.md shows is this one; its
// auth settings snippet is fastmcp's ExampleAuth_settings.
func TestDocSnippets(t *testing.T) {
	docsnippets.Check(t, []string{"../../docs/serving.md"}, []string{"main.go", "../../fastmcp/example_auth_test.go"})
}
