//go:build unix

package transport

import (
	"os"
	"syscall"
	"time"
)

// defaultInheritedEnv is DefaultInheritedEnv on Unix systems.
var defaultInheritedEnv = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "TMPDIR"}

// envKey is the key under which Environ merges a variable: names are case
// sensitive here.
func envKey(name string) string { return name }

// terminate asks the server to stop with SIGTERM and returns how long
// Close waits before killing it: the grace period.
func terminate(p *os.Process, grace time.Duration) time.Duration {
	_ = p.Signal(syscall.SIGTERM)
	return grace
}
