package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// rawServer is a server session over a pipe that answers initialize (or
// server/discover) with version and records the capabilities the client
// declared; the test drives it to send requests as any server could.
type rawServer struct {
	sess *session.Session
	mu   sync.Mutex
	caps json.RawMessage
}

func newRawServer(t *testing.T, version string) (*rawServer, transport.Conn) {
	return newRawServerWith(t, version, nil)
}

// newRawServerWith is newRawServer with discover, when not nil, answering
// server/discover.
func newRawServerWith(t *testing.T, version string, discover func(context.Context) (any, error)) (*rawServer, transport.Conn) {
	t.Helper()
	cc, sc := transport.NewPipe()
	rs := &rawServer{}
	rs.sess = session.New(sc, session.Options{Role: session.RoleServer, Logger: quietLogger,
		Handler: session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
			switch req.Method {
			case protocol.MethodInitialize:
				var p protocol.InitializeParams
				if err := protocol.Unmarshal(req.Params, &p); err != nil {
					return nil, err
				}
				rs.record(p.Capabilities)
				return &protocol.InitializeResult{ProtocolVersion: version, ServerInfo: protocol.Implementation{Name: "raw", Version: "1"}}, nil
			case protocol.MethodServerDiscover:
				if discover != nil {
					return discover(ctx)
				}
				rs.record(*req.Meta.ClientCapabilities)
				return &protocol.DiscoverResult{SupportedVersions: []string{version}, ResultType: "complete",
					Meta: protocol.Meta{protocol.MetaServerInfo: protocol.Implementation{Name: "raw", Version: "1"}}}, nil
			}
			return nil, nil
		})})
	t.Cleanup(func() { rs.sess.Close() })
	return rs, cc
}

func (rs *rawServer) record(caps protocol.ClientCapabilities) {
	b, _ := protocol.Marshal(caps)
	rs.mu.Lock()
	rs.caps = b
	rs.mu.Unlock()
}

// Pinned to a revision, the client declares the capabilities in that
// revision's shapes, and refuses a URL-mode elicitation on a revision
// without it.
func TestClientCapabilitiesPerVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		version string
		caps    string
		urlCode int64 // the error code a URL elicitation gets; 0: served
	}{
		{protocol.Version20241105, `{"roots":{"listChanged":true},"sampling":{}}`, protocol.CodeMethodNotFound},
		{protocol.Version20250326, `{"roots":{"listChanged":true},"sampling":{}}`, protocol.CodeMethodNotFound},
		{protocol.Version20250618, `{"roots":{"listChanged":true},"sampling":{},"elicitation":{}}`, protocol.CodeInvalidParams},
		{protocol.Version20251125, `{"roots":{"listChanged":true},"sampling":{"tools":{}},"elicitation":{"form":{},"url":{}}}`, 0},
		{protocol.Version20260728, `{"roots":{},"sampling":{"tools":{}},"elicitation":{"form":{},"url":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}`, 1},
	} {
		t.Run(tc.version, func(t *testing.T) {
			t.Parallel()
			rs, conn := newRawServer(t, tc.version)
			var urlCalls atomic.Int64
			handler := func(context.Context, *client.ElicitRequest) (*client.ElicitResult, error) {
				urlCalls.Add(1)
				return &client.ElicitResult{Action: protocol.ElicitActionAccept}, nil
			}
			c, err := client.Connect(ctxT(t), conn, client.WithProtocolVersion(tc.version), client.WithLogger(quietLogger),
				client.WithElicitation(handler), client.WithURLElicitation(handler),
				client.WithSampling(func(context.Context, *fastmcp.SamplingRequest) (*fastmcp.SamplingResult, error) { return nil, nil }),
				client.WithSamplingTools(), client.WithRoots())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			rs.mu.Lock()
			got := string(rs.caps)
			rs.mu.Unlock()
			if got != tc.caps {
				t.Errorf("declared %s, want %s", got, tc.caps)
			}
			if tc.urlCode == 1 {
				return // 2026-07-28 asks through input_required results, not requests
			}
			err = rs.sess.Call(ctxT(t), protocol.MethodElicitationCreate, &protocol.ElicitParams{
				Mode: protocol.ElicitModeURL, Message: "go there", URL: "https://example.com/x", ElicitationID: "e1"}, nil)
			perr, _ := errors.AsType[*protocol.Error](err)
			switch {
			case tc.urlCode == 0 && (err != nil || urlCalls.Load() != 1):
				t.Errorf("URL elicitation on %s: %v (handler called %d times)", tc.version, err, urlCalls.Load())
			case tc.urlCode != 0 && (perr == nil || perr.Code != tc.urlCode || urlCalls.Load() != 0):
				t.Errorf("URL elicitation on %s: %v (handler called %d times); want code %d", tc.version, err, urlCalls.Load(), tc.urlCode)
			}
		})
	}
}

// A server that never answers server/discover (as a legacy server may
// ignore requests before initialize) gets the initialize handshake once the
// probe's own timeout is over, well before Connect's context ends.
func TestClientDiscoverProbeIsBounded(t *testing.T) {
	t.Parallel()
	_, conn := newRawServerWith(t, protocol.Version20251125, func(ctx context.Context) (any, error) {
		<-ctx.Done() // cancelled by the client when it gives up
		return nil, ctx.Err()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, conn, client.WithDiscoverTimeout(100*time.Millisecond), client.WithLogger(quietLogger))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Era() == protocol.Modern || c.ProtocolVersion() != protocol.Version20251125 {
		t.Fatalf("connected with %s (modern %v), want the 2025-11-25 handshake", c.ProtocolVersion(), c.Era() == protocol.Modern)
	}
}

// Pinned to 2026-07-28 against a legacy server, Connect says so.
func TestClientPinnedModernAgainstLegacy(t *testing.T) {
	t.Parallel()
	_, conn := newRawServerWith(t, protocol.Version20251125, func(context.Context) (any, error) {
		return nil, protocol.NewError(protocol.CodeMethodNotFound, "Method not found")
	})
	_, err := client.Connect(ctxT(t), conn, client.WithProtocolVersion(protocol.Version20260728), client.WithLogger(quietLogger))
	want := "server does not support protocol 2026-07-28 (server/discover: Method not found)"
	if err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, protocol.ErrMethodNotFound) {
		t.Fatalf("Connect: %v; want it to say %q", err, want)
	}
}
