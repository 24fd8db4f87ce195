package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// proc is one running server process. Its stdin and stdout are pipes the
// driver owns (nil for an HTTP server); the last bytes of its stderr are
// kept for error messages.
type proc struct {
	name   string
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *bufio.Reader
	outR   *os.File
	stderr tail
	exited chan struct{} // closed when the process has exited and been reaped
	err    error         // Wait's error, read after exited
}

// live are the processes not yet reaped, killed by killAll on the way out;
// after killAll no process starts.
var live = struct {
	sync.Mutex
	m      map[*proc]struct{}
	closed bool
}{m: map[*proc]struct{}{}}

// errStopped is start's error after killAll.
var errStopped = errors.New("the driver is stopping")

// start runs bin with args; with pipes set, its stdin and stdout are
// connected to the driver.
func start(name, bin string, pipes bool, args ...string) (*proc, error) {
	p := &proc{name: name, cmd: exec.Command(bin, args...), exited: make(chan struct{})}
	p.cmd.Stderr = &p.stderr
	p.cmd.SysProcAttr = sysProcAttr()
	var inR, outW *os.File
	if pipes {
		var err error
		if inR, p.stdin, err = os.Pipe(); err != nil {
			return nil, fmt.Errorf("pipe: %w", err)
		}
		if p.outR, outW, err = os.Pipe(); err != nil {
			inR.Close()
			p.stdin.Close()
			return nil, fmt.Errorf("pipe: %w", err)
		}
		p.cmd.Stdin, p.cmd.Stdout = inR, outW
		p.stdout = bufio.NewReaderSize(p.outR, 64<<10)
	}
	live.Lock()
	err := errStopped
	if !live.closed {
		err = p.cmd.Start()
	}
	if err == nil {
		live.m[p] = struct{}{}
	}
	live.Unlock()
	if pipes {
		inR.Close() // the child has its own copies
		outW.Close()
	}
	if err != nil {
		p.closePipes()
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	// The reaper: it exits when the process does, which stop and kill ensure.
	go func() {
		p.err = p.cmd.Wait()
		live.Lock()
		delete(live.m, p)
		live.Unlock()
		close(p.exited)
	}()
	return p, nil
}

func (p *proc) closePipes() {
	if p.stdin != nil {
		p.stdin.Close()
	}
	if p.outR != nil {
		p.outR.Close()
	}
}

// stop ends the process: it closes stdin (the end of a stdio session),
// waits briefly for a clean exit, then kills it. It returns the process's
// peak resident set in bytes.
func (p *proc) stop() int64 {
	if p.stdin != nil {
		p.stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(2 * time.Second):
		}
	}
	return p.kill()
}

// kill kills the process if it still runs, reaps it and returns its peak
// resident set in bytes.
func (p *proc) kill() int64 {
	select {
	case <-p.exited:
	default:
		p.cmd.Process.Kill()
		<-p.exited
	}
	p.closePipes()
	return maxRSS(p.cmd.ProcessState)
}

// failed wraps err with the process's name and the end of its stderr.
func (p *proc) failed(err error) error {
	if s := p.stderr.String(); s != "" {
		return fmt.Errorf("%s: %w (stderr: %s)", p.name, err, s)
	}
	return fmt.Errorf("%s: %w", p.name, err)
}

// killAll kills every process still running, and any started later.
func killAll() {
	live.Lock()
	defer live.Unlock()
	live.closed = true
	for p := range live.m {
		p.cmd.Process.Kill()
	}
}

// tail keeps the last bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 2 << 10

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > tailSize {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailSize:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
