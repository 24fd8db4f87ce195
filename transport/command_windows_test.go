//go:build windows

package transport_test

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/transport"
)

// processGone returns nil when the process pid has exited, and an error
// saying otherwise.
func processGone(pid int) error {
	h, err := syscall.OpenProcess(syscall.PROCESS_QUERY_INFORMATION, false, uint32(pid))
	if err != nil {
		return nil // no such process any more
	}
	defer syscall.CloseHandle(h)
	var code uint32
	if err := syscall.GetExitCodeProcess(h, &code); err != nil {
		return fmt.Errorf("process %d: %w", pid, err)
	}
	const stillActive = 259
	if code == stillActive {
		return fmt.Errorf("process %d is still running after Close", pid)
	}
	return nil
}

// requireSignals skips tests of SIGTERM and SIGKILL: Windows has none.
func requireSignals(t *testing.T) {
	t.Helper()
	t.Skip("Windows has no SIGTERM or SIGKILL; TestCommandCloseKillsOnWindows covers Close there")
}

// requireUnixEnv skips tests of the Unix DefaultInheritedEnv.
func requireUnixEnv(t *testing.T) {
	t.Helper()
	t.Skip("Windows inherits other variables; TestCommandEnvironWindows covers them")
}

// TestCommandCloseKillsOnWindows checks that Close stops a server that
// ignores the end of its stdin: with no SIGTERM to send, it kills it once
// the grace period has passed, and reaps it.
func TestCommandCloseKillsOnWindows(t *testing.T) {
	t.Parallel()
	const grace = 100 * time.Millisecond
	c := helperCommand(t, "ignore-stdin")
	c.GracePeriod = grace
	p := startHelper(t, c)
	readGuarded(t, p) // the helper is running
	took, _ := closeTimed(t, p)
	if took < grace {
		t.Fatalf("killed after %v, before the %v grace period", took, grace)
	}
	checkReaped(t, p)
}

// TestCommandEnvironWindows checks that the variables Windows programs need
// are inherited, and that names are merged without regard to case, the
// first spelling kept.
func TestCommandEnvironWindows(t *testing.T) {
	t.Setenv("SYSTEMROOT", `C:\Windows`)
	t.Setenv("PATH", `C:\parent`)
	c := &transport.Command{Path: "x", Env: []string{`Path=C:\child`, "Extra=1"}}
	got := map[string]string{}
	for _, kv := range c.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := got[strings.ToUpper(k)]; dup {
			t.Fatalf("%s twice in %q", k, c.Environ())
		}
		got[strings.ToUpper(k)] = v
		if strings.EqualFold(k, "PATH") && k != "PATH" {
			t.Errorf("PATH spelled %q, want the first spelling, PATH", k)
		}
	}
	for k, want := range map[string]string{"SYSTEMROOT": `C:\Windows`, "PATH": `C:\child`, "EXTRA": "1"} {
		if got[k] != want {
			t.Errorf("%s = %q, want %q", k, got[k], want)
		}
	}
}
