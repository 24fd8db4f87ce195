package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/nodepeers"
)

// The reference server from npm, @modelcontextprotocol/server-everything
// (pinned in interop/package.json, installed by scripts/interop.sh
// --install): the command against a server it was not written with.
const everything = "@modelcontextprotocol/server-everything"

// TestEverythingServer runs the commands against the TypeScript reference
// server over stdio and over Streamable HTTP, in each revision it speaks.
func TestEverythingServer(t *testing.T) {
	p := nodepeers.Require(t, everything)
	index := p.Path(everything, "dist/index.js")
	// Node starts the server in about a second, so each transport is run
	// in one revision: the latest legacy one over stdio, an older one
	// over HTTP.
	targets := []struct {
		name, era string
		target    func(t *testing.T) func(args ...string) []string
	}{
		{"stdio", "2025-11-25", func(t *testing.T) func(args ...string) []string {
			return func(args ...string) []string { return append(args, "--", p.Node, index, "stdio") }
		}},
		{"http", "2025-06-18", func(t *testing.T) func(args ...string) []string {
			u := startEverythingHTTP(t, p.Node, index)
			return func(args ...string) []string { return insertTarget(args, u) }
		}},
	}
	for _, tr := range targets {
		t.Run(tr.name, func(t *testing.T) {
			target := tr.target(t)
			for _, era := range []string{tr.era} {
				t.Run(era, func(t *testing.T) {
					run := func(stdin string, args ...string) result {
						r := cli(t, stdin, target(append(args, "--protocol", era)...)...)
						// The server's banner on its stderr, which is the command's.
						r.stderr = strings.ReplaceAll(r.stderr, "Starting default (STDIO) server...\n", "")
						return r
					}
					r := run("", "list", "tools")
					expect(t, r, exitOK)
					for _, tool := range []string{"echo", "get-sum", "trigger-long-running-operation"} {
						if !strings.Contains(r.stdout, "\n"+tool+" ") {
							t.Errorf("list tools lacks %s:\n%s", tool, r.stdout)
						}
					}

					r = run("", "inspect", "--json")
					expect(t, r, exitOK)
					var rep struct {
						ProtocolVersion string
						Server          struct{ Name string }
						Tools           []struct{ Name string }
					}
					if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || rep.ProtocolVersion != era || rep.Server.Name == "" || len(rep.Tools) < 5 {
						t.Errorf("inspect --json: %v %+v\n%.500s", err, rep, r.stdout)
					}

					// Typed from the schema: the numbers are numbers.
					r = run("", "call", "get-sum", "a=2", "b=3.5")
					expect(t, r, exitOK)
					if r.stdout != "The sum of 2 and 3.5 is 5.5.\n" {
						t.Errorf("get-sum: %q", r.stdout)
					}
					r = run("", "call", "get-sum", "a=two", "b=3")
					expect(t, r, exitUsage)
					oneLineError(t, r, "a=two: want a number")

					// Structured content is printed as JSON.
					r = run("", "call", "get-structured-content", "location=Chicago")
					expect(t, r, exitOK)
					var weather map[string]any
					if err := json.Unmarshal([]byte(r.stdout), &weather); err != nil || weather["temperature"] == nil {
						t.Errorf("get-structured-content: %v\n%s", err, r.stdout)
					}

					// Progress as plain lines on stderr.
					r = run("", "call", "trigger-long-running-operation", "duration=0.3", "steps=3")
					expect(t, r, exitOK)
					if !strings.Contains(r.stderr, "progress: 1/3 (33%)") || !strings.Contains(r.stderr, "progress: 3/3 (100%)") {
						t.Errorf("no progress lines on stderr:\n%s", r.stderr)
					}

					// Elicitation: answered from stdin (defaults taken), or declined.
					r = run("y\nAda\n"+strings.Repeat("\n", 20), "call", "trigger-elicitation-request")
					expect(t, r, exitOK)
					if !strings.Contains(r.stdout, `"action": "accept"`) || !strings.Contains(r.stdout, `"name": "Ada"`) || !strings.Contains(r.stdout, `"integer": 42`) {
						t.Errorf("elicitation answered: %s\nstderr:\n%s", r.stdout, r.stderr)
					}
					r = run("", "call", "trigger-elicitation-request", "--no-input")
					expect(t, r, exitOK)
					if !strings.Contains(r.stdout, `"action": "decline"`) {
						t.Errorf("elicitation declined: %s", r.stdout)
					}

					r = run("", "read", "demo://resource/static/document/features.md")
					expect(t, r, exitOK)
					if len(r.stdout) < 100 {
						t.Errorf("read: %q", r.stdout)
					}

					r = run("", "prompt", "args-prompt", "city=Paris")
					expect(t, r, exitOK)
					if !strings.Contains(r.stdout, "[user]") || !strings.Contains(r.stdout, "Paris") {
						t.Errorf("prompt: %q", r.stdout)
					}
					r = run("", "prompt", "args-prompt")
					expect(t, r, exitUsage)
					oneLineError(t, r, "missing required arguments: city")

					r = run("", "ping")
					expect(t, r, exitOK)
					if !strings.Contains(r.stdout, "answered in") {
						t.Errorf("ping: %q", r.stdout)
					}
				})
			}
		})
	}
}

// startEverythingHTTP starts the reference server in its Streamable HTTP
// mode on a free port and returns its endpoint; the test stops it.
func startEverythingHTTP(t *testing.T, node, index string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(node, index, "streamableHttp")
	cmd.Env = append(cmd.Environ(), fmt.Sprint("PORT=", port))
	stderr, err := cmd.StderrPipe()
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
	ready := make(chan error, 1)
	go func() { // ends when the server's stderr closes (it is killed above)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "listening on port") {
				ready <- nil
				break
			}
		}
		ready <- fmt.Errorf("the server ended before listening")
		io.Copy(io.Discard, stderr)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	select {
	case err := <-ready:
		if err != nil {
			t.Fatal(err)
		}
	case <-ctx.Done():
		t.Fatal("the reference server did not start listening within 30 s")
	}
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
}
