package fastmcp_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/pubsub"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/transport"
)

// sharedReplicas starts n servers sharing legacy sessions through memory
// stores and a memory bus, as replicas do through Redis, behind a balancer
// whose route picks the replica (0 to n-1) of each request.
func sharedReplicas(t *testing.T, n int, route func(r *http.Request, body []byte) int) (servers []*fastmcp.Server, url string) {
	t.Helper()
	sessions, events, bus := transport.NewMemorySessionStore(), transport.NewMemoryEventStore(nil), pubsub.NewMemory(nil)
	var handlers []http.Handler
	for range n {
		opts := []fastmcp.Option{fastmcp.Logger(slog.New(slog.DiscardHandler)),
			fastmcp.SharedStores(&store.Stores{Sessions: sessions, Events: events, Bus: bus})}
		s := fastmcp.New("replica", "1.0.0", opts...)
		for _, uri := range []string{"x://a", "x://b"} {
			s.Resource(uri, func() string { return uri })
		}
		servers = append(servers, s)
		handlers = append(handlers, s)
	}
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		handlers[route(r, body)].ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		front.Close()
		for _, s := range servers {
			stop(s)
		}
		bus.Close()
	})
	return servers, front.URL + "/mcp"
}

// stop shuts s down at once, as a replica that dies (its session
// records stay in the store).
func stop(s *fastmcp.Server) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = s.Shutdown(ctx)
}

// updates records the resource updates a client receives, in order.
type updateLog struct {
	mu   sync.Mutex
	list []string
	ch   chan struct{}
}

func (u *updateLog) fn(uri string) {
	u.mu.Lock()
	u.list = append(u.list, uri)
	u.mu.Unlock()
	select {
	case u.ch <- struct{}{}:
	default:
	}
}

// waitFor waits until the client has received n updates and returns them.
func (u *updateLog) waitFor(t *testing.T, ctx context.Context, n int) []string {
	t.Helper()
	for {
		u.mu.Lock()
		out := append([]string(nil), u.list...)
		u.mu.Unlock()
		if len(out) >= n {
			return out
		}
		select {
		case <-u.ch:
		case <-ctx.Done():
			t.Fatalf("got updates %q, waiting for %d", out, n)
		}
	}
}

// TestSharedSessionSubscriptions: a legacy client's resources/subscribe
// lives in the session store, not in the replica that took it. The client
// subscribes through replica 0 and keeps its GET stream on replica 1; each
// update, announced on one replica (any), reaches it once, after replica
// 0 stopped, after replica 1, holding its GET stream, stopped too (the
// client resumes the stream on replica 2 and gets what was announced
// meanwhile), until it unsubscribes. Updates announced one after the other
// on one replica arrive in order: an update that should not arrive, or
// arrives twice, shows before the next one.
func TestSharedSessionSubscriptions(t *testing.T) {
	t.Parallel()
	var post, get atomic.Int32
	get.Store(1)
	rs, url := sharedReplicas(t, 3, func(r *http.Request, body []byte) int {
		if r.Method == http.MethodGet {
			return int(get.Load())
		}
		return int(post.Load())
	})
	ctx := ctxT(t)
	got := &updateLog{ch: make(chan struct{}, 1)}
	c, err := client.ConnectHTTP(ctx, url, client.WithProtocolVersion(protocol.LatestLegacyVersion),
		client.WithResourceUpdatedHandler(got.fn))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, uri := range []string{"x://a", "x://b"} {
		if err := c.Subscribe(ctx, uri, nil); err != nil {
			t.Fatal(err)
		}
	}
	announce := func(r int, uris ...string) {
		t.Helper()
		for _, uri := range uris {
			if err := rs[r].NotifyResourceUpdated(ctx, uri); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := []string{"x://a", "x://b"}
	announce(2, "x://a")
	announce(1, "x://b")
	check := func(step string) {
		t.Helper()
		if list := got.waitFor(t, ctx, len(want)); !slices.Equal(list, want) {
			t.Fatalf("%s: updates %q, want %q", step, list, want)
		}
	}
	check("subscribed on 0, GET on 1")

	// Replica 0, which took the subscriptions, stops.
	post.Store(2)
	stop(rs[0])
	announce(1, "x://a", "x://b")
	want = append(want, "x://a", "x://b")
	check("replica 0 stopped")

	// Replica 1, holding the GET stream, stops: the client resumes
	// its GET stream on replica 2.
	get.Store(2)
	stop(rs[1])
	announce(2, "x://a", "x://b")
	want = append(want, "x://a", "x://b")
	check("replica 1 stopped")

	// Unsubscribed, through replica 2: x://a no more.
	if err := c.Unsubscribe(ctx, "x://a"); err != nil {
		t.Fatal(err)
	}
	announce(2, "x://a", "x://b")
	want = append(want, "x://b")
	check("unsubscribed from x://a")
}

// TestSharedSubscriptionsEndWithSession: a shared session's subscriptions
// are in the session store while it lives, and gone once the client ends
// the session (DELETE) or unsubscribes.
func TestSharedSubscriptionsEndWithSession(t *testing.T) {
	t.Parallel()
	sessions := transport.NewMemorySessionStore()
	s := fastmcp.New("replica", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)),
		fastmcp.SharedStores(&store.Stores{Sessions: sessions, Events: transport.NewMemoryEventStore(nil)}))
	for _, uri := range []string{"x://a", "x://b"} {
		s.Resource(uri, func() string { return uri })
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	defer stop(s)
	ctx := ctxT(t)
	subscribers := func(uri string) []string {
		t.Helper()
		ids, err := sessions.Subscribers(ctx, uri)
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	c, err := client.ConnectHTTP(ctx, ts.URL+"/mcp", client.WithProtocolVersion(protocol.LatestLegacyVersion))
	if err != nil {
		t.Fatal(err)
	}
	for _, uri := range []string{"x://a", "x://b"} {
		if err := c.Subscribe(ctx, uri, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Unsubscribe(ctx, "x://b"); err != nil {
		t.Fatal(err)
	}
	a, b := subscribers("x://a"), subscribers("x://b")
	if len(a) != 1 || len(b) != 0 {
		t.Fatalf("subscribers: x://a %v, x://b %v; want one session, none", a, b)
	}
	rec, err := sessions.Get(ctx, a[0])
	if err != nil || !slices.Equal(rec.Subscriptions, []string{"x://a"}) {
		t.Fatalf("the session's record: %+v, %v; want its subscription to x://a", rec, err)
	}
	c.Close() // DELETE
	if a := subscribers("x://a"); len(a) != 0 {
		t.Errorf("x://a subscribers after the session ended: %v", a)
	}
}
