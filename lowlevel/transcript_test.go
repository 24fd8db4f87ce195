package lowlevel_test

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"golang.org/x/tools/txtar"

	"github.com/fastmcp-go/fastmcp/internal/spectest"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

var update = flag.Bool("update", false, "rewrite the server lines of the golden transcripts in testdata/transcripts")

// TestTranscripts replays the wire transcripts in testdata/transcripts
// against a lowlevel.Server served over a newline-delimited stream, as a
// stdio server is, and checks the server's lines byte for byte. Each server
// line must also be valid for the transcript's revision of the
// specification.
//
// A transcript is a txtar archive. Its comment describes it and names the
// revision spoken in a line "revision: 2025-11-25". Its file "wire" lists,
// in order:
//
//	# a comment
//	> a line the client sends
//	< a line the server is expected to send
//
// Lines are sent one at a time, and each is followed by the server lines it
// causes before the next is sent, so the order is deterministic: a request
// or an undecodable line gets one line back, a notification none. Run with
// -update to rewrite the server lines from what the server now sends.
func TestTranscripts(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "transcripts", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no transcripts found")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			runTranscript(t, file)
		})
	}
}

// transcriptServer is the server every transcript talks to: it declares
// tools and logging, lists one tool and can call it.
func transcriptServer() *lowlevel.Server {
	srv := lowlevel.NewServer(protocol.Implementation{Name: "transcript", Version: "1.0.0"}, &lowlevel.Options{
		Instructions: "Adds integers.",
		Logger:       slog.New(slog.DiscardHandler),
	})
	srv.SetCapabilities(protocol.ServerCapabilities{Tools: &protocol.ToolsCapability{}, Logging: &protocol.Capability{}})
	srv.HandleFunc(protocol.MethodToolsList, func(ctx context.Context, req *lowlevel.Request) (any, error) {
		return &protocol.ListToolsResult{Tools: []*protocol.Tool{{
			Name:        "add",
			Description: "Add two integers",
			InputSchema: jsontext.Value(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}`),
		}}}, nil
	})
	srv.HandleFunc(protocol.MethodToolsCall, func(ctx context.Context, req *lowlevel.Request) (any, error) {
		var p protocol.CallToolParams
		if err := protocol.Unmarshal(req.Params, &p); err != nil {
			return nil, fmt.Errorf("%w: %v", protocol.ErrInvalidParams, err)
		}
		if p.Name != "add" {
			return nil, fmt.Errorf("%w: unknown tool %q", protocol.ErrInvalidParams, p.Name)
		}
		var args struct {
			A int `json:"a"`
			B int `json:"b"`
		}
		if err := protocol.Unmarshal(p.Arguments, &args); err != nil {
			return &protocol.CallToolResult{IsError: true, Content: []protocol.Content{&protocol.TextContent{Text: "bad arguments: " + err.Error()}}}, nil
		}
		return &protocol.CallToolResult{Content: []protocol.Content{&protocol.TextContent{Text: strconv.Itoa(args.A + args.B)}}}, nil
	})
	return srv
}

// resultDefs names the schema definition of each method's result.
var resultDefs = map[string]string{
	protocol.MethodInitialize:      "InitializeResult",
	protocol.MethodPing:            "EmptyResult",
	protocol.MethodLoggingSetLevel: "EmptyResult",
	protocol.MethodToolsList:       "ListToolsResult",
	protocol.MethodToolsCall:       "CallToolResult",
	protocol.MethodServerDiscover:  "DiscoverResult",
}

func runTranscript(t *testing.T, file string) {
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

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var serveErr error
	stopped := make(chan struct{})
	go func() {
		serveErr = transcriptServer().ServeConn(context.Background(), transport.NewStream(inR, outW, nil))
		close(stopped)
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
		validateServerLine(t, revision, line, methods)
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
			for range answers(sent, methods) {
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
		t.Errorf("ServeConn = %v", serveErr)
	}

	if got.String() == string(wire.Data) {
		return
	}
	if *update {
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
// sent, and records the method of a request by id.
func answers(sent string, methods map[protocol.ID]string) int {
	m, err := protocol.DecodeMessage([]byte(sent))
	if err != nil {
		return 1 // an error response
	}
	if r, ok := m.(*protocol.Request); ok && r.IsCall() {
		methods[r.ID] = r.Method
		return 1
	}
	return 0
}

// validateServerLine checks a server line against the revision's schema:
// as a JSON-RPC message, and a result against its method's result type.
func validateServerLine(t *testing.T, revision, line string, methods map[protocol.ID]string) {
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
	if def := resultDefs[methods[r.ID]]; def != "" && spectest.Has(t, revision, def) {
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
