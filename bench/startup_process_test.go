package bench_test

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// BenchmarkStartup100Process measures startup as a client sees it: from
// starting the server process to its first tools/list answer (and its
// exit once its input ends), for a stdio server with the 100 tools of
// BenchmarkStartup100. The floor is internal/floor100, a hand-written loop
// that lists the tools from hand-written descriptors; fastmcp is
// internal/server100. Both are built with the go command first (off the
// clock), and both pay the same cost of starting a process and of the Go
// runtime. fastmcp reports time-vs-floor (the bar is 2).
func BenchmarkStartup100Process(b *testing.B) {
	bins := buildStartupPrograms(b)
	want := len(checkSameList(b))
	for _, name := range []string{"floor100", "server100"} {
		b.Run(map[string]string{"floor100": "floor", "server100": "fastmcp"}[name], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				startAndList(b, bins[name], want)
			}
			if name == "floor100" {
				recordFloor(b, "startup100/process")
			} else {
				reportTime(b, "startup100/process")
			}
		})
	}
}

// buildStartupPrograms builds the two programs into a temporary
// directory removed when the benchmark ends.
func buildStartupPrograms(b *testing.B) map[string]string {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		b.Skip("the go command is needed to build the startup programs")
	}
	dir := b.TempDir()
	bins := map[string]string{}
	for _, name := range []string{"floor100", "server100"} {
		out := filepath.Join(dir, name)
		if runtime.GOOS == "windows" {
			out += ".exe" // what Windows runs
		}
		cmd := exec.Command(goCmd, "build", "-o", out, "./internal/"+name)
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatal(&buildError{name, string(msg), err})
		}
		bins[name] = out
	}
	return bins
}

type buildError struct {
	name, output string
	err          error
}

func (e *buildError) Error() string {
	return "building " + e.name + ": " + e.err.Error() + "\n" + e.output
}

// startAndList starts bin, initializes it, lists its tools, checks the
// answer's size, closes its input and waits for it to exit.
func startAndList(b *testing.B, bin string, size int) {
	// A program that stops answering fails the benchmark instead of
	// hanging it: the context kills it.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	r := bufio.NewReaderSize(stdout, 256<<10)
	if _, err := io.WriteString(stdin, initializeRequest+"\n"+initializedNotification+"\n"); err != nil {
		b.Fatal(err)
	}
	if _, err := r.ReadSlice('\n'); err != nil {
		b.Fatal(err)
	}
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`+"\n"); err != nil {
		b.Fatal(err)
	}
	line, err := r.ReadSlice('\n')
	if err != nil {
		b.Fatal(err)
	}
	if want := len(`{"jsonrpc":"2.0","id":1,"result":}`) + size + 1; len(line) != want {
		b.Fatalf("%s: tools/list answer of %d bytes, want %d: %.200s", bin, len(line), want, line)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		b.Fatalf("%s: %v", bin, err)
	}
}
