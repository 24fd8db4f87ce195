package fastmcp_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestConnectWhileStarting: a client that connects while the server is
// still starting (its Lifespan runs; the endpoint answers 503 with
// Retry-After, as a replica in a rolling deploy does) waits for it and
// connects, in every era, instead of failing with the 503. A 503 without
// Retry-After fails the handshake at once.
func TestConnectWhileStarting(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(fastmcp.Listener(ln), fastmcp.Lifespan(func(ctx context.Context) (string, func(context.Context) error, error) {
		close(started)
		<-release
		return "db", nil, nil
	}))
	s.Tool("state", func(ctx *fastmcp.Context) string { return fastmcp.State[string](ctx) }, fastmcp.Description("state"))
	url := "http://" + ln.Addr().String() + "/mcp"
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- s.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-errc; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	<-started
	versions := []string{"", protocol.LatestLegacyVersion, protocol.LatestVersion}
	var wg sync.WaitGroup
	errs := make([]error, len(versions))
	for i, v := range versions {
		wg.Go(func() {
			opts := []client.Option{client.WithLogger(quietLogger)}
			if v != "" {
				opts = append(opts, client.WithProtocolVersion(v))
			}
			c, err := client.ConnectHTTP(ctxT(t), url, opts...)
			if err != nil {
				errs[i] = err
				return
			}
			defer c.Close()
			res, err := c.CallTool(ctxT(t), "state", nil)
			if err == nil && textOf(t, res) != "db" {
				err = errors.New("state: " + textOf(t, res))
			}
			errs[i] = err
		})
	}
	// The clients have met the 503 by now (the server cannot answer
	// otherwise until release).
	time.Sleep(300 * time.Millisecond)
	close(release)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("version %q: connecting while the server starts: %v", versions[i], err)
		}
	}
}

// TestConnectRefusedWithoutRetryAfter: a 503 that names no Retry-After is
// an answer, not a server starting: Connect fails at once with it.
func TestConnectRefusedWithoutRetryAfter(t *testing.T) {
	t.Parallel()
	var hits int
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits++
		mu.Unlock()
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	start := time.Now()
	_, err := client.ConnectHTTP(ctxT(t), srv.URL+"/mcp", client.WithLogger(quietLogger), client.WithProtocolVersion(protocol.LatestLegacyVersion))
	he, ok := errors.AsType[*transport.HTTPError](err)
	if !ok || he.StatusCode != 503 {
		t.Fatalf("err = %v, want the 503", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	mu.Lock()
	defer mu.Unlock()
	if hits != 1 {
		t.Errorf("%d requests, want 1", hits)
	}
}

// TestHealthzWhileDraining: once shutdown begins, /healthz says 503
// "stopping" and new MCP requests get 503 with Retry-After, while a call
// in flight still finishes.
func TestHealthzWhileDraining(t *testing.T) {
	t.Parallel()
	entered, finish := make(chan struct{}), make(chan struct{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(fastmcp.Listener(ln))
	s.Tool("slow", func(ctx *fastmcp.Context) string {
		close(entered)
		<-finish
		return "done"
	}, fastmcp.Description("slow"))
	base := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- s.Run(ctx) }()
	for {
		if code, _ := get(t, base+"/healthz"); code == 200 {
			break
		}
		time.Sleep(5 * time.Millisecond) // polling a readiness probe, as orchestrators do
	}
	c, err := client.ConnectHTTP(ctxT(t), base+"/mcp", client.WithLogger(quietLogger))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	callErr := make(chan error, 1)
	go func() {
		res, err := c.CallTool(ctxT(t), "slow", nil)
		if err == nil && textOf(t, res) != "done" {
			err = errors.New("slow: " + textOf(t, res))
		}
		callErr <- err
	}()
	<-entered
	cancel()
	deadline := time.Now().Add(10 * time.Second)
	for {
		code, body := get(t, base+"/healthz")
		if code == 503 {
			if body != "stopping" {
				t.Errorf("healthz while draining = %d %q, want 503 stopping", code, body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("healthz still %d after shutdown began", code)
		}
		time.Sleep(5 * time.Millisecond)
	}
	resp, err := http.Post(base+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Errorf("MCP while draining = %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	close(finish)
	if err := <-callErr; err != nil {
		t.Errorf("call in flight: %v", err)
	}
	if err := <-errc; err != nil {
		t.Errorf("Run: %v", err)
	}
}
