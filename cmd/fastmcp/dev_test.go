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
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, binary, append([]string{"dev", "apps"}, tt.target(t)...)...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(stdout).ReadString('\n')
			pageURL, ok := strings.CutPrefix(strings.TrimSpace(line), "Preview: ")
			if err != nil || !ok || !strings.HasPrefix(pageURL, "http://127.0.0.1:") {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("first line %q (%v), want \"Preview: http://127.0.0.1:PORT/\"; stderr:\n%s", line, err, stderr.String())
			}

			token := pageToken(t, pageURL)
			var list struct {
				Server struct{ Name string }
				Tools  []struct {
					Name        string
					ResourceURI string
					AppOnly     bool
				}
			}
			postJSON(t, pageURL+"api/tools", token, &list)
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
			req, _ := http.NewRequest(http.MethodPost, pageURL+"api/tools", strings.NewReader("{}"))
			if resp, err := http.DefaultClient.Do(req); err != nil {
				t.Error(err)
			} else if resp.Body.Close(); resp.StatusCode != http.StatusForbidden {
				t.Errorf("without the token: status %d, want 403", resp.StatusCode)
			}

			cmd.Process.Signal(os.Interrupt)
			cmd.Wait()
			if code := cmd.ProcessState.ExitCode(); code != exitInterrupted || !strings.HasSuffix(stderr.String(), "fastmcp: interrupted\n") {
				t.Errorf("after Ctrl-C: exit %d, stderr %q; want 130 and \"fastmcp: interrupted\"", code, stderr.String())
			}
		})
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
