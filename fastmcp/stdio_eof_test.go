package fastmcp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/testproc"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// eofScript is what a client pipes into a stdio server before closing its
// stdin: initialize, then calls (one of them takes a while and reports
// progress), with ids 1 to 6. Each must be answered before the server
// exits.
var eofScript = strings.Join([]string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{"ms":60},"_meta":{"progressToken":"p"}}}`,
	`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","arguments":{"ms":1}}}`,
	`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"nope","arguments":{}}}`,
}, "\n") + "\n"

const eofScriptAnswers = 6

// answeredIDs returns the ids of the responses in a server's output, and
// an error for a line that is not a JSON-RPC message.
func answeredIDs(out []byte) (map[string]int, error) {
	ids := map[string]int{}
	for line := range bytes.Lines(out) {
		m, err := protocol.DecodeMessage(bytes.TrimSpace(line))
		if err != nil {
			return ids, fmt.Errorf("line %.100q: %w", line, err)
		}
		if r, ok := m.(*protocol.Response); ok {
			ids[r.ID.String()]++
		}
	}
	return ids, nil
}

// TestStdioAnswersRequestsReadBeforeEOF pipes a script of requests into a
// real server process (ServeStdio, and Run), closing stdin right after, 100
// times each: end of input means "no more requests", so every request must
// be answered, and the answers flushed, before the process exits.
func TestStdioAnswersRequestsReadBeforeEOF(t *testing.T) {
	t.Parallel()
	self := testproc.Self(t)
	const runs, parallel = 100, 4
	for _, mode := range []string{"serve", "run"} {
		t.Run(mode, func(t *testing.T) {
			var (
				mu       sync.Mutex
				answered int
				failed   []string
			)
			sem := make(chan struct{}, parallel)
			var wg sync.WaitGroup
			for run := range runs {
				sem <- struct{}{}
				wg.Go(func() {
					defer func() { <-sem }()
					ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a guard against a hung server
					defer cancel()
					cmd := exec.CommandContext(ctx, self)
					cmd.Env = testproc.Env(append(os.Environ(), stdioServerEnv+"="+mode)...)
					cmd.Stdin = strings.NewReader(eofScript) // closed once written
					var stderr bytes.Buffer
					cmd.Stderr = &stderr
					out, err := cmd.Output()
					ids, perr := answeredIDs(out)
					mu.Lock()
					defer mu.Unlock()
					answered += len(ids)
					switch {
					case err != nil:
						failed = append(failed, fmt.Sprintf("run %d: %v: %s", run, err, stderr.Bytes()))
					case perr != nil:
						failed = append(failed, fmt.Sprintf("run %d: %v", run, perr))
					case len(ids) != eofScriptAnswers:
						failed = append(failed, fmt.Sprintf("run %d: %d answers of %d: %v", run, len(ids), eofScriptAnswers, ids))
					}
					for id, n := range ids {
						if n != 1 {
							failed = append(failed, fmt.Sprintf("run %d: id %s answered %d times", run, id, n))
						}
					}
				})
			}
			wg.Wait()
			t.Logf("%s: %d runs × %d requests: %d answers of %d", mode, runs, eofScriptAnswers, answered, runs*eofScriptAnswers)
			if len(failed) > 0 {
				t.Errorf("%d of %d runs lost answers; first: %s", len(failed), runs, strings.Join(failed[:min(5, len(failed))], "\n"))
			}
		})
	}
}

// TestStdioListenEndsAtEOF pipes a 2026-07-28 subscriptions/listen into a
// stdio server and closes stdin: the listen stream ends with its final
// result, as at shutdown, rather than holding the process up until the
// shutdown timeout cuts it off unanswered.
func TestStdioListenEndsAtEOF(t *testing.T) {
	t.Parallel()
	self := testproc.Self(t)
	meta := fmt.Sprintf(`"_meta":{%q:%q,%q:{}}`, protocol.MetaProtocolVersion, protocol.LatestVersion, protocol.MetaClientCapabilities)
	script := `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + meta + `}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{` + meta + `}}` + "\n"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, self)
	// A shutdown timeout longer than the guard: only an answer, not the
	// timeout, can end the listen stream in time.
	cmd.Env = testproc.Env(append(os.Environ(), stdioServerEnv+"=serve", "FASTMCP_SHUTDOWN_TIMEOUT=1m")...)
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("server: %v (output %q)", err, out)
	}
	ids, err := answeredIDs(out)
	if err != nil {
		t.Fatal(err)
	}
	if ids["1"] != 1 || ids["2"] != 1 {
		t.Fatalf("answers %v, want the listen's final result and tools/list; output %q", ids, out)
	}
}

// TestStdioProcessCloseWriteGetsAnswers talks to a real server subprocess
// through transport.Command: after writing the script it closes the
// server's stdin (Process.CloseWrite). The server answers every request it
// read and exits cleanly; the client reads each answer, then the end of
// output saying the server exited.
func TestStdioProcessCloseWriteGetsAnswers(t *testing.T) {
	t.Parallel()
	p, err := stdioServerCommand(t, "serve").Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for line := range strings.Lines(eofScript) {
		m, err := protocol.DecodeMessage([]byte(strings.TrimSpace(line)))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Write(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := p.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	ended := make(chan error, 1)
	go func() {
		for {
			m, err := p.Read(context.Background())
			if err != nil {
				ended <- err
				return
			}
			if r, ok := m.(*protocol.Response); ok {
				ids[r.ID.String()]++
			}
		}
	}()
	select {
	case err := <-ended:
		if !errors.Is(err, transport.ErrServerExited) || !strings.Contains(err.Error(), "exit status 0") {
			t.Errorf("Read at the end = %v, want ErrServerExited with exit status 0", err)
		}
	case <-time.After(30 * time.Second):
		p.Close() // ends the Read
		<-ended
		t.Fatal("the server did not end its output after its stdin was closed")
	}
	if len(ids) != eofScriptAnswers {
		t.Errorf("%d answers of %d: %v", len(ids), eofScriptAnswers, ids)
	}
	if err := p.Close(); err != nil {
		t.Errorf("Close = %v, want nil", err)
	}
}
