package fastmcp_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain runs the tests, or, when the test binary is started again by a
// test as a server subprocess (see stdioServerEnv), that server.
func TestMain(m *testing.M) {
	if mode := os.Getenv(stdioServerEnv); mode != "" {
		os.Exit(runStdioServer(mode))
	}
	goleak.VerifyTestMain(m)
}
