package transport_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/testproc"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// The helper process: the test binary started again with GO_WANT_HELPER set
// plays a server. Its modes:
//
//	echo            write back every line read from stdin; exit 0 at EOF
//	env             write one notification whose params list the environment, then drain stdin and exit 0
//	ignore-stdin    write a ready line, drain stdin, then linger (until SIGTERM)
//	ignore-sigterm  like ignore-stdin, but SIGTERM is ignored too (until SIGKILL)
//	exit            write a ready line and exit at once with status HELPER_EXIT
//
// HELPER_STDERR, when set, is written to stderr first.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv("GO_WANT_HELPER")
	if mode == "" {
		return // not the helper: nothing to test here
	}
	os.Exit(helper(mode))
}

const helperReady = `{"jsonrpc":"2.0","method":"ready"}` + "\n"

func helper(mode string) int {
	if s := os.Getenv("HELPER_STDERR"); s != "" {
		fmt.Fprintln(os.Stderr, s)
	}
	switch mode {
	case "echo":
		r := bufio.NewReaderSize(os.Stdin, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			os.Stdout.Write(line)
			if err != nil {
				return 0
			}
		}
	case "env":
		env, _ := protocol.Marshal(map[string][]string{"env": os.Environ()})
		fmt.Printf(`{"jsonrpc":"2.0","method":"env","params":%s}`+"\n", env)
		io.Copy(io.Discard, os.Stdin)
		return 0
	case "ignore-sigterm":
		signal.Ignore(syscall.SIGTERM)
		fallthrough
	case "ignore-stdin":
		os.Stdout.WriteString(helperReady)
		io.Copy(io.Discard, os.Stdin)
		time.Sleep(time.Hour) // a server that does not notice stdin closing
		return 0
	case "exit":
		os.Stdout.WriteString(helperReady)
		code, _ := strconv.Atoi(os.Getenv("HELPER_EXIT"))
		return code
	}
	fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
	return 2
}

// helperCommand returns a Command running the helper in mode, with extra
// KEY=VALUE environment entries.
func helperCommand(t *testing.T, mode string, env ...string) *transport.Command {
	t.Helper()
	return testproc.Command(t, []string{"-test.run=^TestHelperProcess$"}, append([]string{"GO_WANT_HELPER=" + mode}, env...)...)
}

