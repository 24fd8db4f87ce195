package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata with the output of this run")

// binary is the fastmcp command and server the test server
// (testdata/server), built once by TestMain.
var binary, server string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fastmcp-cli-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	binary = filepath.Join(dir, "fastmcp"+exe)
	server = filepath.Join(dir, "server"+exe)
	for _, b := range []struct{ out, pkg string }{{binary, "."}, {server, "./testdata/server"}} {
		if out, err := exec.Command("go", "build", "-o", b.out, b.pkg).CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", b.pkg, err, out)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	if code == 0 {
		// The tests start goroutines of their own (reading the pipes of
		// the processes they run): none may outlive them.
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// result is what one run of the command did.
type result struct {
	stdout, stderr string
	code           int
}

// cli runs the fastmcp command with args and stdin as its standard input,
// and returns what it printed and its exit code. Its user configuration
// directory (where --oauth keeps tokens) is a new empty one; cliEnv's env
// may name another.
func cli(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	return cliEnv(t, nil, stdin, args...)
}

func cliEnv(t *testing.T, env []string, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "NO_COLOR=1")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running fastmcp %s: %v", strings.Join(args, " "), err)
	}
	if ctx.Err() != nil {
		t.Fatalf("fastmcp %s did not finish within a minute; stderr:\n%s", strings.Join(args, " "), stderr.String())
	}
	return result{stdout.String(), stderr.String(), code}
}

// stdioTarget is the test server as a stdio target.
func stdioTarget() []string {
	return []string{"--", server, "-stdio"}
}

// httpTarget serves the test server over HTTP on 127.0.0.1 for the test
// and returns its URL.
func httpTarget(t *testing.T) string {
	t.Helper()
	return startServer(t)
}

// startServer runs the test server over HTTP on 127.0.0.1 with the extra
// flags until the test ends, and returns its endpoint's URL.
func startServer(t *testing.T, flags ...string) string {
	t.Helper()
	cmd := exec.Command(server, append([]string{"-http", "127.0.0.1:0"}, flags...)...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// The first line, printed once the server listens, or EOF if it exits.
	line, err := bufio.NewReader(stdout).ReadString('\n')
	u, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if err != nil || !ok {
		t.Fatalf("the test server did not start: %q, %v", line, err)
	}
	return u
}

// transports are the ways the tests reach the test server; the command's
// output must be the same over each.
var transports = []struct {
	name   string
	target func(t *testing.T) func(args ...string) []string
}{
	{"stdio", func(t *testing.T) func(args ...string) []string {
		return func(args ...string) []string { return append(args, stdioTarget()...) }
	}},
	{"http", func(t *testing.T) func(args ...string) []string {
		u := httpTarget(t)
		// The URL goes where TARGET is: after the command words.
		return func(args ...string) []string { return insertTarget(args, u) }
	}},
}

// eras are the protocol revisions the tests speak: the latest legacy one
// (initialize handshake) and the modern one.
var eras = []string{"2025-11-25", "2026-07-28"}

// insertTarget puts the URL where the command's TARGET goes: after
// "list KIND", after any other command's name.
func insertTarget(args []string, u string) []string {
	pos := 1
	if len(args) > 0 && args[0] == "list" {
		pos = 2
	}
	pos = min(pos, len(args))
	out := append([]string{}, args[:pos]...)
	out = append(out, u)
	return append(out, args[pos:]...)
}

var (
	portRE     = regexp.MustCompile(`127\.0\.0\.1:\d+`)
	durationRE = regexp.MustCompile(`in [0-9.]+(ns|µs|ms|s)\b`)
	millisRE   = regexp.MustCompile(`"milliseconds": [0-9.e-]+`)
)

// normalize replaces what changes from run to run: ports and times.
func normalize(s string) string {
	s = portRE.ReplaceAllString(s, "127.0.0.1:PORT")
	s = durationRE.ReplaceAllString(s, "in DURATION")
	return millisRE.ReplaceAllString(s, `"milliseconds": MS`)
}

// golden compares got with testdata/name.golden (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	got = normalize(got)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// expect checks a run's exit code, and that stderr is empty when it
// should be.
func expect(t *testing.T, r result, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.stdout, r.stderr)
	}
}

// oneLineError checks that a failed run printed exactly one line on
// stderr, "fastmcp: ..." containing want.
func oneLineError(t *testing.T, r result, want string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "fastmcp: ") || !strings.Contains(lines[0], want) {
		t.Errorf("stderr = %q; want one line \"fastmcp: ...%s...\"", r.stderr, want)
	}
}
