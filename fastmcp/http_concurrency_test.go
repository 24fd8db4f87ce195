package fastmcp_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// TestSlowToolDoesNotBlockHTTPCalls: over Streamable HTTP, in either answer
// mode, a tool that does not return keeps neither other calls on the same
// session from being answered nor its own cancellation from ending it.
func TestSlowToolDoesNotBlockHTTPCalls(t *testing.T) {
	t.Parallel()
	for _, json := range []bool{false, true} {
		t.Run(fmt.Sprint("json=", json), func(t *testing.T) {
			bothEras(t, func(t *testing.T, era client.Option, modern bool) {
				s, started, ended := blockingServer(fastmcp.JSONResponse(json))
				ts := httptest.NewServer(s)
				defer func() { closeNow(s); ts.Close() }()
				c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", era, client.WithLogger(quietLogger))
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				// Two slow calls at once, then quick ones while they run.
				ctx, cancel := context.WithCancel(ctxT(t))
				defer cancel()
				errc := make(chan error, 2)
				for range 2 {
					go func() {
						_, err := c.CallTool(ctx, "block", nil)
						errc <- err
					}()
				}
				for range 2 {
					select {
					case <-started:
					case <-time.After(10 * time.Second):
						t.Fatal("a slow tool did not start while the other ran")
					}
				}
				for i := range 3 {
					if res, err := c.CallTool(ctxT(t), "ping", nil); err != nil || textOf(t, res) != "pong" {
						t.Fatalf("quick call %d while the slow ones run: %v %v", i, res, err)
					}
				}
				checkCancel(t, c, started, ended)
				cancel()
				for range 2 {
					if err := <-errc; !errors.Is(err, context.Canceled) {
						t.Fatalf("slow call = %v, want context.Canceled", err)
					}
				}
			})
		})
	}
}
