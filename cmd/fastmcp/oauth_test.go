package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
)

// TestOAuth logs in with --oauth against a server protected by an
// oauthtest authorization server: the first run prints the authorization
// URL (--no-browser), which the test follows as a browser would, and the
// tool sees the user; the token lands in the per-user store (one file of
// mode 0600 under $XDG_CONFIG_HOME/fastmcp/tokens) and a second run, which
// may not prompt (--no-input), reuses it.
func TestOAuth(t *testing.T) {
	is := oauthtest.NewServer(t, oauthtest.Options{Subject: "ada"})
	resource := startServer(t, "-issuer", is.URL())
	config := t.TempDir()
	env := []string{"XDG_CONFIG_HOME=" + config}

	// Without --oauth: the server's 401 is a connection failure.
	r := cliEnv(t, env, "", "call", resource, "whoami")
	expect(t, r, exitConnection)
	oneLineError(t, r, "the server requires authorization (HTTP 401): add --oauth to log in")

	// The first run logs in.
	stdout, stderr, code := loginRun(t, env, "call", resource, "whoami", "--oauth", "--no-browser")
	if code != exitOK || stdout != "you are ada\n" {
		t.Fatalf("first run: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	files, err := filepath.Glob(filepath.Join(config, "fastmcp", "tokens", "*.json"))
	if err != nil || len(files) != 1 {
		t.Fatalf("token files %v (%v); want one", files, err)
	}
	fi, err := os.Stat(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", fi.Mode().Perm())
	}
	if data, _ := os.ReadFile(files[0]); !bytes.Contains(data, []byte(`"access_token"`)) {
		t.Errorf("the token file holds no token:\n%s", data)
	}

	// The second run reuses the stored token: no login, no prompt.
	r = cliEnv(t, env, "", "call", resource, "whoami", "--oauth", "--no-input")
	expect(t, r, exitOK)
	if r.stdout != "you are ada\n" || strings.Contains(r.stderr, "authorize") {
		t.Errorf("second run: stdout %q, stderr %q; want the stored token used", r.stdout, r.stderr)
	}

	// Another user's configuration directory has no token: with --no-input
	// the login cannot happen.
	r = cliEnv(t, []string{"XDG_CONFIG_HOME=" + t.TempDir()}, "", "call", resource, "whoami", "--oauth", "--no-input")
	expect(t, r, exitConnection)
	oneLineError(t, r, "connecting to "+resource+": the server needs a login, which --no-input forbids")
}

// loginRun runs the command and plays the user's browser: when the
// command prints the authorization URL on stderr, it follows it (the
// authorization server approves at once and redirects to the command's
// loopback listener).
func loginRun(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout = &out
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var errText strings.Builder
	followed := false
	sc := bufio.NewScanner(pipe)
	for sc.Scan() {
		line := sc.Text()
		errText.WriteString(line + "\n")
		if u, ok := strings.CutPrefix(line, "  http"); ok && !followed {
			followed = true
			if err := follow(ctx, "http"+u); err != nil {
				t.Errorf("following the authorization URL: %v", err)
			}
		}
	}
	io.Copy(io.Discard, pipe)
	err = cmd.Wait()
	if !followed {
		t.Errorf("the command printed no authorization URL")
	}
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errText.String(), code
}

// follow plays the browser: it opens the authorization URL and follows
// the redirect back to the command's loopback listener.
func follow(ctx context.Context, authURL string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}
