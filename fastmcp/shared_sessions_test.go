package fastmcp_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/pubsub"
	"github.com/fastmcp-go/fastmcp/transport"
)

// sharedReplicas starts two servers sharing legacy sessions through
// memory stores and a memory bus, as replicas do through Redis, behind a
// balancer whose route picks the replica (0 or 1) of each request.
func sharedReplicas(t *testing.T, route func(r *http.Request, body []byte) int) (a, b *fastmcp.Server, url string) {
	t.Helper()
	sessions, events, bus := transport.NewMemorySessionStore(), transport.NewMemoryEventStore(nil), pubsub.NewMemory(nil)
	var handlers []http.Handler
	var servers []*fastmcp.Server
	for range 2 {
		s := fastmcp.New("replica", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)), fastmcp.HTTPEndpoints(func(h *fastmcp.HTTPConfig) {
			h.Streamable.Sessions, h.Streamable.EventStore, h.Streamable.Bus = sessions, events, bus
		}))
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
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			_ = s.Shutdown(ctx)
		}
		bus.Close()
	})
	return servers[0], servers[1], front.URL + "/mcp"
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
func (u *updateLog) waitFor(n int) []string {
	for {
		u.mu.Lock()
		if len(u.list) >= n {
			out := append([]string(nil), u.list...)
			u.mu.Unlock()
			return out
		}
		u.mu.Unlock()
		<-u.ch
	}
}

// TestSharedSessionSubscriptions: a legacy client subscribed through
// replica A, its GET stream on replica B, gets each update announced on
// every replica once (from A, through the shared GET stream), and its
// unsubscribe sent to B reaches A.
func TestSharedSessionSubscriptions(t *testing.T) {
	t.Parallel()
	var toB atomic.Bool // POSTs go to A until set; GETs always to B
	a, b, url := sharedReplicas(t, func(r *http.Request, body []byte) int {
		if r.Method == http.MethodGet || toB.Load() {
			return 1
		}
		return 0
	})
	ctx := ctxT(t)
	got := &updateLog{ch: make(chan struct{}, 1)}
	c, err := fastmcp.ConnectHTTP(ctx, url, fastmcp.WithProtocolVersion(protocol.LatestLegacyVersion),
		fastmcp.WithResourceUpdatedHandler(got.fn))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, uri := range []string{"x://a", "x://b"} {
		if err := c.Subscribe(ctx, uri, nil); err != nil {
			t.Fatal(err)
		}
	}
	// Every replica announces x://a (as a bus would have them do); then A
	// announces x://b. Had B sent x://a too, it would come before x://b.
	for _, s := range []*fastmcp.Server{a, b} {
		if err := s.NotifyResourceUpdated(ctx, "x://a"); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.NotifyResourceUpdated(ctx, "x://b"); err != nil {
		t.Fatal(err)
	}
	if list := got.waitFor(2); len(list) != 2 || list[0] != "x://a" || list[1] != "x://b" {
		t.Fatalf("updates %q, want [x://a x://b]", list)
	}
	// Unsubscribing through B ends A's subscription too.
	toB.Store(true)
	if err := c.Unsubscribe(ctx, "x://a"); err != nil {
		t.Fatal(err)
	}
	for n := 2; ; {
		// A may not have heard of the unsubscribe yet: announce until it
		// has, each round closed by an update of x://b.
		_ = a.NotifyResourceUpdated(ctx, "x://a")
		_ = a.NotifyResourceUpdated(ctx, "x://b")
		if got.waitFor(n + 1)[n] == "x://b" {
			break
		}
		n += 2 // x://a, then the round's x://b
	}
}
