package fastmcptest

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// ServeFunc serves one connection until it ends, as (*fastmcp.Server).Serve
// and (*lowlevel.Server).ServeConn do.
type ServeFunc func(ctx context.Context, conn transport.Conn) error

// ReplayOptions adjust Replay and ReplayDir.
type ReplayOptions struct {
	// Update rewrites the server lines of each transcript from what the
	// server now sends instead of failing (set it from the test's -update
	// flag).
	Update bool
	// Check, if set, is called with each line the server sends, the
	// transcript's revision and the method of the request the line answers
	// ("" if it answers none), to check more than equality: that the line
	// is valid against the revision's schema, say.
	Check func(t testing.TB, revision, method string, line []byte)
}

// replyTimeout bounds the wait for each line the server owes.
const replyTimeout = 10 * time.Second

// ReplayDir replays every golden transcript (*.txtar) in dir against a
// server, each in a parallel subtest named after its file.
func ReplayDir(t *testing.T, dir string, serve ServeFunc, opts *ReplayOptions) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("fastmcptest: no transcripts found in %s", dir)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			Replay(t, file, serve, opts)
		})
	}
}

// Replay plays a golden transcript back against a server: it serves one
// connection with serve, over a newline-delimited stream as a stdio server
// is served, and sends the client lines ("> ") one at a time, each followed
// by the server lines it causes before the next is sent, so the order is
// deterministic: a request or an undecodable line gets one line back, a
// notification none. The server's lines must equal the transcript's "< "
// lines byte for byte. Unlike a recorded transcript, a replayed one may
// send what no client would: malformed JSON, unknown methods, bad params.
//
// Its comment must name the revision with a line "revision: 2026-07-28";
// the client lines must speak it (an initialize request first on a legacy
// revision). opts may be nil.
func Replay(t testing.TB, file string, serve ServeFunc, opts *ReplayOptions) {
	t.Helper()
	if opts == nil {
		opts = &ReplayOptions{}
	}
	g, err := readGolden(file)
	if err != nil {
		t.Fatalf("fastmcptest: %v", err)
	}
	revision := g.revision
	if !protocol.IsSupported(revision) {
		t.Fatalf("fastmcptest: %s: the comment must name a supported revision (\"revision: ...\"), got %q", file, revision)
	}

	rc := startReplay(serve)
	defer rc.close()
	inW, lines := rc.inW, rc.lines

	var got bytes.Buffer
	methods := map[protocol.ID]string{} // request id → method, for Check
	check := func(line string) {
		// go-json-experiment picks "cannot" or "unable to" at random once
		// per process for its error messages; transcripts say "cannot".
		line = strings.ReplaceAll(line, "json: unable to ", "json: cannot ")
		got.WriteString("< " + line + "\n")
		if opts.Check != nil {
			opts.Check(t, revision, answeredMethod(line, methods), []byte(line))
		}
	}
	var owed owed
	for line := range strings.Lines(string(g.wire.Data)) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(line, "< "):
			continue // expected output: replaced by what the server sends
		case strings.HasPrefix(line, "> "):
			got.WriteString(line + "\n")
			sent := strings.TrimPrefix(line, "> ")
			if _, err := io.WriteString(inW, sent+"\n"); err != nil {
				t.Fatalf("fastmcptest: sending %s: %v", sent, err)
			}
			owed.add(sent, revision, methods)
			awaitAnswers(t, lines, sent, &owed, check)
		default: // comments and blank lines
			got.WriteString(line + "\n")
		}
	}
	// Nothing else comes once the client hangs up.
	inW.Close()
	for l := range lines {
		check(l)
	}
	<-rc.stopped
	if rc.serveErr != nil {
		t.Errorf("fastmcptest: serving: %v", rc.serveErr)
	}

	if got.String() == string(g.wire.Data) {
		return
	}
	if opts.Update {
		if err := g.write(file, got.String()); err != nil {
			t.Fatalf("fastmcptest: %v", err)
		}
		t.Logf("fastmcptest: updated %s", file)
		return
	}
	t.Errorf("fastmcptest: %s: the server's lines differ (run with -update to accept):\n%s", file, lineDiff(string(g.wire.Data), got.String()))
}

