package main

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
)

// TestDocSnippets: the program docs/serving.md shows is this one.
func TestDocSnippets(t *testing.T) {
	docsnippets.Check(t, []string{"../../docs/serving.md"}, []string{"main.go"})
}
