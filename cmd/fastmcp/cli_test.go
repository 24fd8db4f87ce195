package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// goldenRuns are the commands whose output is compared with a golden file,
// without their target. Each runs against the test server over every
// transport and in every era; the output must be the era's golden file
// whatever the transport.
var goldenRuns = []struct {
	name string
	args []string
}{
	{"list-tools", []string{"list", "tools"}},
	{"list-tools-json", []string{"list", "tools", "--json"}},
	{"list-resources", []string{"list", "resources"}},
	{"list-resources-json", []string{"list", "resources", "--json"}},
	{"list-templates", []string{"list", "templates"}},
	{"list-templates-json", []string{"list", "templates", "--json"}},
	{"list-prompts", []string{"list", "prompts"}},
	{"list-prompts-json", []string{"list", "prompts", "--json"}},
	{"inspect", []string{"inspect"}},
	{"inspect-json", []string{"inspect", "--json"}},
	{"call-add", []string{"call", "add", "a=2", "b=3"}},
	{"call-add-json", []string{"call", "add", "--args", `{"a": 2, "b": 100}`, "b=3", "--json"}},
	{"call-scale", []string{"call", "scale", "values=[1,2.5]", "round=yes", "label=high"}},
	{"call-picture", []string{"call", "picture"}},
	{"call-picture-json", []string{"call", "picture", "--json"}},
	{"read-readme", []string{"read", "mem://readme"}},
	{"read-template-json", []string{"read", "mem://files/42", "--json"}},
	{"prompt", []string{"prompt", "greeting", "name=Ada", "style=formal"}},
	{"prompt-json", []string{"prompt", "greeting", "name=Ada", "--json"}},
	{"ping", []string{"ping"}},
	{"ping-json", []string{"ping", "--json"}},
}

func TestGolden(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			target := tr.target(t)
			for _, era := range eras {
				t.Run(era, func(t *testing.T) {
					for _, run := range goldenRuns {
						t.Run(run.name, func(t *testing.T) {
							args := target(append(run.args, "--protocol", era)...)
							r := cli(t, "", args...)
							expect(t, r, exitOK)
							if r.stderr != "" {
								t.Errorf("stderr: %s", r.stderr)
							}
							if *update && tr.name != transports[0].name {
								// The first transport writes the files; the
								// others must match them.
								*update = false
								defer func() { *update = true }()
							}
							golden(t, era+"/"+run.name, r.stdout)
						})
					}
				})
			}
		})
	}
}

