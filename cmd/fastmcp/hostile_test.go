package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile is the text the hostile test server (testdata/server/hostile.go,
// where the same constant is explained) puts in everything it sends.
const hostile = "title\x1b]0;pwned\x07 clear\x1b[2J link\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\ safe\rEVIL c1\u009b31m bidi\u202eevil\u202c\u2066x\u2069 del\x7f nul\x00 end"

// hostileShown is how the command shows it to a person.
const hostileShown = `title\x1b]0;pwned\x07 clear\x1b[2J link\x1b]8;;https://evil.example/\x1b\click\x1b]8;;\x1b\ safe\x0dEVIL c1\u009b31m bidi\u202eevil\u202c\u2066x\u2069 del\x7f nul\x00 end`

// hostileTarget is the hostile server as a stdio target.
func hostileTarget(args ...string) []string {
	return append(args, "--", server, "-stdio", "-hostile")
}

// rawControl returns the offset of the first character in s that a
// terminal acts on (a C0 control other than newline and tab, DEL, a C1
// control, a bidi formatting character) or of a byte that is not UTF-8,
// and -1 if there is none.
func rawControl(s string) int {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"),
			r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return i
		}
	}
	return -1
}

// noRawControl fails the test if what holds a character a terminal acts on.
func noRawControl(t *testing.T, name, what string) {
	t.Helper()
	if i := rawControl(what); i >= 0 {
		t.Errorf("%s has a raw control character at %d: %q", name, i, what[max(0, i-40):min(len(what), i+40)])
	}
}

// TestHostileServer: a server's escape sequences, carriage returns, C1
// controls and bidi overrides reach the user escaped, never raw, whatever
// carries them: list tables, inspect, tool results and errors, resources,
// prompts, log and progress messages, elicitation questions, JSON-RPC
// errors; a tool name outside the MCP characters is quoted and flagged.
func TestHostileServer(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		stdin string
		code  int
	}{
		{"list tools", []string{"list", "tools"}, "", exitOK},
		{"list resources", []string{"list", "resources"}, "", exitOK},
		{"list templates", []string{"list", "templates"}, "", exitOK},
		{"list prompts", []string{"list", "prompts"}, "", exitOK},
		{"inspect", []string{"inspect"}, "", exitOK},
		{"call", []string{"call", "echo"}, "", exitOK},
		{"call isError", []string{"call", "fails"}, "", exitToolError},
		{"call JSON-RPC error", []string{"call", "rpcerror"}, "", exitServer},
		{"unknown tool", []string{"call", "nope"}, "", exitUsage},
		{"read", []string{"read", "mem://hostile"}, "", exitOK},
		{"prompt", []string{"prompt", "hostile"}, "", exitOK},
		{"elicitation", []string{"call", "ask"}, "y\nAda\n", exitOK},
		{"elicitation declined", []string{"call", "ask", "--no-input"}, "", exitOK},
		{"ping", []string{"ping"}, "", exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cli(t, tt.stdin, hostileTarget(tt.args...)...)
			expect(t, r, tt.code)
			noRawControl(t, "stdout", r.stdout)
			noRawControl(t, "stderr", r.stderr)
			// Tables and the --no-input line cut long texts: their start.
			if shown := hostileShown[:40]; tt.name != "unknown tool" && !strings.Contains(r.stdout+r.stderr, shown) {
				t.Errorf("the server's text is not shown escaped (%s):\nstdout:\n%s\nstderr:\n%s", shown, r.stdout, r.stderr)
			}
		})
	}

	t.Run("bad tool name", func(t *testing.T) {
		const shown = `"bad\x1b[31mname\u202e"`
		r := cli(t, "", hostileTarget("list", "tools")...)
		expect(t, r, exitOK)
		if !strings.Contains(r.stdout, "\n"+shown+" ") || !strings.Contains(r.stderr, "1 tool name is not an MCP tool name") {
			t.Errorf("the bad tool name is not quoted and flagged:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
		}
		r = cli(t, "", hostileTarget("inspect")...)
		if !strings.Contains(r.stdout, "\n  "+shown+"  (not an MCP tool name") {
			t.Errorf("inspect does not flag the bad tool name:\n%s", r.stdout)
		}
		r = cli(t, "", hostileTarget("call", "nope")...)
		oneLineError(t, r, `it has: ask, big, echo, fails, rpcerror, `+shown)
	})

	t.Run("--json is exact", func(t *testing.T) {
		r := cli(t, "", hostileTarget("call", "echo", "--json")...)
		expect(t, r, exitOK)
		noRawControl(t, "--json", r.stdout) // the JSON escapes them all
		var res struct {
			Content           []struct{ Text string }
			StructuredContent struct{ Text string }
		}
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("--json: %v\n%s", err, r.stdout)
		}
		if len(res.Content) != 1 || res.Content[0].Text != "text: "+hostile || res.StructuredContent.Text != hostile {
			t.Errorf("--json changed the server's text: %+v", res)
		}
		r = cli(t, "", hostileTarget("list", "tools", "--json")...)
		var tools []struct{ Name string }
		if err := json.Unmarshal([]byte(r.stdout), &tools); err != nil || len(tools) != 6 || tools[5].Name != "bad\x1b[31mname\u202e" {
			t.Errorf("list tools --json: %v %q", err, tools)
		}
	})

	t.Run("-o FILE is exact", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "out")
		r := cli(t, "", hostileTarget("read", "mem://hostile", "-o", file)...)
		expect(t, r, exitOK)
		got, err := os.ReadFile(file)
		if err != nil || string(got) != "resource: "+hostile+"\n" || r.stdout != "" {
			t.Errorf("-o wrote %q (%v), stdout %q; want the resource's text as it is", got, err, r.stdout)
		}
	})
}

