package protocol_test

import (
	"os"
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/spectest"
)

// TestMain reports the schema tests skipped on a clone without the MCP
// schemas beside it.
func TestMain(m *testing.M) { os.Exit(spectest.Report(m).Run()) }