func startHelper(t *testing.T, c *transport.Command) *transport.Process {
	t.Helper()
	p, err := c.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// readGuarded reads one message, failing the test if none comes.
func readGuarded(t *testing.T, c transport.Conn) protocol.Message {
	t.Helper()
	type res struct {
		m   protocol.Message
		err error
	}
	ch := make(chan res, 1)
	go func() {
		m, err := c.Read(context.Background())
		ch <- res{m, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("Read: %v", r.err)
		}
		return r.m
	case <-time.After(waitGuard):
		c.Close() // ends the Read above
		t.Fatal("no message from the server")
		return nil
	}
}

// closeTimed closes p, failing the test if that takes longer than waitGuard.
func closeTimed(t *testing.T, p *transport.Process) (time.Duration, error) {
	t.Helper()
	begin := time.Now()
	errc := make(chan error, 1)
	go func() { errc <- p.Close() }()
	select {
	case err := <-errc:
		return time.Since(begin), err
	case <-time.After(waitGuard):
		t.Fatal("Close did not return")
		return 0, nil
	}
}

// checkReaped checks that the process pid is gone: exited and waited for,
// so no zombie is left.
func checkReaped(t *testing.T, p *transport.Process) {
	t.Helper()
	select {
	case <-p.Exited():
	default:
		t.Fatal("Exited not closed after Close")
	}
	if err := processGone(p.Pid()); err != nil {
		t.Fatal(err)
	}
}

// signalOf returns the signal that ended p.
func signalOf(t *testing.T, p *transport.Process) syscall.Signal {
	t.Helper()
	ps := p.ProcessState()
	if ps == nil {
		t.Fatal("no ProcessState after Close")
	}
	ws := ps.Sys().(syscall.WaitStatus)
	if !ws.Signaled() {
		t.Fatalf("process was not killed by a signal: %v", ps)
	}
	return ws.Signal()
}

// TestCommandEnviron checks that the subprocess gets the default inherited
// variables with Command.Env merged over them, and nothing else from the
// parent's environment.
func TestCommandEnviron(t *testing.T) {
	requireUnixEnv(t)
	t.Setenv("FASTMCP_TEST_SECRET", "hunter2")
	t.Setenv("HOME", "/parent/home")
	t.Setenv("LANG", "C.UTF-8")
	t.Setenv("USER", "parent")

	c := helperCommand(t, "env", "HOME=/child/home", "EXTRA=1", "EXTRA=2=two", "LANG=")
	env := c.Environ()
	got := map[string]string{}
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			t.Fatalf("malformed entry %q", kv)
		}
		if _, dup := got[k]; dup {
			t.Fatalf("%s appears twice in %q", k, env)
		}
		got[k] = v
	}
	for k, want := range map[string]string{
		"HOME":           "/child/home", // Env wins
		"EXTRA":          "2=two",       // the last entry wins; values may hold '='
		"LANG":           "",            // set to empty, not inherited
		"USER":           "parent",      // inherited
		"PATH":           os.Getenv("PATH"),
		"GO_WANT_HELPER": "env",
	} {
		if v, ok := got[k]; !ok || v != want {
			t.Errorf("%s = %q (present %v), want %q", k, v, ok, want)
		}
	}
	for k := range got {
		if !slices.Contains(transport.DefaultInheritedEnv, k) && k != "EXTRA" && k != "GO_WANT_HELPER" && k != "GORACE" {
			t.Errorf("%s passed to the child, but it is neither inherited by default nor in Env", k)
		}
	}

	// The child sees exactly that environment.
	p := startHelper(t, c)
	m := readGuarded(t, p)
	var params struct {
		Env []string `json:"env"`
	}
	if err := protocol.Unmarshal(m.(*protocol.Request).Params, &params); err != nil {
		t.Fatal(err)
	}
	slices.Sort(params.Env)
	slices.Sort(env)
	if !slices.Equal(params.Env, env) {
		t.Errorf("child environment\n  %q\nwant\n  %q", params.Env, env)
	}
	for _, kv := range params.Env {
		if strings.Contains(kv, "hunter2") {
			t.Errorf("the parent's secret reached the child: %s", kv)
		}
	}
	if _, err := closeTimed(t, p); err != nil {
		t.Fatal(err)
	}
	checkReaped(t, p)
}

func TestCommandEcho(t *testing.T) {
	t.Parallel()
	p := startHelper(t, helperCommand(t, "echo"))
	ctx := context.Background()
	// A message larger than a pipe's buffer must be written while it is
	// read back.
	big := &protocol.Request{ID: protocol.Int64ID(1), Method: "big", Params: json.RawMessage(`{"pad":"` + strings.Repeat("p", 300_000) + `"}`)}
	errc := make(chan error, 1)
	go func() { errc <- p.Write(ctx, big) }()
	m := readGuarded(t, p)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if r := m.(*protocol.Request); r.Method != "big" || len(r.Params) != len(big.Params) {
		t.Fatalf("echo of the big message: %s, %d bytes", r.Method, len(r.Params))
	}
	for i := range 50 {
		want := &protocol.Request{ID: protocol.Int64ID(int64(i)), Method: "m"}
		if err := p.Write(ctx, want); err != nil {
			t.Fatal(err)
		}
		if got := readGuarded(t, p).(*protocol.Request); got.ID != want.ID {
			t.Fatalf("echo %d: id %v", i, got.ID)
		}
	}
}

func TestCommandStderr(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	c := helperCommand(t, "echo", "HELPER_STDERR=server is warming up")
	c.Stderr = &stderr
	p := startHelper(t, c)
	if err := p.Write(context.Background(), &protocol.Request{Method: "m"}); err != nil {
		t.Fatal(err)
	}
	readGuarded(t, p)
	if _, err := closeTimed(t, p); err != nil {
		t.Fatal(err)
	}
	// Close has waited for the process and for the copying of its stderr.
	if got := stderr.String(); got != "server is warming up\n" {
		t.Fatalf("stderr = %q", got)
	}
}

