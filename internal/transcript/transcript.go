// Package transcript checks the server lines of the golden wire transcripts
// that the tests of lowlevel and fastmcp replay with fastmcptest.Replay:
// each must be valid for the transcript's revision of the specification,
// as a JSON-RPC message, and a result against its method's result type.
package transcript

import (
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/internal/spectest"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// Options returns the replay options of a test: update (its -update flag)
// and, when the MCP schemas are present (not in a fresh clone, where the
// lines are still compared byte for byte), a check of each server line
// against them. results names the schema definition of each method's
// result (methods not named are checked as messages only).
func Options(t *testing.T, results map[string]string, update bool) *fastmcptest.ReplayOptions {
	t.Helper()
	o := &fastmcptest.ReplayOptions{Update: update}
	if spectest.Available(t) {
		o.Check = func(t testing.TB, revision, method string, line []byte) {
			validateServerLine(t, revision, method, line, results)
		}
	}
	return o
}

// validateServerLine checks a server line against the revision's schema:
// as a JSON-RPC message, and a result against its method's result type.
func validateServerLine(t testing.TB, revision, method string, line []byte, results map[string]string) {
	t.Helper()
	data := line
	// JSON-RPC 2.0 requires "id":null in the answer to a message whose id
	// could not be read; the MCP schemas instead make the id optional (from
	// 2025-11-25) or require a string or integer. Validate the rest.
	if rest, ok := strings.CutPrefix(string(line), `{"jsonrpc":"2.0","id":null,`); ok {
		data = []byte(`{"jsonrpc":"2.0",` + rest)
	}
	spectest.ValidateMessage(t, revision, data)
	m, err := protocol.DecodeMessage(line)
	if err != nil {
		t.Errorf("server line does not decode: %v\n%s", err, line)
		return
	}
	r, ok := m.(*protocol.Response)
	if !ok || r.Error != nil {
		return
	}
	if def := results[method]; def != "" && spectest.Has(t, revision, def) {
		spectest.Validate(t, revision, def, r.Result)
	}
}
