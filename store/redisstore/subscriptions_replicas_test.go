package redisstore_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// TestSubscriptionsSurviveReplicas: on the Redis stores and bus, a legacy
// client subscribes through replica 0 and holds its GET stream on replica
// 1; replica 0 stops, then replica 1; each update, announced on one of the
// replicas left, reaches the client once, in order (an update sent twice,
// or after the unsubscribe, shows before the next).
func TestSubscriptionsSurviveReplicas(t *testing.T) {
	srv := startRedis(t)
	rs := make([]busReplica, 3)
	front := make([]*httputil.ReverseProxy, len(rs))
	for i := range rs {
		rs[i] = startBusReplica(t, srv, func(s *fastmcp.Server) {
			s.Resource("x://{n}", func(in struct {
				N string `json:"n"`
			}) string {
				return in.N
			})
		})
		u, err := url.Parse(rs[i].url)
		if err != nil {
			t.Fatal(err)
		}
		front[i] = &httputil.ReverseProxy{FlushInterval: -1, Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(u); r.Out.URL.Path = u.Path }}
	}
	var post, get atomic.Int32
	get.Store(1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := post.Load()
		if r.Method == http.MethodGet {
			i = get.Load()
		}
		front[i].ServeHTTP(w, r)
	}))
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	var (
		mu   sync.Mutex
		got  []string
		more = make(chan struct{}, 1)
	)
	c, err := client.ConnectHTTP(ctx, ts.URL+"/mcp", client.WithProtocolVersion(protocol.LatestLegacyVersion),
		client.WithLogger(quietSlog),
		client.WithResourceUpdatedHandler(func(uri string) {
			mu.Lock()
			got = append(got, uri)
			mu.Unlock()
			select {
			case more <- struct{}{}:
			default:
			}
		}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, uri := range []string{"x://a", "x://b"} {
		if err := c.Subscribe(ctx, uri, nil); err != nil {
			t.Fatal(err)
		}
	}
	var want []string
	announce := func(r int, uris ...string) {
		t.Helper()
		for _, uri := range uris {
			if err := rs[r].s.NotifyResourceUpdated(ctx, uri); err != nil {
				t.Fatal(err)
			}
		}
	}
	check := func(step string) {
		t.Helper()
		for {
			mu.Lock()
			list := slices.Clone(got)
			mu.Unlock()
			if len(list) >= len(want) {
				if !slices.Equal(list, want) {
					t.Fatalf("%s: updates %q, want %q", step, list, want)
				}
				return
			}
			select {
			case <-more:
			case <-ctx.Done():
				t.Fatalf("%s: updates %q, waiting for %q", step, list, want)
			}
		}
	}
	stop := func(r int) {
		sctx, cancel := context.WithCancel(context.Background())
		cancel()
		_ = rs[r].s.Shutdown(sctx)
	}

	announce(2, "x://a")
	announce(1, "x://b")
	want = append(want, "x://a", "x://b")
	check("subscribed on 0, GET on 1")

	post.Store(2)
	stop(0)
	announce(1, "x://a", "x://b")
	want = append(want, "x://a", "x://b")
	check("replica 0 stopped")

	get.Store(2)
	stop(1)
	announce(2, "x://a", "x://b")
	want = append(want, "x://a", "x://b")
	check("replica 1, holding the GET stream, stopped")

	if err := c.Unsubscribe(ctx, "x://a"); err != nil {
		t.Fatal(err)
	}
	announce(2, "x://a", "x://b")
	want = append(want, "x://b")
	check("unsubscribed from x://a")
}
