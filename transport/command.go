package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// DefaultInheritedEnv lists the environment variables a server subprocess
// inherits from the parent when Command.Env does not replace them. Passing
// only these (rather than the whole environment) keeps secrets in the
// parent's environment away from servers that do not need them. On Unix
// systems they are HOME, LOGNAME, PATH, SHELL, TERM, USER, LANG and TMPDIR;
// on Windows APPDATA, HOMEDRIVE, HOMEPATH, LOCALAPPDATA, PATH, PATHEXT,
// PROCESSOR_ARCHITECTURE, PROGRAMFILES, SYSTEMDRIVE, SYSTEMROOT, TEMP, TMP,
// USERNAME and USERPROFILE (names compared without case there).
var DefaultInheritedEnv = defaultInheritedEnv

// Command describes an MCP server to start as a subprocess and talk to over
// its standard input and output (the client side of the stdio transport).
type Command struct {
	// Path is the program to run; a name without a slash is looked up in PATH.
	Path string
	// Args are the arguments, not including the program name.
	Args []string
	// Env holds KEY=VALUE entries merged over the variables of
	// DefaultInheritedEnv taken from the parent's environment.
	Env []string
	// Dir is the working directory; empty means the parent's.
	Dir string
	// Stderr receives the server's standard error. Nil means os.Stderr.
	Stderr io.Writer
	// GracePeriod is how long Close waits after closing the server's stdin
	// before sending SIGTERM, and again before SIGKILL. On Windows, which
	// has no SIGTERM, Close kills the process once the first grace period
	// has passed. Zero means 2 seconds.
	GracePeriod time.Duration
	// MaxMessageSize limits each message read from the server. Zero means
	// DefaultClientMaxMessageSize (64 MiB). A message over it fails the call
	// it answers with an error matching ErrMessageTooLarge.
	MaxMessageSize int
}

// Environ returns the environment the subprocess gets.
func (c *Command) Environ() []string {
	env := map[string]string{}
	var order []string
	names := map[string]string{} // envKey -> the first spelling seen
	set := func(k, v string) {
		if n, ok := names[envKey(k)]; ok {
			k = n
		} else {
			names[envKey(k)] = k
			order = append(order, k)
		}
		env[k] = v
	}
	for _, k := range DefaultInheritedEnv {
		if v, ok := os.LookupEnv(k); ok {
			set(k, v)
		}
	}
	for _, kv := range c.Env {
		k, v, _ := strings.Cut(kv, "=")
		set(k, v)
	}
	out := make([]string, 0, len(order))
	for _, k := range order {
		out = append(out, k+"="+env[k])
	}
	return out
}

