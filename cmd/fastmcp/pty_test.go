//go:build !windows

package main

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestTerminal runs the command on a pseudo-terminal, as a user would:
// progress is one bar redrawn in place, and an elicitation form is
// answered by typing (the terminal echoes, the command does not).
func TestTerminal(t *testing.T) {
	t.Run("progress bar", func(t *testing.T) {
		out := onTerminal(t, "", append([]string{"call", "count", "steps=3"}, stdioTarget()...)...)
		for _, want := range []string{
			"[=========>                    ]  33% step 1",
			"\r\x1b[K[===================>          ]  66% step 2",
			"\r\x1b[K[==============================] 100% step 3",
			"\r\x1b[Kcounted to 3",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("the terminal shows no %q:\n%q", want, out)
			}
		}
		if strings.Contains(out, "progress:") {
			t.Errorf("plain progress lines on a terminal:\n%q", out)
		}
	})
	t.Run("elicitation", func(t *testing.T) {
		out := onTerminal(t, "y\nGrace\n\nblue\n", append([]string{"call", "signup"}, stdioTarget()...)...)
		if !strings.Contains(out, "welcome Grace (0) of team blue") {
			t.Errorf("the form was not answered:\n%q", out)
		}
		// Each answer appears once: typed (echoed by the terminal), not
		// repeated by the command.
		if n := strings.Count(out, "Grace"); n != 2 { // the answer and the result
			t.Errorf("%q appears %d times, want 2:\n%q", "Grace", n, out)
		}
	})
}

// TestTerminalHostile: on a terminal, the hostile server's text shows
// escaped (the only control sequence is the command's own, which clears
// the progress bar), and a 20 MiB result is cut to --max-output.
func TestTerminalHostile(t *testing.T) {
	out := onTerminal(t, "", hostileTarget("call", "echo")...)
	noRawControl(t, "the terminal", strings.ReplaceAll(out, "\r\x1b[K", ""))
	if !strings.Contains(out, "text: "+hostileShown) {
		t.Errorf("the result is not shown escaped:\n%q", out)
	}

	start := time.Now()
	out = onTerminal(t, "", hostileTarget("call", "big", "bytes=20971520")...)
	t.Logf("a 20 MiB result on a terminal: %d bytes shown in %v", len(out), time.Since(start))
	if len(out) > defaultMaxOutput+4096 || !strings.Contains(out, "[cut at --max-output 256KiB: 19.8MiB more not shown") {
		t.Errorf("the terminal got %d bytes, ending %q", len(out), out[max(0, len(out)-200):])
	}
}

// onTerminal runs the command with stdin, stdout and stderr on a
// pseudo-terminal, types input, and returns everything the terminal
// showed.
func onTerminal(t *testing.T, input string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(cmd.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "TERM=dumb")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 200})
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer tty.Close()
	var out bytes.Buffer
	done := make(chan struct{})
	go func() { // ends when the command exits and the terminal closes
		defer close(done)
		io.Copy(&out, tty) // EIO once the command has exited
	}()
	if input != "" {
		if _, err := tty.Write([]byte(input)); err != nil {
			t.Fatal(err)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("fastmcp %s: %v", strings.Join(args, " "), err)
	}
	tty.Close()
	<-done
	return strings.ReplaceAll(out.String(), "\r\n", "\n")
}
