package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// buildExample builds the example app server (examples/apps) for the test
// and returns its path.
func buildExample(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "apps")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", exe, "../../examples/apps").CombinedOutput(); err != nil {
		t.Fatalf("building examples/apps: %v\n%s", err, out)
	}
	return exe
}

// serveExampleHTTP runs the example app server over HTTP on 127.0.0.1
// until the test ends and returns its endpoint's URL.
func serveExampleHTTP(t *testing.T, exe string) string {
	t.Helper()
	cmd := exec.Command(exe, "-addr", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	// It logs `msg="serving MCP over HTTP" addr=127.0.0.1:PORT path=/mcp`.
	m := startUntil(t, cmd, stderr, regexp.MustCompile(`serving MCP over HTTP.* addr=(\S+) path=(\S+)`))
	return "http://" + m[1] + m[2]
}

// TestDevApps runs `fastmcp dev apps` against the example app server, over
// stdio and over HTTP: it prints the preview's URL, the page carries the
// token its endpoints need, the tool list shows the tools with their view,
// and Ctrl-C ends it with exit code 130.
func TestDevApps(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT on Windows")
	}
	exe := buildExample(t)
	for _, tt := range []struct {
		name   string
		target func(t *testing.T) []string
	}{
		{"stdio", func(*testing.T) []string { return []string{"--", exe} }},
		{"http", func(t *testing.T) []string { return []string{serveExampleHTTP(t, exe)} }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run := startDevApps(t, nil, append([]string{"dev", "apps"}, tt.target(t)...)...)
			token := pageToken(t, run.url)
			var list struct {
				Server struct{ Name string }
				Tools  []struct {
					Name        string
					ResourceURI string
					AppOnly     bool
				}
			}
			postJSON(t, run.url+"api/tools", token, &list)
			if list.Server.Name != "sales" {
				t.Errorf("server %q, want sales", list.Server.Name)
			}
			got := map[string]string{}
			for _, tool := range list.Tools {
				got[tool.Name] = tool.ResourceURI
				if tool.AppOnly != (tool.Name == "forecast") {
					t.Errorf("tool %s: appOnly %v", tool.Name, tool.AppOnly)
				}
			}
			want := map[string]string{"sales_report": "ui://sales/chart.html", "forecast": "ui://sales/chart.html"}
			if len(got) != len(want) || got["sales_report"] != want["sales_report"] || got["forecast"] != want["forecast"] {
				t.Errorf("tools %v, want %v", got, want)
			}

			// Without the token the endpoint refuses.
			req, _ := http.NewRequest(http.MethodPost, run.url+"api/tools", strings.NewReader("{}"))
			expectStatus(t, req, http.StatusForbidden, "without the token")
			run.interrupt(t)
		})
	}
}