// bigText is what the hostile server's big tool returns for n bytes.
func bigText(n int) string {
	line := strings.Repeat("x", 79) + "\n"
	return strings.Repeat(line, n/len(line)+1)[:n]
}

// TestOutputBound: a 20 MiB result is cut at --max-output (256 KiB by
// default) with a last line saying how much was cut and how to see it;
// --max-output 0, --json and -o FILE give all of it.
func TestOutputBound(t *testing.T) {
	const size = 20 << 20
	call := func(flags ...string) result {
		t.Helper()
		r := cli(t, "", hostileTarget(append([]string{"call", "big", fmt.Sprintf("bytes=%d", size)}, flags...)...)...)
		expect(t, r, exitOK)
		return r
	}
	const note = "[cut at --max-output 256KiB: 19.8MiB more not shown; --max-output 0 shows it all, --json or -o FILE exactly]\n"
	r := call()
	shown := strings.TrimSuffix(strings.TrimSuffix(r.stdout, note), "\n") // the note is on a line of its own
	if len(shown) > defaultMaxOutput || !strings.HasSuffix(r.stdout, note) || !strings.HasPrefix(bigText(size), shown) {
		t.Errorf("printed %d bytes ending %q; want at most %d and the note %q", len(r.stdout), r.stdout[max(0, len(r.stdout)-200):], defaultMaxOutput, note)
	}
	r = call("--max-output", "1K")
	if len(r.stdout) > 1024+200 || !strings.Contains(r.stdout, "[cut at --max-output 1KiB: ") {
		t.Errorf("--max-output 1K printed %d bytes:\n%s", len(r.stdout), r.stdout)
	}
	if r := call("--max-output", "0"); r.stdout != bigText(size) {
		t.Errorf("--max-output 0 printed %d bytes, want all %d", len(r.stdout), size)
	}
	r = call("--json")
	var res struct{ Content []struct{ Text string } }
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || len(res.Content) != 1 || res.Content[0].Text != bigText(size) {
		t.Errorf("--json: %v, %d bytes of JSON; want the whole text", err, len(r.stdout))
	}
	file := filepath.Join(t.TempDir(), "big.txt")
	call("-o", file)
	if got, err := os.ReadFile(file); err != nil || string(got) != bigText(size) {
		t.Errorf("-o wrote %d bytes (%v), want all %d", len(got), err, size)
	}
	// Each line on stderr is bounded too (log messages, errors).
	r2 := cli(t, "", hostileTarget("call", "rpcerror", "--max-output", "64")...)
	oneLineError(t, r2, "[cut at --max-output 64B: ")
}
