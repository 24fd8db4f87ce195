// Package testproc lets a test run its own test binary again as a child
// process: an MCP server over stdio, most often, whose mode the test
// selects with arguments or environment variables.
package testproc

import (
	"os"
	"testing"

	"github.com/fastmcp-go/fastmcp/transport"
)

// Self returns the path of the running test binary, failing t when it
// cannot be found.
func Self(t testing.TB) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return self
}

// Env returns env (KEY=VALUE entries) with what every child needs added:
// GORACE set so that a race-enabled binary exits at once instead of
// lingering a second.
func Env(env ...string) []string {
	return append(env, "GORACE=atexit_sleep_ms=0")
}

// Command returns a transport.Command that runs the test binary with args
// and env (KEY=VALUE entries, see Env; nothing else is inherited but
// transport.DefaultInheritedEnv).
func Command(t testing.TB, args []string, env ...string) *transport.Command {
	t.Helper()
	return &transport.Command{Path: Self(t), Args: args, Env: Env(env...)}
}
