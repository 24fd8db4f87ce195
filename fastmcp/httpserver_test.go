package fastmcp_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// rawExchange is what a raw HTTP/1.1 client saw.
type rawExchange struct {
	status int  // the answer's status; 0 when the connection closed without one
	closed bool // the connection was closed (after the answer, if any)
}

// rawHTTP opens a TCP connection to addr and writes head; then, when
// trickle is set, one more byte every 50ms until the server answers. It
// reads the answer, if any, then checks whether the server closes the
// connection, all within 5 s (else the test fails).
func rawHTTP(t *testing.T, addr, head string, trickle bool) rawExchange {
	t.Helper()
	res, err := tryRawHTTP(addr, head, trickle)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// tryRawHTTP is rawHTTP for any goroutine: it returns what failed.
func tryRawHTTP(addr, head string, trickle bool) (rawExchange, error) {
	var res rawExchange
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return res, err
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, head); err != nil {
		return res, err
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(stop)
	if trickle {
		wg.Go(func() { // owned by rawHTTP, which ends it with stop
			tick := time.NewTicker(50 * time.Millisecond)
			defer tick.Stop()
			for range 1000 {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		})
	}
	if err := conn.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		return res, err
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		if isTimeout(err) {
			return res, fmt.Errorf("no answer and no close within 5s: %w", err)
		}
		res.closed = true // closed (or reset) without an answer
		return res, nil
	}
	res.status = resp.StatusCode
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	_, err = br.ReadByte()
	switch {
	case err == nil:
		return res, errors.New("unexpected bytes after the answer")
	case isTimeout(err):
	default:
		res.closed = true
	}
	return res, nil
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// postHead is the head of a POST to /mcp announcing a body of n bytes, and
// the body's first byte.
func postHead(addr string, n int) string {
	return fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n{", addr, n)
}

// TestHTTPServerLimits: the server Run builds applies the HTTP limits
// settings: slow headers, a trickled body, oversized headers and idle
// keep-alive connections each end the connection.
func TestHTTPServerLimits(t *testing.T) {
	t.Parallel()
	const short = 300 * time.Millisecond
	cases := []struct {
		name    string
		opt     fastmcp.Option
		head    func(addr string) string
		trickle bool
		status  int // 0: closed without an answer
	}{
		{"slow headers", fastmcp.ReadHeaderTimeout(short), func(addr string) string {
			return "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\n"
		}, false, 0},
		{"trickled body", fastmcp.ReadBodyTimeout(short), func(addr string) string { return postHead(addr, 1000) }, true, http.StatusRequestTimeout},
		{"big headers", fastmcp.MaxHeaderBytes(4096), func(addr string) string {
			return "GET /healthz HTTP/1.1\r\nHost: " + addr + "\r\nX-Big: " + strings.Repeat("x", 8192) + "\r\n\r\n"
		}, false, http.StatusRequestHeaderFieldsTooLarge},
		{"idle connection", fastmcp.IdleConnTimeout(short), func(addr string) string {
			return "GET /healthz HTTP/1.1\r\nHost: " + addr + "\r\n\r\n"
		}, false, http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ln := listenLoopback(t)
			sv := serveOn(t, newServer(tc.opt, fastmcp.Listener(ln)), ln)
			addr := strings.TrimPrefix(sv.base, "http://")
			res := rawHTTP(t, addr, tc.head(addr), tc.trickle)
			if res.status != tc.status {
				t.Errorf("status = %d, want %d", res.status, tc.status)
			}
			if !res.closed {
				t.Error("the server kept the connection open")
			}
		})
	}
}

// TestShutdownDoesNotWaitForTricklingBodies: a graceful shutdown does not
// wait for clients trickling their POST bodies (neither the ShutdownTimeout
// nor ReadBodyTimeout): their bodies are cut short and they get 503 (or
// 408, should their ReadBodyTimeout pass first) and their connections
// closed.
func TestShutdownDoesNotWaitForTricklingBodies(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	active := map[net.Conn]bool{} // connections with a request being served
	ln := listenLoopback(t)
	s := newServer(fastmcp.ReadBodyTimeout(500*time.Millisecond), fastmcp.ShutdownTimeout(time.Minute), fastmcp.Listener(ln),
		fastmcp.HTTPServer(func(srv *http.Server) {
			srv.ConnState = func(c net.Conn, st http.ConnState) {
				mu.Lock()
				defer mu.Unlock()
				if st == http.StateActive {
					active[c] = true
				} else {
					delete(active, c)
				}
			}
		}))
	sv := serveOn(t, s, ln)
	addr := strings.TrimPrefix(sv.base, "http://")
	const clients = 20
	type result struct {
		rawExchange
		err error
	}
	results := make(chan result, clients)
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			res, err := tryRawHTTP(addr, postHead(addr, 1000), true)
			results <- result{res, err}
		})
	}
	for i := 0; ; i++ { // until every trickler's request is being read
		mu.Lock()
		n := len(active)
		mu.Unlock()
		if n == clients {
			break
		}
		if i == 1000 {
			t.Fatalf("%d of %d trickling requests reached the server", n, clients)
		}
		time.Sleep(5 * time.Millisecond)
	}
	took := sv.stop(t)
	wg.Wait()
	t.Logf("shutdown with %d trickling clients took %v", clients, took)
	if sv.err != nil {
		t.Fatalf("Run: %v", sv.err)
	}
	for range clients {
		res := <-results
		if res.err != nil {
			t.Error(res.err)
			continue
		}
		if res.status != http.StatusServiceUnavailable && res.status != http.StatusRequestTimeout && res.status != 0 {
			t.Errorf("trickling client got %d, want 503 (408) or the connection dropped", res.status)
		}
		if !res.closed {
			t.Error("a trickling client's connection stayed open")
		}
	}
}

