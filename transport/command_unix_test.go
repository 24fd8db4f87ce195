//go:build unix

package transport_test

import (
	"errors"
	"fmt"
	"slices"
	"syscall"
	"testing"

	"github.com/fastmcp-go/fastmcp/transport"
)

// processGone returns nil when the process pid has exited and been reaped
// (so no zombie is left), and an error saying otherwise.
func processGone(pid int) error {
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("kill(%d, 0) = %v, want ESRCH: the process was not reaped", pid, err)
	}
	return nil
}

// requireSignals skips tests of SIGTERM and SIGKILL where there are none.
func requireSignals(*testing.T) {}

// requireUnixEnv skips tests of the Unix DefaultInheritedEnv elsewhere.
func requireUnixEnv(*testing.T) {}

// TestCommandEnvironCaseSensitive checks that on Unix systems variable
// names differing in case are different variables.
func TestCommandEnvironCaseSensitive(t *testing.T) {
	t.Setenv("PATH", "/parent/bin")
	c := &transport.Command{Path: "x", Env: []string{"path=/lower"}}
	env := c.Environ()
	for _, want := range []string{"PATH=/parent/bin", "path=/lower"} {
		if !slices.Contains(env, want) {
			t.Errorf("Environ() = %q, want it to hold %q", env, want)
		}
	}
}
