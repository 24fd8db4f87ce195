package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/spectest"
	"github.com/fastmcp-go/fastmcp/internal/testproc"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestMain lets the test binary play the demo's server: started again with
// the argument "serve" (as demo does with os.Executable), it runs main's
// server mode instead of the tests. That is much faster than building the
// command, and demo() itself works unchanged under test.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		main()
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// guard bounds waits for things that should happen at once; it is never
// used to synchronise.
const guard = 20 * time.Second

// serverCommand returns the command that runs the demo's server.
func serverCommand(t *testing.T) *transport.Command {
	t.Helper()
	return testproc.Command(t, []string{"serve"})
}

// mentionsField reports whether an error text names the argument field.
func mentionsField(text, field string) bool {
	return strings.Contains(text, field+":") || strings.Contains(text, `"`+field+`"`) || strings.Contains(text, "/"+field)
}

func textOf(res *fastmcp.ToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*fastmcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func TestServerOverStdio(t *testing.T) {
	t.Parallel()
	checkSchemas := spectest.Available(t)
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	var (
		mu   sync.Mutex
		logs []string
	)
	cl, err := client.ConnectCommand(ctx, serverCommand(t),
		client.WithInfo("hello-test", "1"),
		client.WithLogHandler(func(m *protocol.LoggingMessageParams) {
			mu.Lock()
			logs = append(logs, string(m.Level)+" "+string(m.Data))
			mu.Unlock()
		}))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()

	if info := cl.ServerInfo(); info.Name != "hello" || info.Version != "1.0.0" {
		t.Errorf("server info %+v", info)
	}

	t.Run("tools", func(t *testing.T) {
		var names []string
		for tool, err := range cl.Tools(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, tool.Name)
			var schema struct {
				Type       string                    `json:"type"`
				Properties map[string]jsontext.Value `json:"properties"`
			}
			if err := protocol.Unmarshal(tool.InputSchema, &schema); err != nil {
				t.Errorf("%s: input schema %s: %v", tool.Name, tool.InputSchema, err)
			}
			if schema.Type != "object" || len(schema.Properties) == 0 {
				t.Errorf("%s: input schema is not an object schema with properties: %s", tool.Name, tool.InputSchema)
			}
			if checkSchemas {
				spectest.Validate(t, cl.ProtocolVersion(), "Tool", must(protocol.Marshal(tool)))
			}
		}
		slices.Sort(names)
		if want := []string{"add", "countdown", "greet"}; !slices.Equal(names, want) {
			t.Errorf("tools %q, want %q", names, want)
		}
	})

	t.Run("add", func(t *testing.T) {
		res, err := cl.CallTool(ctx, "add", map[string]int{"a": 2, "b": 3})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError || textOf(res) != "5" {
			t.Errorf("add(2, 3) = %q (isError %v)", textOf(res), res.IsError)
		}
		var out struct {
			Result int `json:"result"`
		}
		if err := protocol.Unmarshal(res.StructuredContent, &out); err != nil || out.Result != 5 {
			t.Errorf("structured content %s (%v)", res.StructuredContent, err)
		}
	})

	t.Run("greet", func(t *testing.T) {
		for lang, want := range map[string]string{"": "Hello, Ada!", "fr": "Bonjour, Ada !", "de": "Hallo, Ada!"} {
			args := map[string]string{"name": "Ada"}
			if lang != "" {
				args["language"] = lang
			}
			res, err := cl.CallTool(ctx, "greet", args)
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError || textOf(res) != want {
				t.Errorf("greet(%q) = %q (isError %v), want %q", lang, textOf(res), res.IsError, want)
			}
		}
	})

	t.Run("countdown", func(t *testing.T) {
		var progress []*protocol.ProgressParams
		res, err := cl.CallTool(ctx, "countdown", map[string]int{"from": 3}, client.WithProgress(func(p *protocol.ProgressParams) {
			mu.Lock()
			progress = append(progress, p)
			mu.Unlock()
		}))
		if err != nil {
			t.Fatal(err)
		}
		var out Remaining
		if err := protocol.Unmarshal(res.StructuredContent, &out); err != nil || !out.Launched || out.Message != "liftoff" {
			t.Errorf("countdown result %s (%v)", res.StructuredContent, err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(progress) != 3 {
			t.Fatalf("%d progress notifications, want 3", len(progress))
		}
		for i, p := range progress {
			if p.Progress != float64(i+1) || p.Total != 3 {
				t.Errorf("progress #%d = %g/%g %q", i, p.Progress, p.Total, p.Message)
			}
		}
		if !slices.ContainsFunc(logs, func(l string) bool { return strings.HasPrefix(l, "info") && strings.Contains(l, "liftoff") }) {
			t.Errorf("no liftoff log in %q", logs)
		}
	})

	t.Run("bad arguments", func(t *testing.T) {
		res, err := cl.CallTool(ctx, "add", map[string]any{"a": "two", "b": -1})
		if err != nil {
			t.Fatalf("bad arguments should be a tool error the model can see, got %v", err)
		}
		text := textOf(res)
		if !res.IsError || !mentionsField(text, "a") || !mentionsField(text, "b") {
			t.Errorf("bad arguments: isError %v, text %q; want an error naming a and b", res.IsError, text)
		}
	})

	t.Run("unknown tool", func(t *testing.T) {
		res, err := cl.CallTool(ctx, "subtract", map[string]int{"a": 1})
		if err == nil && !res.IsError {
			t.Fatalf("unknown tool answered %+v", res)
		}
	})

	if err := cl.Ping(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestServerExitsWhenStdinCloses checks that the server exits with status 0
// as soon as its stdin is closed, before any signal is needed.
func TestServerExitsWhenStdinCloses(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	cmd := serverCommand(t)
	cmd.GracePeriod = time.Hour // a signal would come too late: the guard fails first
	proc, err := cmd.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := client.Connect(ctx, proc)
	if err != nil {
		proc.Close()
		t.Fatal(err)
	}
	if _, err := cl.CallTool(ctx, "add", map[string]int{"a": 1, "b": 1}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		cl.Close()           // closes the server's stdin and waits for the process
		done <- proc.Close() // reports how it ended
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("server ended with %v, want exit status 0", err)
		}
	case <-time.After(guard):
		if server, err := os.FindProcess(proc.Pid()); err == nil {
			server.Kill()
		}
		<-done
		t.Fatal("server did not exit after its stdin closed")
	}
}

// TestStdoutIsOnlyJSONRPC runs the server directly and checks that every
// line it writes to stdout is a JSON-RPC message valid for the negotiated
// revision, through a call that logs and reports progress.
func TestStdoutIsOnlyJSONRPC(t *testing.T) {
	t.Parallel()
	checkSchemas := spectest.Available(t)
	cmd := exec.Command(testproc.Self(t), "serve")
	cmd.Env = testproc.Env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan []byte)
	readErr := make(chan error, 1)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- bytes.Clone(sc.Bytes())
		}
		readErr <- sc.Err()
	}()
	const version = protocol.LatestLegacyVersion
	for _, l := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"countdown","arguments":{"from":2},"_meta":{"progressToken":"tok"}}}`,
	} {
		if _, err := io.WriteString(stdin, l+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	timeout := time.After(guard)
	var got []protocol.Message
	check := func(line []byte) {
		m, err := protocol.DecodeMessage(line)
		if err != nil {
			t.Errorf("stdout line is not a JSON-RPC message: %q (%v)", line, err)
			return
		}
		if checkSchemas {
			spectest.ValidateMessage(t, version, line)
		}
		got = append(got, m)
	}
	// Read until the countdown's response, then close stdin and read to EOF.
read:
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				break read
			}
			check(line)
			if r, isResp := got[len(got)-1].(*protocol.Response); isResp && r.ID == protocol.Int64ID(2) {
				stdin.Close()
			}
		case <-timeout:
			cmd.Process.Kill()
			for range lines {
			}
			cmd.Wait()
			t.Fatalf("timed out; got %d messages", len(got))
		}
	}
	if err := <-readErr; err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Fatalf("server exited with %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(guard):
		cmd.Process.Kill()
		<-waited
		t.Fatal("server did not exit after stdin closed")
	}
	var progress, logs int
	var result *protocol.Response
	for _, m := range got {
		switch m := m.(type) {
		case *protocol.Request:
			switch m.Method {
			case protocol.NotificationProgress:
				progress++
			case protocol.NotificationMessage:
				logs++
			}
		case *protocol.Response:
			if m.ID == protocol.Int64ID(2) {
				result = m
			}
		}
	}
	if progress != 2 || logs == 0 || result == nil || result.Error != nil {
		t.Fatalf("got %d progress notifications, %d log messages, countdown response %+v", progress, logs, result)
	}
}

// TestDemo runs the demo as `go run ./examples/hello` does and checks the
// lines that matter, leaving schema details free to change.
func TestDemo(t *testing.T) {
	// Not parallel: it swaps os.Stdout.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	copied := make(chan struct{})
	go func() {
		io.Copy(&out, r)
		r.Close()
		close(copied)
	}()
	stdout := os.Stdout
	os.Stdout = w
	err = demo(context.Background())
	os.Stdout = stdout
	w.Close()
	<-copied
	if err != nil {
		t.Fatalf("demo: %v\noutput:\n%s", err, out.String())
	}
	text := out.String()
	for _, want := range []string{
		"connected to hello 1.0.0 over stdio, protocol ",
		"instructions: A demo server: arithmetic, greetings and a countdown.\n",
		"\ntools:\n",
		"\n  add: Add two integers\n",
		"\n  countdown: Count down to liftoff, reporting progress\n",
		"\n  greet: Greet someone by name\n",
		"\ncall add {", // argument order varies: maps encode unsorted
		"\n  → result: 5\n",
		"\n    structured: {\"result\":5}\n",
		"\n  → result: Bonjour, Ada !\n",
		"\n    progress 1/3 2 to go\n",
		"\n    progress 2/3 1 to go\n",
		"\n    progress 3/3 0 to go\n",
		"\n    log [info] \"liftoff\"\n",
		"\n    structured: {\"launched\":true,\"message\":\"liftoff\"}\n",
		"\n  → error: ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	if n := strings.Count(text, "input schema:"); n != 3 {
		t.Errorf("%d input schemas shown, want 3", n)
	}
	line, _, _ := strings.Cut(text[strings.Index(text, "protocol "):], "\n")
	if v := strings.TrimPrefix(line, "protocol "); !protocol.IsSupported(v) {
		t.Errorf("demo negotiated %q, not a supported revision", v)
	}
	// The bad call's error names both fields.
	i := strings.Index(text, "  → error: ")
	if i < 0 {
		t.Fatalf("no error line in the demo output:\n%s", text)
	}
	line, _, _ = strings.Cut(text[i:], "\n")
	if !mentionsField(line, "a") || !mentionsField(line, "b") {
		t.Errorf("error line %q does not name both fields", line)
	}
	// Progress comes in order, before the countdown's result.
	p1, p3, res := strings.Index(text, "progress 1/3"), strings.Index(text, "progress 3/3"), strings.Index(text, `"launched":true`)
	if !(p1 < p3 && p3 < res) {
		t.Errorf("progress and result out of order:\n%s", text)
	}
	if t.Failed() {
		t.Logf("demo output:\n%s", text)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
