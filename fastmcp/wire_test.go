package fastmcp_test

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/spectest"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

var update = flag.Bool("update", false, "rewrite the server lines of the golden transcripts in testdata/wire")

// wireServer is the server the transcripts in testdata/wire talk to: a few
// resources, a resource template, and prompts with completion.
func wireServer() *fastmcp.Server {
	s := fastmcp.New("wire", "1.0.0", fastmcp.Logger(quietLogger))
	s.Resource("docs://readme", func() string { return "Read me first." },
		fastmcp.Name("readme"), fastmcp.Title("README"), fastmcp.Description("The project's README"))
	s.Resource("docs://logo", func() []byte { return pngHeader }, fastmcp.Name("logo"), fastmcp.Size(int64(len(pngHeader))))
	s.Resource("users://profiles/{id}", func(in UserRef) (UserProfile, error) {
		return UserProfile{ID: in.ID, Name: fmt.Sprint("user ", in.ID)}, nil
	}, fastmcp.Name("profile"), fastmcp.Description("A user's profile"), fastmcp.MIMEType("application/json"),
		fastmcp.CompleteArg("id", fastmcp.Choices("1", "2", "42")))
	s.Prompt("review", func(in ReviewArgs) string {
		return fmt.Sprintf("Review this %s code:\n%s", in.Language, in.Code)
	}, fastmcp.Title("Code review"), fastmcp.Description("Review code"),
		fastmcp.CompleteArg("language", fastmcp.Choices("go", "python", "rust")))
	s.Prompt("describe_image", func() []fastmcp.PromptMessage {
		return []fastmcp.PromptMessage{
			fastmcp.UserMessage(fastmcp.Image(pngHeader, "image/png")),
			fastmcp.UserMessage(fastmcp.EmbeddedText("docs://readme", "text/plain", "Read me first.")),
			fastmcp.UserMessage(fastmcp.Text("Describe the image above.")),
		}
	})
	return s
}

// wireResults names the schema definition of each method's result.
var wireResults = map[string]string{
	protocol.MethodInitialize:             "InitializeResult",
	protocol.MethodServerDiscover:         "DiscoverResult",
	protocol.MethodResourcesList:          "ListResourcesResult",
	protocol.MethodResourcesTemplatesList: "ListResourceTemplatesResult",
	protocol.MethodResourcesRead:          "ReadResourceResult",
	protocol.MethodResourcesSubscribe:     "EmptyResult",
	protocol.MethodResourcesUnsubscribe:   "EmptyResult",
	protocol.MethodPromptsList:            "ListPromptsResult",
	protocol.MethodPromptsGet:             "GetPromptResult",
	protocol.MethodCompletionComplete:     "CompleteResult",
	protocol.MethodLoggingSetLevel:        "EmptyResult",
}

// TestWireTranscripts replays the transcripts in testdata/wire against
// wireServer over a newline-delimited stream, as a stdio server is served,
// and checks the server's lines byte for byte; each must also be valid for
// the transcript's revision of the specification.
//
// A transcript is a txtar archive whose comment names its revision in a
// line "revision: 2025-11-25" and whose file "wire" lists "> " lines the
// client sends, "< " lines the server is expected to send, and "# "
// comments. Each client line is followed by the server's answer before the
// next is sent, so the order is deterministic. Run with -update to rewrite
// the server lines from what the server now sends.
func TestWireTranscripts(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "wire", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no transcripts found")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			replay(t, file)
		})
	}
}

func replay(t *testing.T, file string) {
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
		defer close(stopped)
		serveErr = wireServer().Serve(context.Background(), transport.NewStream(inR, outW, nil))
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
	methods := map[protocol.ID]string{}
	for line := range strings.Lines(string(wire.Data)) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(line, "< "):
			continue // replaced by what the server sends
		case strings.HasPrefix(line, "> "):
			got.WriteString(line + "\n")
			sent := strings.TrimPrefix(line, "> ")
			if _, err := io.WriteString(inW, sent+"\n"); err != nil {
				t.Fatalf("sending %s: %v", sent, err)
			}
			m, err := protocol.DecodeMessage([]byte(sent))
			if err != nil {
				t.Fatalf("%s: a client line does not decode: %v", file, err)
			}
			req, ok := m.(*protocol.Request)
			if !ok || !req.IsCall() {
				continue // a notification gets no answer
			}
			methods[req.ID] = req.Method
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the server closed its output after %s", sent)
				}
				got.WriteString("< " + l + "\n")
				checkWireLine(t, revision, l, methods)
			case <-time.After(10 * time.Second):
				t.Fatalf("no answer to %s", sent)
			}
		default:
			got.WriteString(line + "\n")
		}
	}
	inW.Close()
	for l := range lines {
		t.Errorf("unexpected server line after the transcript: %s", l)
	}
	<-stopped
	if serveErr != nil {
		t.Errorf("Serve = %v", serveErr)
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
	want := strings.Split(string(wire.Data), "\n")
	for i, g := range strings.Split(got.String(), "\n") {
		if i >= len(want) || want[i] != g {
			w := ""
			if i < len(want) {
				w = want[i]
			}
			t.Errorf("%s line %d (run with -update to accept):\n  want %s\n  got  %s", file, i+1, w, g)
		}
	}
}

// checkWireLine validates a server line against the revision's schema: as
// a JSON-RPC message, and a result against its method's result type.
func checkWireLine(t *testing.T, revision, line string, methods map[protocol.ID]string) {
	t.Helper()
	spectest.ValidateMessage(t, revision, []byte(line))
	m, err := protocol.DecodeMessage([]byte(line))
	if err != nil {
		t.Errorf("server line does not decode: %v\n%s", err, line)
		return
	}
	r, ok := m.(*protocol.Response)
	if !ok || r.Error != nil {
		return
	}
	if def := wireResults[methods[r.ID]]; def != "" && spectest.Has(t, revision, def) {
		spectest.Validate(t, revision, def, r.Result)
	}
}
