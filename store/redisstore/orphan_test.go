package redisstore_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestOrphanedCallOnRedis: two replicas sharing Redis stores and a Redis
// bus; a call's stream, closed early on A, is resumed on B after A died
// (its bus connection gone, its server stopped). The client's CallTool
// fails promptly with transport.ErrStreamLost, and the session goes on
// on B.
func TestOrphanedCallOnRedis(t *testing.T) {
	rdb := startRedis(t).client(t)
	type rep struct {
		bus   *redisstore.Bus
		srv   *fastmcp.Server
		proxy *httputil.ReverseProxy
	}
	var reps []*rep
	for _, name := range []string{"A", "B"} {
		r := &rep{bus: redisstore.NewBus(rdb, nil)}
		opts, err := options(context.Background(), rdb, &redisstore.Config{Bus: r.bus})
		if err != nil {
			t.Fatal(err)
		}
		opts = append(opts, fastmcp.Logger(slog.New(slog.DiscardHandler)), fastmcp.HTTPEndpoints(func(h *fastmcp.HTTPConfig) {
			h.Streamable.ProbeTimeout = 300 * time.Millisecond
			h.Streamable.RetryInterval = 20 * time.Millisecond
		}))
		r.srv = fastmcp.New("replica", "1.0.0", opts...)
		r.srv.Tool("who", func(ctx *fastmcp.Context, _ struct{}) (string, error) { return name, nil })
		r.srv.Tool("slow", func(ctx *fastmcp.Context, _ struct{}) (string, error) {
			if err := ctx.CloseStream(); err != nil {
				return "", err
			}
			<-ctx.Done()
			return "", ctx.Err()
		})
		ts := httptest.NewServer(r.srv)
		t.Cleanup(func() {
			ts.Close()
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			_ = r.srv.Shutdown(ctx)
			r.bus.Close()
		})
		u, _ := url.Parse(ts.URL)
		r.proxy = httputil.NewSingleHostReverseProxy(u)
		reps = append(reps, r)
	}
	a, b := reps[0], reps[1]
	var aDown atomic.Bool
	var once sync.Once
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		last := r.Header.Get("Last-Event-ID")
		switch {
		case r.Method != http.MethodGet && !aDown.Load():
			a.proxy.ServeHTTP(w, r)
			return
		case r.Method == http.MethodGet && last != "" && !strings.HasPrefix(last, "0_"):
			once.Do(func() {
				// A dies: it leaves the bus and serves nothing more.
				aDown.Store(true)
				a.bus.Close()
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				_ = a.srv.Shutdown(ctx)
			})
		}
		b.proxy.ServeHTTP(w, r)
	}))
	defer front.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cli, err := client.ConnectHTTP(ctx, front.URL+"/mcp", client.WithProtocolVersion(protocol.Version20251125))
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	_, err = cli.CallTool(ctx, "slow", nil)
	if !errors.Is(err, transport.ErrStreamLost) {
		t.Fatalf("slow: %v, want transport.ErrStreamLost", err)
	}
	if ctx.Err() != nil {
		t.Fatal("the call ended only with its deadline")
	}
	res, err := cli.CallTool(ctx, "who", nil)
	if err != nil || res.Text() != "B" {
		t.Fatalf("who after A died: %v, %v", res, err)
	}
}
