package spectest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTB records what Require and Available do to a test.
type fakeTB struct {
	testing.TB
	fatal, logs []string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.fatal = append(f.fatal, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Logf(format string, args ...any) {
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
}

// TestJudge checks when missing schemas fail a test (CI, or
// FASTMCP_REQUIRE_SPEC) and when they only skip it.
func TestJudge(t *testing.T) {
	notFound := errors.New("MCP schemas not found in /nowhere")
	tests := []struct {
		require, ci string
		err         error
		fails       bool
	}{
		{"", "", nil, false},
		{"", "true", nil, false}, // present: nothing to fail
		{"1", "", nil, false},
		{"", "", notFound, false},      // a fresh clone: skip
		{"", "true", notFound, true},   // CI: fail
		{"", "1", notFound, true},      // CI: fail
		{"", "false", notFound, false}, // CI=false is not CI
		{"", "maybe", notFound, false}, // not a boolean: not CI
		{"1", "", notFound, true},      // required explicitly
		{"true", "", notFound, true},   // required explicitly
		{"0", "true", notFound, false}, // explicitly allowed under CI
		{"yes", "", notFound, true},    // not a boolean: fail, and say why
		{"false", "false", notFound, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("require=%q,CI=%q,err=%v", tt.require, tt.ci, tt.err), func(t *testing.T) {
			t.Setenv(EnvRequire, tt.require)
			t.Setenv("CI", tt.ci)
			f := &fakeTB{TB: t}
			err := judge(f, tt.err)
			if fails := len(f.fatal) > 0; fails != tt.fails {
				t.Fatalf("judge failed the test: %v, want %v (%q)", fails, tt.fails, f.fatal)
			}
			if tt.fails {
				if !strings.Contains(f.fatal[0], "required here") || !strings.Contains(f.fatal[0], "/nowhere") {
					t.Errorf("failure does not say what is missing and why it is required: %q", f.fatal[0])
				}
				return
			}
			if err != tt.err {
				t.Errorf("judge returned %v, want %v", err, tt.err)
			}
		})
	}
}

// TestFindSpecDir checks the directory lookup: FASTMCP_SPEC_DIR, then
// ../shared/mcp-spec beside the module root, with a message naming the
// directory looked in and the setting when neither has the schemas.
func TestFindSpecDir(t *testing.T) {
	root := t.TempDir()
	mod := filepath.Join(root, "fastmcp")
	pkg := filepath.Join(mod, "examples", "hello")
	spec := filepath.Join(root, "shared", "mcp-spec")
	mkdir := func(dir string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mkdir(pkg)
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(pkg)

	t.Setenv(EnvSpecDir, "")
	_, err := findSpecDir()
	if err == nil || !strings.Contains(err.Error(), spec) || !strings.Contains(err.Error(), EnvSpecDir) {
		t.Errorf("fresh clone: err = %v, want one naming %s and %s", err, spec, EnvSpecDir)
	}

	mkdir(filepath.Join(spec, "schema"))
	if got, err := findSpecDir(); err != nil || got != spec {
		t.Errorf("with ../shared: findSpecDir() = %q, %v; want %q", got, err, spec)
	}

	other := filepath.Join(root, "elsewhere")
	t.Setenv(EnvSpecDir, other)
	if _, err := findSpecDir(); err == nil || !strings.Contains(err.Error(), other) {
		t.Errorf("%s=%s (no schemas there): err = %v, want one naming it", EnvSpecDir, other, err)
	}
	mkdir(filepath.Join(other, "schema"))
	if got, err := findSpecDir(); err != nil || got != other {
		t.Errorf("%s=%s: findSpecDir() = %q, %v", EnvSpecDir, other, got, err)
	}
}

// TestRecord checks the lines Require and Available append to the
// FASTMCP_SPECTEST_REPORT file for make test's summary, and that nothing
// is written when no file is named.
func TestRecord(t *testing.T) {
	file := filepath.Join(t.TempDir(), "report")
	t.Setenv(EnvReport, "")
	record(t, 1, 0, errors.New("not here"))
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("a report was written with %s unset: %v", EnvReport, err)
	}
	t.Setenv(EnvReport, file)
	record(t, 1, 0, errors.New("MCP schemas not found in /x"))
	record(t, 0, 1, errors.New("two\nlines"))
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	want := "1\t0\t" + wd + "\tMCP schemas not found in /x\n" + "0\t1\t" + wd + "\ttwo lines\n"
	if string(got) != want {
		t.Errorf("report = %q, want %q", got, want)
	}
}
