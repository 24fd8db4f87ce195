package client_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestClientReissuesOnBrokenStream: a 2026-07-28 call whose answer stream
// breaks (the connection is cut while the tool runs) is sent again as a new
// request and returns the second run's result, once; with re-issuing off,
// it fails with a transport error.
func TestClientReissuesOnBrokenStream(t *testing.T) {
	for _, tc := range []struct {
		name    string
		limit   int
		wantErr bool
		runs    int32
	}{
		{"default", client.DefaultReissueLimit, false, 2},
		{"off", 0, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newServer()
			var runs atomic.Int32
			started := make(chan struct{}, 4)
			s.Tool("once", func(ctx *fastmcp.Context, in struct {
				ID string `json:"id"`
			}) (string, error) {
				n := runs.Add(1)
				if n == 1 {
					started <- struct{}{}
					<-ctx.Done() // the first run's stream is cut
					return "", ctx.Err()
				}
				return in.ID, nil
			})
			ts := httptest.NewServer(s)
			t.Cleanup(func() { closeNow(s); ts.Close() })
			c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", client.WithProtocolVersion(fastmcptest.Modern),
				client.WithLogger(quietLogger), client.WithReissueLimit(tc.limit))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			go func() {
				<-started
				ts.CloseClientConnections()
			}()
			res, err := c.CallTool(ctxT(t), "once", map[string]string{"id": "a-1"})
			if tc.wantErr {
				if !errors.Is(err, transport.ErrTransport) {
					t.Fatalf("CallTool: %v, want an error matching transport.ErrTransport", err)
				}
			} else if err != nil || res.Text() != "a-1" {
				t.Fatalf("CallTool: %v, %v; want the result a-1", res, err)
			}
			if got := runs.Load(); got != tc.runs {
				t.Errorf("the tool ran %d times, want %d", got, tc.runs)
			}
		})
	}
}

// TestClientRestoresBrokenListen: when a 2026-07-28 client's
// subscriptions/listen stream breaks, the client listens again on its own,
// says so (WithListenRestoredHandler), and gets the notifications sent
// after the new acknowledgment.
func TestClientRestoresBrokenListen(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Resource("mem://a", func() string { return "a" })
	ts := httptest.NewServer(s)
	t.Cleanup(func() { closeNow(s); ts.Close() })
	restored := make(chan struct{}, 4)
	c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", client.WithProtocolVersion(fastmcptest.Modern),
		client.WithLogger(quietLogger), client.WithListenRestoredHandler(func() { restored <- struct{}{} }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	updated := make(chan string, 4)
	if err := c.Subscribe(ctxT(t), "mem://a", func(uri string) { updated <- uri }); err != nil {
		t.Fatal(err)
	}
	ts.CloseClientConnections() // breaks the listen stream
	recvT(t, restored)
	if err := s.NotifyResourceUpdated(ctxT(t), "mem://a"); err != nil {
		t.Fatal(err)
	}
	if got := recvT(t, updated); got != "mem://a" {
		t.Fatalf("update of %q, want mem://a", got)
	}
	select {
	case <-restored:
		t.Fatal("restored twice for one break")
	default:
	}
}

// TestClientReissuesAfterGatewayError: a 2026-07-28 call a gateway
// answered 502, 503 or 504 is sent again; a 500 (the server's own answer)
// is not.
func TestClientReissuesAfterGatewayError(t *testing.T) {
	for _, tc := range []struct {
		status int
		retry  bool
	}{
		{http.StatusBadGateway, true},
		{http.StatusServiceUnavailable, true},
		{http.StatusGatewayTimeout, true},
		{http.StatusInternalServerError, false},
	} {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			t.Parallel()
			s := newServer()
			var runs atomic.Int32
			s.Tool("once", func() string { runs.Add(1); return "done" })
			var failed atomic.Bool
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get(transport.HeaderMethod) == "tools/call" && !failed.Swap(true) {
					http.Error(w, "upstream gone", tc.status)
					return
				}
				s.ServeHTTP(w, r)
			}))
			t.Cleanup(func() { closeNow(s); ts.Close() })
			c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", client.WithProtocolVersion(fastmcptest.Modern),
				client.WithLogger(quietLogger))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			res, err := c.CallTool(ctxT(t), "once", nil)
			if tc.retry {
				if err != nil || res.Text() != "done" || runs.Load() != 1 {
					t.Fatalf("CallTool: %v, %v after %d runs; want done after one", res, err, runs.Load())
				}
				return
			}
			if he, ok := errors.AsType[*transport.HTTPError](err); !ok || he.StatusCode != tc.status || runs.Load() != 0 {
				t.Fatalf("CallTool: %v, %v after %d runs; want HTTP %d, not retried", res, err, runs.Load(), tc.status)
			}
		})
	}
}
