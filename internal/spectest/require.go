package spectest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	// EnvReport names a file to which Report appends one line per test
	// binary that skipped something: "<skipped> <unchecked> <reason>".
	// make test sums the lines into one summary.
	EnvReport = "FASTMCP_SPECTEST_REPORT"
)

var (
	reporting atomic.Bool  // set by Report's Run
	skipped   atomic.Int64 // tests skipped by Require
	unchecked atomic.Int64 // tests that ran without schema checks (Available)
)

// Require makes the calling test depend on the MCP schemas. Call it at the
// top of the test, before the test starts any goroutine, process or
// listener. When the schemas are missing it skips the test, counting the
// skip for Report, or fails it where the schemas are required (see
// EnvRequire). It fails the test when the package's TestMain does not run
// its tests through Report.
func Require(t testing.TB) {
	t.Helper()
	err := missing(t)
	if err == nil {
		return
	}
	skipped.Add(1)
	t.Skipf("spectest: skipped (CI runs it): %v", err)
}

// Available reports whether the MCP schemas can be found, for a test whose
// schema checks are one part among others: such a test calls Available at
// its top and, when it returns false, runs without them (Validate and
// ValidateMessage would fail it). Missing schemas are counted for Report,
// and they fail the test where the schemas are required (see EnvRequire).
func Available(t testing.TB) bool {
	t.Helper()
	err := missing(t)
	if err == nil {
		return true
	}
	unchecked.Add(1)
	t.Logf("spectest: %v; this test runs without its schema checks", err)
	return false
}

// missing returns why the schemas cannot be used, or nil when they can. It
// fails t where they are required, and when Report is not in place.
func missing(t testing.TB) error {
	t.Helper()
	if !reporting.Load() {
		t.Fatalf("spectest: the package's TestMain must run the tests through spectest.Report, so that skips are counted")
	}
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

// M is what a TestMain runs: *testing.M, or a wrapper of it such as Report's.
type M interface {
	Run() int
}

// Report returns an M that runs m and then, when tests were skipped or ran
// without their schema checks because the schemas were missing, says so in
// one line on standard error (and appends it to the file named by
// EnvReport, if set). A package whose tests use spectest runs them through
// it:
//
//	func TestMain(m *testing.M) { goleak.VerifyTestMain(spectest.Report(m)) }
func Report(m M) M { return reporter{m} }

type reporter struct{ m M }

func (r reporter) Run() int {
	reporting.Store(true)
	code := r.m.Run()
	n, u := skipped.Load(), unchecked.Load()
	if n == 0 && u == 0 {
		return code
	}
	_, err := specDir()
	reason := "MCP schemas missing"
	if err != nil {
		reason = err.Error()
	}
	fmt.Fprintf(os.Stderr, "spectest: %s (CI runs them): %s\n", counts(n, u), reason)
	if file := os.Getenv(EnvReport); file != "" {
		if werr := appendLine(file, fmt.Sprintf("%d %d %s\n", n, u, reason)); werr != nil {
			fmt.Fprintf(os.Stderr, "spectest: %s: %v\n", EnvReport, werr)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}

// counts describes n skipped tests and u tests without schema checks.
func counts(n, u int64) string {
	var parts []string
	if n > 0 {
		parts = append(parts, plural(n, "test")+" skipped")
	}
	if u > 0 {
		parts = append(parts, plural(u, "test")+" ran without schema checks")
	}
	return strings.Join(parts, ", ")
}

func plural(n int64, s string) string {
	if n == 1 {
		return "1 " + s
	}
	return fmt.Sprintf("%d %ss", n, s)
}

// appendLine appends one short line to file; test binaries running at the
// same time each append whole lines (O_APPEND).
func appendLine(file, line string) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
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
