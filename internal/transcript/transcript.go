// Package transcript replays golden wire transcripts against a server, for
// the tests of the packages that serve MCP (lowlevel, fastmcp).
//
// A transcript is a txtar archive. Its comment describes it and names the
// revision spoken in a line "revision: 2025-11-25". Its file "wire" lists,
// in order:
//
//	# a comment
//	> a line the client sends
//	< a line the server is expected to send
//
// Lines are sent one at a time over a newline-delimited stream, as a stdio
// server is served, and each is followed by the server lines it causes
// before the next is sent, so the order is deterministic: a request or an
// undecodable line gets one line back, a notification none. The server's
// lines must match byte for byte, and each must be valid for the
// transcript's revision of the specification: as a JSON-RPC message, and a
// result against its method's result type.
package transcript

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/fastmcp-go/fastmcp/internal/spectest"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// Config says how to replay the transcripts of a directory.
type Config struct {
	// Serve serves one connection until it ends.
	Serve func(ctx context.Context, conn transport.Conn) error
	// Results names the schema definition of each method's result, for
	// checking results (methods not named are checked as messages only).
	Results map[string]string
	// Update rewrites the server lines of each transcript from what the
	// server now sends instead of failing (the -update flag of the tests).
	Update bool
}

// RunDir replays every transcript (*.txtar) in dir as a parallel subtest.
func RunDir(t *testing.T, dir string, c Config) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no transcripts found in %s", dir)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			Replay(t, file, c)
		})
	}
}

// Replay replays one transcript.
func Replay(t *testing.T, file string, c Config) {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var revision string
	for line := range strings.Lines(string(ar.Comment)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "revision:"); ok {
			revision = strings.TrimSpace(v)
		}
	}
	if !protocol.IsSupported(revision) {
		t.Fatalf("%s: the comment must name a supported revision (\"revision: ...\"), got %q", file, revision)
	}
	var wire *txtar.File
	for i := range ar.Files {
		if ar.Files[i].Name == "wire" {
			wire = &ar.Files[i]
		}
	}
	if wire == nil {
		t.Fatalf("%s has no wire file", file)
	}

	// Without the MCP schemas (a fresh clone) the lines are still compared
	// byte for byte; decided here, before anything is started.
	schemas := spectest.Available(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var serveErr error
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		serveErr = c.Serve(context.Background(), transport.NewStream(inR, outW, nil))
	}()
	lines := make(chan string)
	go func() {
		defer close(lines)
		r := bufio.NewReader(outR)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				return
			}
			lines <- strings.TrimSuffix(l, "\n")
		}
	}()
	defer func() {
		inW.Close()
		outR.Close()
		for range lines {
		}
		<-stopped
	}()

	var got bytes.Buffer
	methods := map[protocol.ID]string{} // request id → method, to check results
	check := func(line string) {
		// go-json-experiment picks "cannot" or "unable to" at random once
		// per process for its error messages; the transcripts say "cannot".
		line = strings.ReplaceAll(line, "json: unable to ", "json: cannot ")
		got.WriteString("< " + line + "\n")
		if schemas {
			validateServerLine(t, revision, line, methods, c.Results)
		}
	}
	for line := range strings.Lines(string(wire.Data)) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(line, "< "):
			continue // expected output: replaced by what the server sends
		case strings.HasPrefix(line, "> "):
			got.WriteString(line + "\n")
			sent := strings.TrimPrefix(line, "> ")
			if _, err := io.WriteString(inW, sent+"\n"); err != nil {
				t.Fatalf("sending %s: %v", sent, err)
			}
			for range answers(sent, revision, methods) {
				select {
				case l, ok := <-lines:
					if !ok {
						t.Fatalf("the server closed its output after %s", sent)
					}
					check(l)
				case <-time.After(10 * time.Second):
					t.Fatalf("no answer to %s", sent)
				}
			}
		default: // comments and blank lines
			got.WriteString(line + "\n")
		}
	}
	// Nothing else comes once the client hangs up.
	inW.Close()
	for l := range lines {
		check(l)
	}
	<-stopped
	if serveErr != nil {
		t.Errorf("serving: %v", serveErr)
	}

	if got.String() == string(wire.Data) {
		return
	}
	if c.Update {
		wire.Data = got.Bytes()
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("updated %s", file)
		return
	}
	t.Errorf("%s: the server's lines differ (run with -update to accept):\n%s", file, lineDiff(string(wire.Data), got.String()))
}

// answers returns how many lines the server sends back for the client line
// sent, on revision, and records the method of a request by id.
func answers(sent, revision string, methods map[protocol.ID]string) int {
	m, err := protocol.DecodeMessage([]byte(sent))
	if err != nil {
		return 1 // an error response
	}
	switch m := m.(type) {
	case *protocol.Request:
		if m.IsCall() {
			methods[m.ID] = m.Method
			return 1
		}
	case *protocol.Batch:
		if revision != protocol.BatchVersion {
			return 1 // refused
		}
		n := len(m.Invalid)
		for _, e := range m.Messages {
			n += answers(string(mustEncode(e)), revision, methods)
		}
		return min(n, 1) // one array of responses, or nothing
	}
	return 0
}

func mustEncode(m protocol.Message) []byte {
	b, err := protocol.EncodeMessage(m)
	if err != nil {
		panic(err)
	}
	return b
}

// validateServerLine checks a server line against the revision's schema:
// as a JSON-RPC message, and a result against its method's result type.
func validateServerLine(t *testing.T, revision, line string, methods map[protocol.ID]string, results map[string]string) {
	t.Helper()
	data := []byte(line)
	// JSON-RPC 2.0 requires "id":null in the answer to a message whose id
	// could not be read; the MCP schemas instead make the id optional (from
	// 2025-11-25) or require a string or integer. Validate the rest.
	if rest, ok := strings.CutPrefix(line, `{"jsonrpc":"2.0","id":null,`); ok {
		data = []byte(`{"jsonrpc":"2.0",` + rest)
	}
	spectest.ValidateMessage(t, revision, data)
	m, err := protocol.DecodeMessage([]byte(line))
	if err != nil {
		t.Errorf("server line does not decode: %v\n%s", err, line)
		return
	}
	r, ok := m.(*protocol.Response)
	if !ok || r.Error != nil {
		return
	}
	if def := results[methods[r.ID]]; def != "" && spectest.Has(t, revision, def) {
		spectest.Validate(t, revision, def, r.Result)
	}
}

// lineDiff shows the lines of want and got that differ, by position.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %s\n  got  %s\n", i+1, wl, gl)
		}
	}
	return b.String()
}
