//go:build windows

package transport

import (
	"os"
	"strings"
	"time"
)

// defaultInheritedEnv is DefaultInheritedEnv on Windows: what programs
// (node, python, Go programs doing network or file I/O) need to start,
// find their profile and temporary directory, and resolve PATH.
var defaultInheritedEnv = []string{
	"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT",
	"PROCESSOR_ARCHITECTURE", "PROGRAMFILES", "SYSTEMDRIVE", "SYSTEMROOT",
	"TEMP", "TMP", "USERNAME", "USERPROFILE",
}

// envKey is the key under which Environ merges a variable: names are case
// insensitive on Windows, so Command.Env's "Path" replaces PATH.
func envKey(name string) string { return strings.ToUpper(name) }

// terminate returns how long Close waits before killing the server. Windows
// has no SIGTERM to send a console program, so there is nothing to wait for:
// after stdin was closed and the grace period passed, Close kills the
// process (TerminateProcess).
func terminate(*os.Process, time.Duration) time.Duration { return 0 }
