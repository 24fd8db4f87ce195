package fastmcp_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
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
func bigServer() *fastmcp.Server {
	s := newServer()
	s.Tool("big", func(ctx *fastmcp.Context, in BigArgs) (string, error) {
		return strings.Repeat("x", in.Size), nil
	})
	return s
}

// stdioHelper describes the helper process serving bigServer.
func stdioHelper(t *testing.T, limit int) *transport.Command {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &transport.Command{
		Path:           self,
		Args:           []string{"-test.run=^TestHelperStdioServer$"},
		Env:            []string{"FASTMCP_TEST_SERVER=1", "GORACE=atexit_sleep_ms=0"},
		MaxMessageSize: limit,
	}
}

// An answer over the client's limit fails its call at once with an error
// that says so, on stdio in both eras; the connection goes on.
func TestClientAnswerTooLargeStdio(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c, err := fastmcp.ConnectCommand(ctx, stdioHelper(t, 1<<20), e.opt, fastmcp.ClientLogger(quietLogger))
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
	c, err := fastmcp.ConnectCommand(ctx, stdioHelper(t, 0), legacy, fastmcp.ClientLogger(quietLogger))
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