// TestDevAppsOpen: --open hands the page's URL to the system's opener
// (xdg-open, here a script that writes down its argument).
func TestDevAppsOpen(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("the opener is xdg-open only on other systems")
	}
	dir := t.TempDir()
	opened := filepath.Join(dir, "opened")
	script := "#!/bin/sh\necho \"$1\" > " + opened + ".tmp && mv " + opened + ".tmp " + opened + "\n"
	if err := os.WriteFile(filepath.Join(dir, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	run := startDevApps(t, []string{"PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")},
		append([]string{"dev", "apps", "--open"}, stdioTarget()...)...)
	var got []byte
	for got == nil { // the opener runs in the background; the test's deadline bounds the wait
		if b, err := os.ReadFile(opened); err == nil {
			got = b
		} else if t.Context().Err() != nil {
			t.Fatal("xdg-open was never run")
		} else {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if strings.TrimSpace(string(got)) != run.url {
		t.Errorf("xdg-open got %q, want %q", got, run.url)
	}
	run.interrupt(t)
}

// devRun is a running long-lived command: `fastmcp dev apps`, `fastmcp
// proxy --from ADDRESS`.
type devRun struct {
	cmd    *exec.Cmd
	url    string // the URL it printed: the preview page's, the proxy's endpoint
	stderr *strings.Builder
}

// startDevApps runs the command with args (and env added to its
// environment) and waits for the preview's URL on its stdout.
func startDevApps(t *testing.T, env []string, args ...string) *devRun {
	t.Helper()
	return startServing(t, env, "Preview: ", args...)
}

// startServing runs the command with args (and env added to its
// environment) and waits for its first line on stdout, prefix and a URL
// on 127.0.0.1.
func startServing(t *testing.T, env []string, prefix string, args ...string) *devRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	run := &devRun{cmd: exec.CommandContext(ctx, binary, args...), stderr: &strings.Builder{}}
	run.cmd.Env = append(os.Environ(), env...)
	run.cmd.Stderr = run.stderr
	stdout, err := run.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := run.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		run.cmd.Process.Kill()
		run.cmd.Wait()
		cancel()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	u, ok := strings.CutPrefix(strings.TrimSpace(line), prefix)
	if err != nil || !ok || !strings.HasPrefix(u, "http://127.0.0.1:") {
		run.cmd.Process.Kill()
		run.cmd.Wait()
		t.Fatalf("first line %q (%v), want \"%shttp://127.0.0.1:PORT/...\"; stderr:\n%s", line, err, prefix, run.stderr.String())
	}
	run.url = u
	return run
}

// interrupt sends Ctrl-C (SIGINT) and checks that the command ends with
// exit code 130 and "fastmcp: interrupted".
func (r *devRun) interrupt(t *testing.T) {
	t.Helper()
	r.cmd.Process.Signal(os.Interrupt)
	r.wait(t, exitInterrupted, "fastmcp: interrupted\n")
}

// wait waits for the command to exit and checks its exit code and that
// its stderr has the line want (with its newline). The line need not be
// the last: a log line of a goroutine winding down (the proxy noting that
// the backend's list could not be fetched) may follow it.
func (r *devRun) wait(t *testing.T, code int, want string) {
	t.Helper()
	r.cmd.Wait()
	stderr := r.stderr.String()
	if got := r.cmd.ProcessState.ExitCode(); got != code || !(strings.HasPrefix(stderr, want) || strings.Contains(stderr, "\n"+want)) {
		t.Errorf("exit %d, stderr %q; want %d and the line %q", got, stderr, code, want)
	}
}

// TestDevAppsAddr: --addr must be a loopback address.
func TestDevAppsAddr(t *testing.T) {
	r := cli(t, "", append([]string{"dev", "apps", "--addr", "0.0.0.0:0"}, stdioTarget()...)...)
	expect(t, r, exitUsage)
	oneLineError(t, r, "must be on 127.0.0.1, ::1 or localhost")
}

var tokenRE = regexp.MustCompile(`<meta name="fastmcp-token" content="([0-9a-f]+)">`)

// pageToken fetches the preview page and returns the token it embeds.
func pageToken(t *testing.T, pageURL string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, pageURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	body := fetch(t, req)
	m := tokenRE.FindSubmatch(body)
	if m == nil {
		t.Fatalf("GET %s: no token in:\n%s", pageURL, body)
	}
	return string(m[1])
}

// postJSON posts {} to one of the page's endpoints with the token and
// decodes the answer into v.
func postJSON(t *testing.T, url, token string, v any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Fastmcp-Preview-Token", token)
	body := fetch(t, req)
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("POST %s: %v\n%s", url, err, body)
	}
}

// expectStatus sends req and checks the status of the answer.
func expectStatus(t *testing.T, req *http.Request, want int, what string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return
	}
	resp.Body.Close()
	if resp.StatusCode != want {
		t.Errorf("%s: status %d, want %d", what, resp.StatusCode, want)
	}
}

// fetch sends req and returns the body of its 200 answer.
func fetch(t *testing.T, req *http.Request) []byte {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %s\n%s", req.Method, req.URL, resp.Status, body)
	}
	return body
}

// TestDevAppsServerGone: --timeout bounds connecting only (the preview
// still serves after it), and when the stdio server dies `fastmcp dev apps`
// ends with exit code 3 and a line saying the server went away.
func TestDevAppsServerGone(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the server is started through sh")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	run := startDevApps(t, nil, "dev", "apps", "--timeout", "300ms", "--",
		"sh", "-c", `echo $$ > "$0" && exec "$1" -stdio`, pidFile, server)
	start := time.Now()
	token := pageToken(t, run.url)
	time.Sleep(time.Until(start.Add(600 * time.Millisecond))) // past --timeout
	var list struct{ Tools []struct{ Name string } }
	postJSON(t, run.url+"api/tools", token, &list)
	if len(list.Tools) == 0 {
		t.Errorf("after --timeout passed: no tools listed")
	}

	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Kill(); err != nil {
		t.Fatal(err)
	}
	run.cmd.Wait()
	stderr := run.stderr.String()
	if code := run.cmd.ProcessState.ExitCode(); code != exitConnection {
		t.Errorf("exit code %d, want %d; stderr:\n%s", code, exitConnection, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "fastmcp: the server went away: ") || !strings.Contains(last, "killed") {
		t.Errorf("last line of stderr %q, want \"fastmcp: the server went away: …killed\"", last)
	}
}
