package store

import (
	"go/build"
	"strings"
	"testing"
)

// TestImportsProtocolOnly: the contracts import protocol and the standard
// library only, so that a backend implementing them links neither the
// server nor the transport.
func TestImportsProtocolOnly(t *testing.T) {
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range pkg.Imports {
		if strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") && imp != "github.com/fastmcp-go/fastmcp/protocol" {
			t.Errorf("package store imports %s; it may import protocol and the standard library only", imp)
		}
	}
}
