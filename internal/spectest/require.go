package spectest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// Environment variables read by this package.
const (
	// EnvSpecDir names the mcp-spec directory (the one holding
	// schema/<revision>/schema.json). Unset means ../shared/mcp-spec beside
	// the module root.
	EnvSpecDir = "FASTMCP_SPEC_DIR"
	// EnvRequire, when true ("1"), makes Require and Available fail a test
	// instead of skipping it when the schemas are missing; when false ("0")
	// they skip even under CI. Unset means true exactly when CI is set to a
	// true value, as CI services do.
	EnvRequire = "FASTMCP_REQUIRE_SPEC"
	// EnvReport names a file to which Require and Available append a line
	// for each test they skip, or let run without its schema checks, because
	// the schemas are missing: "<skipped>\t<unchecked>\t<package
	// directory>\t<reason>". `go test ./...` shows nothing of a passing
	// package, so make test (scripts/gotest.sh) sums the lines into one
	// summary.
	EnvReport = "FASTMCP_SPECTEST_REPORT"
)

// Require makes the calling test depend on the MCP schemas. Call it at the
// top of the test, before the test starts any goroutine, process or
// listener. When the schemas are missing it skips the test (and reports the
// skip, see EnvReport), or fails it where the schemas are required (see
// EnvRequire).
func Require(t testing.TB) {
	t.Helper()
	err := missing(t)
	if err == nil {
		return
	}
	record(t, 1, 0, err)
	t.Skipf("spectest: skipped (CI runs it): %v", err)
}

// Available reports whether the MCP schemas can be found, for a test whose
// schema checks are one part among others: such a test calls Available at
// its top and, when it returns false, runs without them (Validate and
// ValidateMessage would fail it). Missing schemas are reported (see
// EnvReport), and they fail the test where the schemas are required (see
// EnvRequire).
func Available(t testing.TB) bool {
	t.Helper()
	err := missing(t)
	if err == nil {
		return true
	}
	record(t, 0, 1, err)
	t.Logf("spectest: running without schema checks (CI runs them): %v", err)
	return false
}

// missing returns why the schemas cannot be used, or nil when they can. It
// fails t where they are required.
func missing(t testing.TB) error {
	t.Helper()
	_, err := specDir()
	return judge(t, err)
}

// judge fails t when the schemas are missing (err != nil) where they are
// required, and otherwise returns err.
func judge(t testing.TB, err error) error {
	t.Helper()
	if err == nil {
		return nil
	}
	if req, why := required(); req {
		t.Fatalf("spectest: %v, and they are required here (%s)", err, why)
	}
	return err
}

// required reports whether missing schemas fail tests, and why.
func required() (bool, string) {
	if v, ok := os.LookupEnv(EnvRequire); ok && v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return true, fmt.Sprintf("%s=%q is not a boolean", EnvRequire, v)
		}
		return b, EnvRequire + "=" + v
	}
	if b, err := strconv.ParseBool(os.Getenv("CI")); err == nil && b {
		return true, "CI=" + os.Getenv("CI")
	}
	return false, ""
}

// record appends a line for skipped and unchecked tests to the EnvReport
// file, if one is named. Test binaries running at the same time each
// append whole lines (O_APPEND).
func record(t testing.TB, skipped, unchecked int, why error) {
	t.Helper()
	file := os.Getenv(EnvReport)
	if file == "" {
		return
	}
	wd, _ := os.Getwd()
	line := fmt.Sprintf("%d\t%d\t%s\t%s\n", skipped, unchecked, wd, strings.ReplaceAll(why.Error(), "\n", " "))
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		_, err = f.WriteString(line)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		t.Fatalf("spectest: %s: %v", EnvReport, err)
	}
}

var (
	dirOnce sync.Once
	dir     string
	dirErr  error
)

// specDir returns the mcp-spec directory: EnvSpecDir, or ../shared/mcp-spec
// beside the module root, found by walking up from the working directory
// (the package's directory under go test) to the nearest go.mod.
func specDir() (string, error) {
	dirOnce.Do(func() { dir, dirErr = findSpecDir() })
	return dir, dirErr
}

func findSpecDir() (string, error) {
	spec := os.Getenv(EnvSpecDir)
	if spec == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("MCP schemas not found: %w", err)
		}
		for d := wd; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				spec = filepath.Join(d, "..", "shared", "mcp-spec")
				break
			}
			if filepath.Dir(d) == d {
				return "", errors.New("MCP schemas not found: no go.mod above " + wd)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(spec, "schema")); err != nil {
		return "", fmt.Errorf("MCP schemas not found in %s; set %s to use another directory", spec, EnvSpecDir)
	}
	return spec, nil
}
