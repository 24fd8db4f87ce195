package transport_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/transport"
)

// trickleResult is what a client trickling its body saw.
type trickleResult struct {
	status int  // the answer's status; 0 when the connection was dropped without one
	closed bool // the connection was closed after the answer
	sent   int  // body bytes sent before the answer
}

// trickle opens a raw TCP connection to addr and POSTs to target a body
// announced as 1000 bytes, of which it sends one byte every 50ms. It waits
// (5 s at most, else the test fails) for the server to answer or drop the
// connection, then checks whether the connection is closed.
func trickle(t *testing.T, addr, target string) trickleResult {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
		"Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{", target, addr)
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var sent int
	wg.Go(func() { // the trickler: owned by this function, ends with stop
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for range 998 {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			if _, err := conn.Write([]byte(" ")); err != nil {
				return
			}
			sent++
		}
	})
	defer func() { close(stop); wg.Wait() }()
	if err := conn.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	var res trickleResult
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) || isReset(err) {
			res.closed = true // dropped without an answer
			return res
		}
		t.Fatalf("waiting for the server to give up on the body: %v", err)
	}
	res.status = resp.StatusCode
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	_, err = br.ReadByte()
	switch {
	case errors.Is(err, io.EOF) || isReset(err):
		res.closed = true
	case err == nil:
		t.Fatalf("unexpected bytes after the answer")
	default:
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Fatalf("reading after the answer: %v", err)
		}
	}
	close(stop)
	wg.Wait()
	stop = make(chan struct{}) // for the deferred close
	res.sent = sent
	return res
}

func isReset(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "connection reset") || strings.Contains(err.Error(), "broken pipe"))
}

// TestTricklingBodyGets408: a client sending its POST body slower than
// ReadBodyTimeout gets 408 and its connection closed, on the Streamable
// HTTP endpoint and on the legacy SSE message endpoint.
func TestTricklingBodyGets408(t *testing.T) {
	t.Parallel()
	const limit = 300 * time.Millisecond
	srv := newTestServer(nil, nil)
	streamable := transport.NewStreamableHandler(srv.Connect, &transport.HTTPOptions{Logger: quiet, ReadBodyTimeout: limit})
	sse := transport.NewSSEHandler(srv.Connect, &transport.SSEOptions{Logger: quiet, MessagePath: "/message", ReadBodyTimeout: limit})
	mux := http.NewServeMux()
	mux.Handle("/mcp", streamable)
	mux.Handle("/sse", sse)
	mux.Handle("/message", sse)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() { _ = hs.Serve(ln) })
	t.Cleanup(func() {
		streamable.Close()
		sse.Close()
		hs.Close()
		wg.Wait()
	})
	addr := ln.Addr().String()

	// A legacy SSE session, for its message endpoint.
	resp, err := http.Get("http://" + addr + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	endpoint := ""
	sc := bufio.NewScanner(resp.Body)
	for endpoint == "" && sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			endpoint = d
		}
	}
	if !strings.HasPrefix(endpoint, "/message?sessionId=") {
		t.Fatalf("no endpoint event: %q %v", endpoint, sc.Err())
	}

	for _, target := range []string{"/mcp", endpoint} {
		t.Run(strings.TrimPrefix(target[:strings.IndexAny(target+"?", "?")], "/"), func(t *testing.T) {
			res := trickle(t, addr, target)
			t.Logf("%s: status %d, connection closed %v, %d body bytes trickled", target, res.status, res.closed, res.sent)
			if res.status != http.StatusRequestTimeout && res.status != 0 {
				t.Errorf("status = %d, want 408 (or the connection dropped)", res.status)
			}
			if !res.closed {
				t.Error("the connection stayed open after the body deadline")
			}
		})
	}
}

// TestBodyDeadlineDoesNotCutAnswers: the body deadline ends with the body;
// a call whose SSE answer takes several times ReadBodyTimeout still gets
// its result.
func TestBodyDeadlineDoesNotCutAnswers(t *testing.T) {
	t.Parallel()
	const limit = 100 * time.Millisecond
	release := make(chan struct{})
	started := make(chan string, 1)
	f := newFixture(t, &transport.HTTPOptions{ReadBodyTimeout: limit}, newTestServer(release, started))
	cli := dial(t, transport.NewStreamableClient(f.url, clientOpts), nil)
	errc := make(chan error, 1)
	go func() {
		var res addResult
		errc <- cli.Call(testCtx(t), "block", nil, &res)
	}()
	<-started
	time.Sleep(5 * limit) // the answer's stream outlives the body deadline
	close(release)
	if err := <-errc; err != nil {
		t.Fatalf("call answered after the body deadline: %v", err)
	}
	for _, r := range f.log.all() {
		if r.lastEventID != "" {
			t.Errorf("the client had to resume a stream (GET with Last-Event-ID %s)", r.lastEventID)
		}
	}
}
