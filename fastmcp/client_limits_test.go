package fastmcp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/testproc"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// The helper process: the test binary started again with
// FASTMCP_TEST_SERVER set serves bigServer over its stdio.
func TestHelperStdioServer(t *testing.T) {
	if os.Getenv("FASTMCP_TEST_SERVER") == "" {
		return // not the helper
	}
	err := bigServer().ServeStdio(context.Background())
	if err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// BigArgs asks for a text of Size bytes.
type BigArgs struct {
	Size int `json:"size"`
}

// bigServer has a tool "big" answering a text of the size asked.
func bigServer(opts ...fastmcp.Option) *fastmcp.Server {
	s := newServer(opts...)
	s.Tool("big", func(ctx *fastmcp.Context, in BigArgs) (string, error) {
		return strings.Repeat("x", in.Size), nil
	})
	return s
}

// stdioHelper describes the helper process serving bigServer.
func stdioHelper(t *testing.T, limit int) *transport.Command {
	t.Helper()
	c := testproc.Command(t, []string{"-test.run=^TestHelperStdioServer$"}, "FASTMCP_TEST_SERVER=1")
	c.MaxMessageSize = limit
	return c
}

// An answer over the client's limit fails its call at once with an error
// that says so, on stdio in both eras; the connection goes on.
func TestClientAnswerTooLargeStdio(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c, err := client.ConnectCommand(ctx, stdioHelper(t, 1<<20), e.opt, client.WithLogger(quietLogger))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			_, err = c.CallTool(ctx, "big", BigArgs{Size: 2 << 20})
			if !errors.Is(err, transport.ErrMessageTooLarge) || !errors.Is(err, transport.ErrTransport) {
				t.Fatalf("CallTool over the limit: %v; want ErrMessageTooLarge", err)
			}
			if errors.Is(err, protocol.ErrInvalidRequest) || errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("CallTool over the limit: %v; want no protocol error, no deadline", err)
			}
			res, err := c.CallTool(ctx, "big", BigArgs{Size: 10})
			if err != nil || len(res.Content) != 1 {
				t.Fatalf("next call: %v, %v", res, err)
			}
		})
	}
}

// With the default limit a client takes a 5 MB answer (the reference
// filesystem server's read of a 5 MB file).
func TestClientDefaultLimitStdio(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := client.ConnectCommand(ctx, stdioHelper(t, 0), legacy, client.WithLogger(quietLogger))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.CallTool(ctx, "big", BigArgs{Size: 5 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(res.Content[0].(*fastmcp.TextContent).Text); got != 5<<20 {
		t.Fatalf("got %d bytes", got)
	}
}

// An answer over the client's limit fails its call at once, over every HTTP
// transport and in both eras, without resuming the stream again and again;
// the connection goes on.
func TestClientAnswerTooLargeHTTP(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		path string
		opts []client.Option
		json bool
	}{
		{"streamable legacy", "/mcp", []client.Option{legacy}, false},
		{"streamable modern", "/mcp", []client.Option{client.WithProtocolVersion(protocol.Version20260728)}, false},
		{"streamable json", "/mcp", []client.Option{legacy}, true},
		{"legacy sse", "/sse", []client.Option{client.WithProtocolVersion(protocol.Version20241105)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := bigServer(fastmcp.JSONResponse(tc.json))
			var resumes atomic.Int64
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Last-Event-ID") != "" {
					resumes.Add(1)
				}
				h.ServeHTTP(w, r)
			}))
			defer func() { closeNow(h); ts.Close() }()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			opts := append(tc.opts, client.WithLogger(quietLogger), client.WithMaxMessageSize(1<<20))
			c, err := client.ConnectHTTP(ctx, ts.URL+tc.path, opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			for i := range 2 {
				_, err = c.CallTool(ctx, "big", BigArgs{Size: 2 << 20})
				if !errors.Is(err, transport.ErrMessageTooLarge) || !errors.Is(err, transport.ErrTransport) || errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("call %d over the limit: %v; want ErrMessageTooLarge", i, err)
				}
				res, err := c.CallTool(ctx, "big", BigArgs{Size: 10})
				if err != nil || len(res.Content) != 1 {
					t.Fatalf("call %d, next call: %v, %v", i, res, err)
				}
			}
			if n := resumes.Load(); n != 0 {
				t.Errorf("the client resumed a stream %d times", n)
			}
		})
	}
}

// A connection lost in the middle of an answer fails the call with a
// transport error, not a JSON-RPC error the server never sent.
func TestClientLostConnectionIsTransportError(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		msg, err := protocol.DecodeMessage(body)
		req, ok := msg.(*protocol.Request)
		switch {
		case err != nil || !ok:
			w.WriteHeader(http.StatusBadRequest)
		case !req.IsCall():
			w.WriteHeader(http.StatusAccepted)
		case req.Method == protocol.MethodInitialize:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"x","version":"1"}}}`, req.ID.Raw())
		default:
			// Start the answer stream, then drop the connection.
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
		}
	}))
	defer ts.Close()
	ctx := ctxT(t)
	c, err := client.ConnectHTTP(ctx, ts.URL, client.WithProtocolVersion(protocol.Version20250618), client.WithLogger(quietLogger))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.CallTool(ctx, "any", nil)
	if err == nil || !errors.Is(err, transport.ErrTransport) {
		t.Fatalf("CallTool: %v; want ErrTransport", err)
	}
	if _, ok := errors.AsType[*protocol.Error](err); ok || errors.Is(err, protocol.ErrInternal) {
		t.Fatalf("CallTool: %v (%#v); want no JSON-RPC error", err, err)
	}
}