func TestCommandCloseWellBehaved(t *testing.T) {
	t.Parallel()
	c := helperCommand(t, "echo")
	c.GracePeriod = time.Minute // a SIGTERM would make the test time out
	p := startHelper(t, c)
	if err := p.Write(context.Background(), &protocol.Request{Method: "m"}); err != nil {
		t.Fatal(err)
	}
	readGuarded(t, p)
	if _, err := closeTimed(t, p); err != nil {
		t.Fatalf("Close = %v, want nil for a server that exits 0 when stdin closes", err)
	}
	checkReaped(t, p)
	if err := p.Write(context.Background(), &protocol.Request{Method: "m"}); !errors.Is(err, transport.ErrClosed) {
		t.Fatalf("Write after Close = %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("second Close = %v", err)
	}
}

func TestCommandCloseSendsSIGTERM(t *testing.T) {
	t.Parallel()
	requireSignals(t)
	const grace = 100 * time.Millisecond
	c := helperCommand(t, "ignore-stdin")
	c.GracePeriod = grace
	p := startHelper(t, c)
	readGuarded(t, p) // the helper is running
	took, err := closeTimed(t, p)
	if err != nil {
		t.Errorf("Close = %v, want nil: the SIGTERM Close sent is no failure of the server", err)
	}
	if sig := signalOf(t, p); sig != syscall.SIGTERM {
		t.Fatalf("killed by %v, want SIGTERM", sig)
	}
	if took < grace {
		t.Fatalf("SIGTERM after %v, before the %v grace period", took, grace)
	}
	checkReaped(t, p)
}

func TestCommandCloseSendsSIGKILL(t *testing.T) {
	t.Parallel()
	requireSignals(t)
	const grace = 100 * time.Millisecond
	c := helperCommand(t, "ignore-sigterm")
	c.GracePeriod = grace
	p := startHelper(t, c)
	readGuarded(t, p) // SIGTERM is ignored from here on
	took, err := closeTimed(t, p)
	if err != nil {
		t.Errorf("Close = %v, want nil: the SIGKILL Close sent is no failure of the server", err)
	}
	if sig := signalOf(t, p); sig != syscall.SIGKILL {
		t.Fatalf("killed by %v, want SIGKILL", sig)
	}
	if took < 2*grace {
		t.Fatalf("SIGKILL after %v, before two %v grace periods", took, grace)
	}
	checkReaped(t, p)
}

func TestCommandExitStatus(t *testing.T) {
	t.Parallel()
	p := startHelper(t, helperCommand(t, "exit", "HELPER_EXIT=3"))
	readGuarded(t, p)
	m, err := p.Read(context.Background())
	if !errors.Is(err, io.EOF) || !errors.Is(err, transport.ErrServerExited) || !strings.Contains(err.Error(), "server exited: exit status 3") {
		t.Fatalf("Read after the server exited = %v, %v; want io.EOF and ErrServerExited, saying exit status 3", m, err)
	}
	if ee, ok := errors.AsType[*exec.ExitError](err); !ok || ee.ExitCode() != 3 {
		t.Fatalf("Read error %v does not wrap the *exec.ExitError of status 3", err)
	}
	select {
	case <-p.Exited():
	case <-time.After(waitGuard):
		t.Fatal("Exited not closed after the server exited")
	}
	_, err = closeTimed(t, p)
	ee, ok := errors.AsType[*exec.ExitError](err)
	if !ok || ee.ExitCode() != 3 {
		t.Fatalf("Close = %v, want exit status 3", err)
	}
	checkReaped(t, p)
}

func TestCommandStartErrors(t *testing.T) {
	t.Parallel()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		cmd  *transport.Command
		ctx  context.Context
		is   error
	}{
		{"no path", &transport.Command{}, context.Background(), nil},
		{"missing program", &transport.Command{Path: "/nonexistent/fastmcp-server"}, context.Background(), os.ErrNotExist},
		{"not in PATH", &transport.Command{Path: "fastmcp-no-such-server"}, context.Background(), exec.ErrNotFound},
		{"cancelled", helperCommand(t, "echo"), cancelled, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := tt.cmd.Start(tt.ctx)
			if err == nil {
				p.Close()
				t.Fatal("Start succeeded")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("Start = %v, want an error matching %v", err, tt.is)
			}
		})
	}
}