// Start starts the server process and returns a Conn to it. Cancelling ctx
// after Start returns has no effect; Close the Conn to stop the server.
//
// The Conn starts one goroutine that waits for the process to exit; Close
// stops the process (closing its stdin, then SIGTERM, then SIGKILL, each after
// the grace period; see Command.GracePeriod for Windows) and returns after
// that goroutine has exited, so no zombie or goroutine is left behind.
func (c *Command) Start(ctx context.Context) (*Process, error) {
	if c.Path == "" {
		return nil, errors.New("transport: Command.Path is empty")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env = c.Environ()
	cmd.Dir = c.Dir
	cmd.Stderr = c.Stderr
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("transport: %w", err)
	}
	// Our own pipe for stdout: exec's StdoutPipe would be closed by Wait,
	// possibly before the last messages were read.
	stdout, pw, err := os.Pipe()
	if err != nil {
		stdin.Close()
		return nil, fmt.Errorf("transport: %w", err)
	}
	cmd.Stdout = pw
	err = cmd.Start()
	pw.Close() // the child has its copy
	if err != nil {
		stdin.Close()
		stdout.Close()
		return nil, fmt.Errorf("transport: starting %s: %w", c.Path, err)
	}
	grace := c.GracePeriod
	if grace <= 0 {
		grace = 2 * time.Second
	}
	p := &Process{
		Stream: NewStream(stdout, stdin, &StreamOptions{MaxMessageSize: orInt(c.MaxMessageSize, DefaultClientMaxMessageSize)}),
		cmd:    cmd,
		stdin:  stdin,
		grace:  grace,
		exited: make(chan struct{}),
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// Process is a Conn to a server subprocess started by Command.Start.
type Process struct {
	*Stream
	cmd     *exec.Cmd
	stdin   io.Closer
	grace   time.Duration
	exited  chan struct{}
	waitErr error

	closeOnce sync.Once
	closeErr  error
}

// Pid returns the process id of the server.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Exited returns a channel closed when the server process has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// ProcessState returns how the server process ended (exit status or
// signal), or nil while it runs.
func (p *Process) ProcessState() *os.ProcessState {
	select {
	case <-p.exited:
		return p.cmd.ProcessState
	default:
		return nil
	}
}

// ErrServerExited is matched (errors.Is) by the error Read returns at the
// end of the server's output once the server process has exited, and so by
// the errors of the calls that were waiting for it.
var ErrServerExited = errors.New("transport: server exited")

// exitError is the end of a server's output once the server has exited:
// it says how, and matches ErrServerExited, io.EOF and, for a failed
// server, its *exec.ExitError.
type exitError struct {
	state string // "exit status 3", "signal: killed"
	err   error  // what cmd.Wait reported; nil for a clean exit
}

func (e *exitError) Error() string { return "transport: server exited: " + e.state }

func (e *exitError) Unwrap() []error {
	errs := []error{ErrServerExited, io.EOF}
	if e.err != nil {
		errs = append(errs, e.err)
	}
	return errs
}

// Read returns the next message from the server. When the server's output
// ends, Read waits (up to the grace period) for the process to exit and
// returns an error that says how it exited, such as "transport: server
// exited: exit status 3", matching ErrServerExited and io.EOF (and, for a
// failed server, wrapping its *exec.ExitError); a server that closed its
// output but runs on gives io.EOF.
func (p *Process) Read(ctx context.Context) (protocol.Message, error) {
	m, err := p.Stream.Read(ctx)
	if err == nil || !errors.Is(err, io.EOF) {
		return m, err
	}
	t := time.NewTimer(p.grace)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
		return nil, err
	case <-p.Stream.closed:
		return nil, ErrClosed
	}
	if p.cmd.ProcessState == nil {
		return nil, &exitError{state: p.waitErr.Error(), err: p.waitErr} // Wait failed
	}
	return nil, &exitError{state: p.cmd.ProcessState.String(), err: p.waitErr}
}

// CloseWrite closes the server's stdin, which tells a server that no more
// requests come: an MCP server answers the requests it read and exits.
// Reading goes on: Read returns the server's last messages, then the end of
// its output (an error matching ErrServerExited once it has exited). Writes
// fail from then on. Close still has to be called.
func (p *Process) CloseWrite() error {
	return p.stdin.Close()
}

// Close stops the server: it closes the server's stdin and waits up to the
// grace period for it to exit, then sends SIGTERM and waits again, then sends
// SIGKILL. It returns once the process has been reaped. The error reports how
// the process ended when it failed on its own (exited with a non-zero status
// or was killed before, or within the grace period after, stdin was closed);
// a server ended by the signals Close sent gives nil.
func (p *Process) Close() error {
	p.closeOnce.Do(func() {
		p.stdin.Close()
		t := time.NewTimer(p.grace)
		defer t.Stop()
		signalled := false // the server ignored the end of its input: we end it
		select {
		case <-p.exited:
		case <-t.C:
			signalled = true
			t.Reset(terminate(p.cmd.Process, p.grace))
			select {
			case <-p.exited:
			case <-t.C:
				_ = p.cmd.Process.Kill()
				<-p.exited
			}
		}
		p.Stream.Close()
		var ee *exec.ExitError
		switch {
		case p.waitErr != nil && !errors.As(p.waitErr, &ee):
			p.closeErr = p.waitErr
		case signalled:
			// However it ended after the signals Close sent, that is
			// Close's doing, not the server's failure.
		case ee != nil && !ee.Success():
			p.closeErr = fmt.Errorf("transport: server exited: %w", ee)
		}
	})
	return p.closeErr
}

// orInt returns n, or def when n is not positive.
func orInt(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}
