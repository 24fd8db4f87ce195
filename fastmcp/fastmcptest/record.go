package fastmcptest

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// A Transcript records the JSON-RPC messages a client and a server
// exchange, one line per message as the stdio transport writes it: "> "
// and a message the client sent, "< " and a message it received, in the
// order the client sent and received them. Record makes one; compare it
// with a golden file with CheckGolden. Its methods are safe for concurrent
// use.
//
// A test that makes its calls one after another gets the same transcript on
// every run. Values that change from run to run are hidden with Mask; the
// requestState of 2026-07-28 multi round-trip requests, sealed with a
// fresh key by each server, is hidden from the start.
type Transcript struct {
	mu      sync.Mutex
	lines   []string
	masked  []string // member names whose values are hidden
	version string   // the revision the client negotiated
}

// Record is NewClient that also records the exchange, from the handshake
// on, into the Transcript returned.
func Record(t testing.TB, s *fastmcp.Server, opts ...client.Option) (*client.Client, *Transcript) {
	t.Helper()
	tr := &Transcript{masked: []string{"requestState"}}
	cc, sc := transport.NewPipe()
	c := connect(t, s, &recordingConn{Conn: cc, tr: tr}, sc, opts)
	tr.mu.Lock()
	tr.version = c.ProtocolVersion()
	tr.mu.Unlock()
	return c, tr
}

// Mask hides the value of every object member with one of these names, at
// any depth, in the lines recorded so far and later: it reads "<name>"
// instead, so that values which change from run to run do not change the
// transcript.
func (tr *Transcript) Mask(names ...string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.masked = append(tr.masked, names...)
}

// String returns the transcript's lines, each ended by a newline, with the
// masked values hidden.
func (tr *Transcript) String() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var b strings.Builder
	for _, l := range tr.lines {
		b.WriteString(l[:2])
		b.WriteString(mask(l[2:], tr.masked))
		b.WriteByte('\n')
	}
	return b.String()
}

// Reset forgets the lines recorded so far, for a transcript that starts
// after the handshake or some setup.
func (tr *Transcript) Reset() {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.lines = nil
}

func (tr *Transcript) add(prefix string, m protocol.Message) {
	b, err := protocol.EncodeMessage(m)
	line := string(b)
	if err != nil {
		line = "(unencodable message: " + err.Error() + ")"
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.lines = append(tr.lines, prefix+line)
}

// recordingConn is the client's end of the connection, recording each
// message as the client writes or reads it.
type recordingConn struct {
	transport.Conn
	tr *Transcript
}

func (c *recordingConn) Write(ctx context.Context, m protocol.Message) error {
	c.tr.add("> ", m)
	return c.Conn.Write(ctx, m)
}

func (c *recordingConn) Read(ctx context.Context) (protocol.Message, error) {
	m, err := c.Conn.Read(ctx)
	if err == nil {
		c.tr.add("< ", m)
	}
	return m, err
}
