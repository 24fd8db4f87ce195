package oauthserver_test

import (
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/docsnippets"
)

// TestDocs: the Go snippets of docs/auth.md's "Running your own
// authorization server" come from example_test.go, which compiles and
// runs. (fastmcp's TestDocSnippets checks the whole page, with this file
// among its sources.)
func TestDocs(t *testing.T) {
	docsnippets.Check(t, []string{"../docs/auth.md"}, []string{"example_test.go", "oauthproxy/example_test.go", "../fastmcp/*_test.go", "../examples/*/main.go", "../proxy/example_test.go"})
}
