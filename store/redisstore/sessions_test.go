package redisstore_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/pubsub"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// sessionReplica starts a server on the Redis stores, its sessions shared
// through them and bus, with tools that tell which replica served them
// and ask the client for input.
func sessionReplica(t *testing.T, rdb redis.UniversalClient, bus store.Bus, name string) *httptest.Server {
	t.Helper()
	st, err := redisstore.NewStores(context.Background(), rdb, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.Bus = bus // its Close still closes the bus NewStores made
	s := fastmcp.New("replica", "1.0.0", fastmcp.SharedStores(st), fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("who", func(ctx *fastmcp.Context, _ struct{}) (string, error) {
		return name + " " + ctx.ClientInfo().Name, nil
	})
	type form struct {
		Color string `json:"color"`
	}
	s.Tool("ask", func(ctx *fastmcp.Context, _ struct{}) (string, error) {
		var f form
		if _, err := ctx.Elicit("color?", &f); err != nil {
			return "", err
		}
		return name + " " + f.Color, nil
	})
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_ = s.Shutdown(ctx)
	})
	return ts
}

// TestSessionsOnRedis: a 2025-11-25 client behind a round-robin proxy
// (no stickiness) over two replicas sharing Redis: each request may land
// on either replica, the client's answer to an elicitation included.
func TestSessionsOnRedis(t *testing.T) {
	rdb := startRedis(t).client(t)
	bus := pubsub.NewMemory(nil) // the replicas' bus; Redis pub/sub in production
	defer bus.Close()
	var backends []*httputil.ReverseProxy
	for _, name := range []string{"A", "B"} {
		u, _ := url.Parse(sessionReplica(t, rdb, bus, name).URL)
		backends = append(backends, httputil.NewSingleHostReverseProxy(u))
	}
	var next atomic.Int64
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		backends[next.Add(1)%2].ServeHTTP(w, r)
	}))
	defer front.Close()

	ctx := context.Background()
	cli, err := client.ConnectHTTP(ctx, front.URL+"/mcp",
		client.WithProtocolVersion(protocol.Version20251125),
		client.WithInfo("redis-test", "1"),
		client.WithElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
			return &client.ElicitResult{Action: "accept", Content: []byte(`{"color":"blue"}`)}, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			cli.Close()
		}
	}()
	served := map[string]int{}
	for range 6 {
		for _, tool := range []string{"who", "ask"} {
			res, err := cli.CallTool(ctx, tool, nil)
			if err != nil {
				t.Fatalf("%s: %v", tool, err)
			}
			text := res.Text()
			served[text]++
		}
	}
	for _, want := range []string{"A redis-test", "B redis-test", "A blue", "B blue"} {
		if served[want] == 0 {
			t.Errorf("no call answered %q: %v", want, served)
		}
	}
	// The session's record is in Redis until the client ends the session
	// (DELETE), whichever replica that reaches.
	if keys, err := rdb.Keys(ctx, "fastmcp:session:*").Result(); err != nil || len(keys) != 1 {
		t.Fatalf("session records %v, %v; want 1", keys, err)
	}
	closed = true
	if err := cli.Close(); err != nil {
		t.Fatal(err)
	}
	if keys, err := rdb.Keys(ctx, "fastmcp:session:*").Result(); err != nil || len(keys) != 0 {
		t.Errorf("session records after the client closed: %v, %v", keys, err)
	}
}
