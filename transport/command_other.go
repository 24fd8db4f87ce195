//go:build !unix && !windows

package transport

import (
	"os"
	"time"
)

// defaultInheritedEnv is DefaultInheritedEnv on systems other than Unix and
// Windows.
var defaultInheritedEnv = []string{"HOME", "PATH", "TERM", "USER", "LANG", "TMPDIR"}

// envKey is the key under which Environ merges a variable.
func envKey(name string) string { return name }

// terminate returns how long Close waits before killing the server: there
// is no portable polite signal here, so none.
func terminate(*os.Process, time.Duration) time.Duration { return 0 }
