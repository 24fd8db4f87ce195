package openapi_test

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
)

// TestDocs: the Go snippets of docs/openapi.md come from example_test.go,
// which compiles and runs, and from examples/openapi (tested as a process).
func TestDocs(t *testing.T) {
	docsnippets.Check(t, []string{"../docs/openapi.md"}, []string{"example_test.go", "../examples/openapi/main.go"})
}
