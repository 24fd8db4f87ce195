package nodepeers

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// A Command is a Node.js peer for Start to run.
type Command struct {
	// Name names the peer in the test's messages ("prism").
	Name string
	// Args are node's arguments: the script and its own.
	Args []string
	// Line sees each line the peer prints (stdout and stderr), in order,
	// and returns, once the line says the peer serves, what Start returns
	// (its URL, say); "" until then. Start calls it from one goroutine.
	Line func(line string) (ready string)
	// Kill stops the peer by killing it, for peers with no graceful stop;
	// otherwise its stdin is closed and it gets ten seconds to exit.
	Kill bool
}

// A Process is a peer Start runs until the test ends.
type Process struct {
	mu  sync.Mutex
	log strings.Builder
}

// Output returns everything the peer printed so far.
func (p *Process) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

// Start runs c with the peers' node and stops it when the test ends,
// logging its output if the test failed. It returns what c.Line reported
// once the peer was ready; it fails the test when the peer exits first or
// is not ready within a minute.
func (p Peers) Start(t testing.TB, c Command) (*Process, string) {
	t.Helper()
	proc := &Process{}
	cmd := exec.Command(p.Node, c.Args...)
	stdin, err := cmd.StdinPipe() // closing it stops a peer that watches it
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan string, 1)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			proc.mu.Lock()
			proc.log.WriteString(line + "\n")
			proc.mu.Unlock()
			if r := c.Line(line); r != "" {
				select {
				case ready <- r:
				default:
				}
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	t.Cleanup(func() {
		stdin.Close()
		if c.Kill {
			cmd.Process.Kill()
		}
		done := make(chan struct{})
		go func() {
			<-copied
			cmd.Wait()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("%s's output:\n%s", c.Name, proc.Output())
		}
	})
	select {
	case r := <-ready:
		return proc, r
	case <-copied:
		t.Fatalf("%s exited before it was ready:\n%s", c.Name, proc.Output())
	case <-time.After(60 * time.Second):
		t.Fatalf("%s was not ready after a minute:\n%s", c.Name, proc.Output())
	}
	return nil, ""
}