// replayConn is the connection Replay serves: the client's side of a
// newline-delimited stream, and the server's lines one at a time.
type replayConn struct {
	inW      *io.PipeWriter
	outR     *io.PipeReader
	lines    chan string   // the server's lines; closed when its output ends
	stopped  chan struct{} // closed when serve returned, with serveErr set
	serveErr error
}

// startReplay serves a new stream with serve, and reads its lines.
func startReplay(serve ServeFunc) *replayConn {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	rc := &replayConn{inW: inW, outR: outR, lines: make(chan string), stopped: make(chan struct{})}
	go func() {
		defer close(rc.stopped)
		rc.serveErr = serve(context.Background(), transport.NewStream(inR, outW, nil))
	}()
	go func() {
		defer close(rc.lines)
		r := bufio.NewReader(outR)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				return
			}
			rc.lines <- strings.TrimSuffix(l, "\n")
		}
	}()
	return rc
}

// close hangs up and waits for both goroutines to end.
func (rc *replayConn) close() {
	rc.inW.Close()
	rc.outR.Close()
	for range rc.lines {
	}
	<-rc.stopped
}

// awaitAnswers reads the server's lines after the client line sent until
// the server has answered everything owed, or asks the client something
// (the next client line answers it), passing each to check.
func awaitAnswers(t testing.TB, lines <-chan string, sent string, o *owed, check func(string)) {
	t.Helper()
	for !o.none() {
		var l string
		select {
		case next, ok := <-lines:
			if !ok {
				t.Fatalf("fastmcptest: the server closed its output after %s", sent)
			}
			l = next
		case <-time.After(replyTimeout):
			t.Fatalf("fastmcptest: no answer to %s within %v", sent, replyTimeout)
		}
		check(l)
		if o.got(l) {
			return
		}
	}
}

// owed is what the server still owes the client lines sent so far: the
// responses to requests, by id, and a number of lines answering messages
// whose id cannot be known (undecodable lines, batches).
type owed struct {
	ids  map[protocol.ID]bool
	anon int
}

func (o *owed) none() bool { return len(o.ids) == 0 && o.anon == 0 }

// add notes the answers owed for the client line sent, on revision, and
// records the method of each request by id.
func (o *owed) add(sent, revision string, methods map[protocol.ID]string) {
	if o.ids == nil {
		o.ids = map[protocol.ID]bool{}
	}
	m, err := protocol.DecodeMessage([]byte(sent))
	if err != nil {
		o.anon++ // an error response
		return
	}
	switch m := m.(type) {
	case *protocol.Request:
		if m.IsCall() {
			methods[m.ID] = m.Method
			o.ids[m.ID] = true
		}
	case *protocol.Batch:
		if !protocol.HasBatches(revision) {
			o.anon++ // refused
			return
		}
		calls := len(m.Invalid)
		for _, e := range m.Messages {
			if r, ok := e.(*protocol.Request); ok && r.IsCall() {
				methods[r.ID] = r.Method
				calls++
			}
		}
		if calls > 0 {
			o.anon++ // one array of responses
		}
	}
}

// got notes a line the server sent. It reports whether the client must
// send its next line before more can come: the line is a request to the
// client.
func (o *owed) got(line string) (clientsTurn bool) {
	m, err := protocol.DecodeMessage([]byte(line))
	if err != nil {
		o.anon = max(o.anon-1, 0)
		return false
	}
	switch m := m.(type) {
	case *protocol.Response:
		if o.ids[m.ID] {
			delete(o.ids, m.ID)
		} else {
			o.anon = max(o.anon-1, 0)
		}
	case *protocol.Batch:
		o.anon = max(o.anon-1, 0)
	case *protocol.Request:
		return m.IsCall()
	}
	return false
}

// answeredMethod returns the method of the request a server line answers,
// "" if it answers none.
func answeredMethod(line string, methods map[protocol.ID]string) string {
	m, err := protocol.DecodeMessage([]byte(line))
	if err != nil {
		return ""
	}
	if r, ok := m.(*protocol.Response); ok {
		return methods[r.ID]
	}
	return ""
}
