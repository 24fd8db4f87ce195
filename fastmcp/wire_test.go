package fastmcp_test

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"path/filepath"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/internal/transcript"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

var update = flag.Bool("update", false, "rewrite the server lines of the golden transcripts in testdata/wire")

// wireServer is the server the transcripts in testdata/wire talk to: a few
// resources, a resource template, and prompts with completion.
func wireServer() *fastmcp.Server {
	s := fastmcp.New("wire", "1.0.0", fastmcp.Logger(quietLogger))
	s.Resource("docs://readme", func() string { return "Read me first." },
		fastmcp.ResourceName("readme"), fastmcp.Title("README"), fastmcp.Description("The project's README"))
	s.Resource("docs://logo", func() []byte { return pngHeader }, fastmcp.ResourceName("logo"), fastmcp.ResourceSize(int64(len(pngHeader))))
	s.Resource("users://profiles/{id}", func(in UserRef) (UserProfile, error) {
		return UserProfile{ID: in.ID, Name: fmt.Sprint("user ", in.ID)}, nil
	}, fastmcp.ResourceName("profile"), fastmcp.Description("A user's profile"), fastmcp.MIMEType("application/json"),
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

// TestWireTranscripts replays the transcripts in testdata/wire (see
// fastmcptest.Replay for their format) against wireServer. Run
// with -update to rewrite the server lines from what the server now sends.
func TestWireTranscripts(t *testing.T) {
	t.Parallel()
	fastmcptest.ReplayDir(t, filepath.Join("testdata", "wire"), func(ctx context.Context, conn transport.Conn) error {
		return wireServer().Serve(ctx, conn)
	}, transcript.Options(t, wireResults, *update))
}

// TestAppsTranscripts replays the transcripts in testdata/apps: the MCP
// Apps extension's tools/list, resources/list and resources/read, for a
// host and for a client that gets the fallback, in both eras.
func TestAppsTranscripts(t *testing.T) {
	t.Parallel()
	results := maps.Clone(wireResults)
	results[protocol.MethodToolsList] = "ListToolsResult"
	results[protocol.MethodToolsCall] = "CallToolResult"
	fastmcptest.ReplayDir(t, filepath.Join("testdata", "apps"), func(ctx context.Context, conn transport.Conn) error {
		return appServer(t).Serve(ctx, conn)
	}, transcript.Options(t, results, *update))
}