// TestUnavailableDoesNotWaitForTricklingBodies: while the server starts
// (or drains), the front door answers an MCP POST 503 at once and closes
// the connection, however slowly its body arrives. Before, net/http read
// the rest of the unread body before it sent the 503, with no deadline: a
// trickler that arrived as a shutdown began held it past 5s (as it did
// TestShutdownDoesNotWaitForTricklingBodies on a loaded CI machine).
func TestUnavailableDoesNotWaitForTricklingBodies(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	ln := listenLoopback(t)
	s := newServer(fastmcp.Listener(ln), fastmcp.Lifespan(func(ctx context.Context) (int, func(context.Context) error, error) {
		close(started)
		<-release
		return 0, nil, nil
	}))
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- s.Run(ctx) }()
	defer func() {
		close(release)
		cancel()
		<-errc
	}()
	<-started
	addr := ln.Addr().String()
	began := time.Now()
	res := rawHTTP(t, addr, postHead(addr, 1000), true)
	if res.status != http.StatusServiceUnavailable || !res.closed {
		t.Fatalf("a trickling POST while the server starts got %d (closed %v), want 503 and the connection closed", res.status, res.closed)
	}
	if took := time.Since(began); took > 2*time.Second {
		t.Errorf("the 503 took %v: it waited for the trickled body", took)
	}
}

// TestUnreadBodiesHaveADeadline: on the server Run builds, a body nobody
// reads — a request refused by the token check before its body was read,
// or sent to a route that ignores it — must arrive within ReadBodyTimeout
// like any other: the trickling client gets its answer and its connection
// closed. Before, net/http read such a body to its end, with no deadline,
// before it answered.
func TestUnreadBodiesHaveADeadline(t *testing.T) {
	t.Parallel()
	protect := auth.Protect(auth.VerifierFunc(func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
		return nil, auth.ErrInvalidToken
	}), func(c *auth.ProtectOptions) {
		c.Metadata.Resource = "https://mcp.example.com/mcp"
		c.Metadata.AuthorizationServers = []string{"https://idp.example.com"}
	})
	ln := listenLoopback(t)
	s := newServer(fastmcp.Listener(ln), fastmcp.ReadBodyTimeout(300*time.Millisecond), fastmcp.Auth(protect))
	s.HandleHTTP("POST /ignore", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted) // the body is left unread
	}))
	sv := serveOn(t, s, ln)
	addr := strings.TrimPrefix(sv.base, "http://")
	tests := []struct {
		name, head string
		status     int
	}{
		{"no token", postHead(addr, 1000), http.StatusUnauthorized},
		{"a route that ignores the body", strings.Replace(postHead(addr, 1000), "/mcp", "/ignore", 1), http.StatusAccepted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := rawHTTP(t, addr, tt.head, true)
			if res.status != tt.status || !res.closed {
				t.Errorf("got %d (closed %v), want %d and the connection closed", res.status, res.closed, tt.status)
			}
		})
	}
}