// TestBadInput: mistakes on the command line, servers that cannot be
// reached and failing tools end with one clear line on stderr and the
// documented exit code.
func TestBadInput(t *testing.T) {
	stdio := stdioTarget()
	tests := []struct {
		name string
		args []string
		code int
		want string // in the one line on stderr
	}{
		{"unknown tool", append([]string{"call", "nope"}, stdio...), exitUsage, `no tool "nope"; it has: add, chatty`},
		{"not an integer", append([]string{"call", "add", "a=x", "b=1"}, stdio...), exitUsage, "a=x: want an integer"},
		{"not key=value", append([]string{"call", "add", "a"}, stdio...), exitUsage, `"a": want key=value`},
		{"unknown argument", append([]string{"call", "add", "a=1", "b=2", "c=3"}, stdio...), exitUsage, `no argument "c"; the arguments are: a, b`},
		{"missing argument", append([]string{"call", "add", "a=1"}, stdio...), exitUsage, "arguments of add: b: is required"},
		{"several mistakes", append([]string{"call", "scale", "values:=[\"x\"]", "factor=3"}, stdio...), exitUsage, "values[0]: "},
		{"out of range", append([]string{"call", "count", "steps=20"}, stdio...), exitUsage, "steps: must be <= 10"},
		{"not an enum value", append([]string{"call", "scale", "values=[1]", "label=mid"}, stdio...), exitUsage, "label=mid: want one of low, high"},
		{"bad --args", append([]string{"call", "add", "--args", "[1]"}, stdio...), exitUsage, "--args: want a JSON object"},
		{"bad JSON value", append([]string{"call", "add", "a:={", "b=1"}, stdio...), exitUsage, "a:={: not valid JSON"},
		{"tool error", append([]string{"call", "fail"}, stdio...), exitToolError, "the disk is full"},
		{"unknown resource", append([]string{"read", "mem://nope"}, stdio...), exitServer, "reading mem://nope: "},
		{"unknown prompt", append([]string{"prompt", "nope"}, stdio...), exitUsage, `no prompt "nope"; it has: greeting`},
		{"missing prompt argument", append([]string{"prompt", "greeting"}, stdio...), exitUsage, "missing required arguments: name"},
		{"unknown prompt argument", append([]string{"prompt", "greeting", "name=x", "mood=y"}, stdio...), exitUsage, `no argument "mood"; its arguments are: name, style`},
		{"unreachable URL", []string{"ping", "http://127.0.0.1:1/mcp"}, exitConnection, "connecting to http://127.0.0.1:1/mcp: dial tcp 127.0.0.1:1: connect: connection refused"},
		{"no such server program", []string{"ping", "--", "/nonexistent/server"}, exitConnection, "connecting to /nonexistent/server: "},
		{"not a URL", []string{"ping", "example.com"}, exitUsage, `"example.com" is not an http(s) URL; to start a stdio server, put its command after --`},
		{"no target", []string{"ping"}, exitUsage, "missing arguments"},
		{"nothing after --", []string{"ping", "--"}, exitUsage, "nothing after --"},
		{"list what", append([]string{"list", "things"}, stdio...), exitUsage, `cannot list "things"`},
		{"unknown flag", []string{"ping", "--frobnicate", "http://127.0.0.1:1/mcp"}, exitUsage, "unknown flag: --frobnicate"},
		{"unknown command", []string{"frobnicate"}, exitUsage, `unknown command "frobnicate"`},
		{"unknown revision", append([]string{"ping", "--protocol", "1999-01-01"}, stdio...), exitUsage, "--protocol 1999-01-01: unknown revision"},
		{"bad header", []string{"ping", "-H", "NoColon", "http://127.0.0.1:1/mcp"}, exitUsage, `-H "NoColon": want 'Name: value'`},
		{"header for stdio", append([]string{"ping", "-H", "A: b"}, stdio...), exitUsage, "-H and --oauth apply to a server at a URL"},
		{"bad log level", append([]string{"ping", "--log-level", "loud"}, stdio...), exitUsage, `--log-level "loud"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cli(t, "", tt.args...)
			expect(t, r, tt.code)
			if tt.code == exitToolError {
				if !strings.Contains(r.stderr, tt.want) || r.stdout != "" {
					t.Errorf("stdout %q, stderr %q; want the tool's error on stderr", r.stdout, r.stderr)
				}
				return
			}
			oneLineError(t, r, tt.want)
		})
	}
}

// TestProgressAndLogs: progress notifications become plain lines when
// stderr is not a terminal, log messages go to stderr from the level
// asked for, and the result alone goes to stdout.
func TestProgressAndLogs(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			target := tr.target(t)
			for _, era := range eras {
				t.Run(era, func(t *testing.T) {
					r := cli(t, "", target("call", "count", "steps=3", "--protocol", era)...)
					expect(t, r, exitOK)
					want := "progress: 1/3 (33%) step 1\nprogress: 2/3 (66%) step 2\nprogress: 3/3 (100%) step 3\n"
					if r.stderr != want || r.stdout != "counted to 3\n" {
						t.Errorf("stdout %q, stderr %q; want the progress lines %q on stderr", r.stdout, r.stderr, want)
					}

					r = cli(t, "", target("call", "chatty", "--protocol", era)...)
					expect(t, r, exitOK)
					if want := "[info] chatty: starting\n[warning] chatty: half way\n"; r.stderr != want || r.stdout != "done\n" {
						t.Errorf("stdout %q, stderr %q; want the log messages %q on stderr", r.stdout, r.stderr, want)
					}
					r = cli(t, "", target("call", "chatty", "--log-level", "warning", "--protocol", era)...)
					if want := "[warning] chatty: half way\n"; r.stderr != want {
						t.Errorf("--log-level warning: stderr %q, want %q", r.stderr, want)
					}
				})
			}
		})
	}
}

// TestElicitation answers the server's form from stdin (the answers a
// user types, piped in), and declines it with --no-input or "n".
func TestElicitation(t *testing.T) {
	tests := []struct {
		name, stdin string
		flags       []string
		stdout      string
		stderr      []string // in order
	}{
		{"accept", "y\nAda\n41\n\n", nil, "welcome Ada (41) of team red\n",
			[]string{"The server asks: Tell us about yourself", "Answer? [Y]es, [n]o (decline), [c]ancel: y",
				"  name (Your name; string): Ada", "  age (Your age; integer; optional): 41", "  team (Your team; one of: red, blue; optional) [\"red\"]: "}},
		{"retry a bad answer", "\n\nAda\nold\n-1\n7\n7\nblue\n", nil, "welcome Ada (7) of team blue\n",
			[]string{"  name is required", "  want an integer", "  age: must be >= 0", "  want one of red, blue"}},
		{"decline", "n\n", nil, "signup decline\n", nil},
		{"cancel", "c\n", nil, "signup cancel\n", nil},
		{"no input", "", []string{"--no-input"}, "signup decline\n", []string{"The server asked for input (declined: --no-input): Tell us about yourself"}},
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			target := tr.target(t)
			for _, era := range eras {
				t.Run(era, func(t *testing.T) {
					for _, tt := range tests {
						t.Run(tt.name, func(t *testing.T) {
							args := target(append([]string{"call", "signup", "--protocol", era}, tt.flags...)...)
							r := cli(t, tt.stdin, args...)
							expect(t, r, exitOK)
							if r.stdout != tt.stdout {
								t.Errorf("stdout %q, want %q\nstderr:\n%s", r.stdout, tt.stdout, r.stderr)
							}
							rest := r.stderr
							for _, w := range tt.stderr {
								i := strings.Index(rest, w)
								if i < 0 {
									t.Fatalf("stderr lacks %q (in order):\n%s", w, r.stderr)
								}
								rest = rest[i+len(w):]
							}
						})
					}
				})
			}
		})
	}

	t.Run("url", func(t *testing.T) {
		for _, tt := range []struct{ stdin, flag, want string }{
			{"y\n", "--no-browser", "visit accept\n"},
			{"n\n", "--no-browser", "visit decline\n"},
			{"", "--no-input", "visit decline\n"},
		} {
			r := cli(t, tt.stdin, append([]string{"call", "visit", tt.flag}, stdioTarget()...)...)
			expect(t, r, exitOK)
			if r.stdout != tt.want || !strings.Contains(r.stderr, "https://pay.example.com/invoice/7") {
				t.Errorf("%q %s: stdout %q, stderr %q; want %q and the URL shown", tt.stdin, tt.flag, r.stdout, r.stderr, tt.want)
			}
		}
	})

	t.Run("stdin closed", func(t *testing.T) {
		r := cli(t, "y\n", append([]string{"call", "signup"}, stdioTarget()...)...)
		if r.code == exitOK || !strings.Contains(r.stderr, "standard input is closed") {
			t.Errorf("exit %d, stderr %q; want a failure saying stdin closed", r.code, r.stderr)
		}
	})
}

// blobBytes are the contents of the test server's mem://logo.
var blobBytes = []byte{0x89, 'P', 'N', 'G', 0, 1, 2, 0xff}

// TestReadBinary: a binary resource is written as it is to a pipe.
func TestReadBinary(t *testing.T) {
	r := cli(t, "", append([]string{"read", "mem://logo"}, stdioTarget()...)...)
	expect(t, r, exitOK)
	if !bytes.Equal([]byte(r.stdout), blobBytes) {
		t.Errorf("stdout %q, want the resource's bytes %q", r.stdout, blobBytes)
	}
}

// TestHeaders: -H headers reach the server on every request.
func TestHeaders(t *testing.T) {
	u := httpTarget(t)
	for _, era := range eras {
		r := cli(t, "", "call", u, "header", "name=X-Trace", "-H", "X-Trace: abc 1", "-H", "Authorization: Bearer t0k", "--protocol", era)
		expect(t, r, exitOK)
		if r.stdout != "X-Trace: abc 1\n" {
			t.Errorf("%s: stdout %q, want the header echoed", era, r.stdout)
		}
	}
}

// TestInterrupt: Ctrl-C (SIGINT) during a call cancels it and exits with
// 130; --timeout gives up with 3.
func TestInterrupt(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT on Windows")
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			target := tr.target(t)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, binary, target("call", "wait")...)
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(stderr)
			var lines []string
			for sc.Scan() {
				lines = append(lines, sc.Text())
				if sc.Text() == "[info] wait: waiting" { // the call is running
					cmd.Process.Signal(os.Interrupt)
				}
			}
			err = cmd.Wait()
			if cmd.ProcessState.ExitCode() != exitInterrupted || lines[len(lines)-1] != "fastmcp: interrupted" {
				t.Errorf("exit %v, stderr %q; want 130 and \"fastmcp: interrupted\"", err, lines)
			}

			// The deadline may pass while connecting, listing the tools or
			// calling: the message names the step, the exit code is the same.
			r := cli(t, "", target("call", "wait", "--timeout", "300ms", "--log-level", "warning")...)
			expect(t, r, exitConnection)
			oneLineError(t, r, "no answer within --timeout 300ms")
		})
	}
}

// TestHelp: every command's --help has examples; --version prints the
// version.
func TestHelp(t *testing.T) {
	for _, cmd := range []string{"", "list", "inspect", "call", "read", "prompt", "ping", "completion", "dev", "dev apps", "proxy"} {
		t.Run("help "+cmd, func(t *testing.T) {
			args := strings.Fields(cmd + " --help")
			r := cli(t, "", args...)
			expect(t, r, exitOK)
			if !strings.Contains(r.stdout, "Examples:\n  ") || !strings.Contains(r.stdout, "Usage:") {
				t.Errorf("fastmcp %s --help lacks usage or examples:\n%s", cmd, r.stdout)
			}
		})
	}
	r := cli(t, "", "--version")
	expect(t, r, exitOK)
	if r.stdout != "fastmcp devel\n" {
		t.Errorf("--version printed %q", r.stdout)
	}
}

// TestCompletion: the scripts for each shell; bash loads its own.
func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			r := cli(t, "", "completion", shell)
			expect(t, r, exitOK)
			if !strings.Contains(r.stdout, "fastmcp") || len(r.stdout) < 1000 {
				t.Errorf("completion %s: %d bytes:\n%.300s", shell, len(r.stdout), r.stdout)
			}
			if shell != "bash" {
				return
			}
			bash, err := exec.LookPath("bash")
			if err != nil {
				t.Skip("no bash")
			}
			out, err := exec.Command(bash, "-c", r.stdout+"\ncomplete -p fastmcp").CombinedOutput()
			if err != nil || !strings.Contains(string(out), "complete") || !strings.Contains(string(out), "fastmcp") {
				t.Errorf("bash did not load the completion: %v\n%s", err, out)
			}
		})
	}
	r := cli(t, "", "completion", "powershell")
	expect(t, r, exitUsage)
}

// TestCompletionCandidates: the completion scripts ask the command for
// candidates (cobra's __complete); the commands and list kinds come back.
func TestCompletionCandidates(t *testing.T) {
	r := cli(t, "", "__complete", "li")
	if !strings.Contains(r.stdout, "list") {
		t.Errorf("__complete li: %q", r.stdout)
	}
	r = cli(t, "", "__complete", "list", "te")
	if !strings.Contains(r.stdout, "templates") {
		t.Errorf("__complete list te: %q", r.stdout)
	}
}
