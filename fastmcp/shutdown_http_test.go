package fastmcp_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// served is a server running Run with a Listener on 127.0.0.1.
type served struct {
	base   string // http://127.0.0.1:port
	cancel context.CancelFunc
	errc   chan error
	err    error
	done   bool
}

// stop cancels Run's context and waits (at most 5 s, else the
// test fails) for it to return; it reports the time shutdown took.
func (sv *served) stop(t *testing.T) time.Duration {
	t.Helper()
	began := time.Now()
	sv.cancel()
	if !sv.done {
		select {
		case sv.err = <-sv.errc:
			sv.done = true
		case <-time.After(5 * time.Second):
			t.Fatal("Run did not return within 5s of shutdown")
		}
	}
	return time.Since(began)
}

// serveOn runs s, made with the option Listener(ln), and waits until
// /healthz says ok. The test's cleanup stops it. sv.base is ln's address, 127.0.0.1 for
// a listener on every interface.
func serveOn(t *testing.T, s *fastmcp.Server, ln net.Listener) *served {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	tcp := ln.Addr().(*net.TCPAddr)
	host := tcp.IP.String()
	if tcp.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	sv := &served{base: "http://" + net.JoinHostPort(host, fmt.Sprint(tcp.Port)), cancel: cancel, errc: make(chan error, 1)}
	go func() { sv.errc <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if !sv.done {
			select {
			case <-sv.errc:
			case <-time.After(15 * time.Second):
				t.Error("Run did not return")
			}
		}
	})
	base := sv.base
	for i := 0; ; i++ {
		if code, _ := get(t, base+"/healthz"); code == 200 {
			break
		}
		if i == 1000 {
			t.Fatal("server never became ready")
		}
		time.Sleep(5 * time.Millisecond) // polling a readiness probe, as orchestrators do
	}
	return sv
}

// TestShutdownEndsListenStreamsPromptly: a graceful shutdown ends an open
// 2026-07-28 subscriptions/listen stream with the spec's final result
// (resultType complete, the subscription id in _meta) and does not wait
// for the ShutdownTimeout.
func TestShutdownEndsListenStreamsPromptly(t *testing.T) {
	t.Parallel()
	ln := listenLoopback(t)
	s := newServer(fastmcp.ShutdownTimeout(30*time.Second), fastmcp.Listener(ln))
	s.Tool("add", func(in AddArgs) int { return in.A + in.B }, fastmcp.Description("add"))
	sv := serveOn(t, s, ln)

	ls := openListen(t, sv.base)

	took := sv.stop(t)
	t.Logf("shutdown with an open subscriptions/listen stream took %v", took)
	if sv.err != nil {
		t.Fatalf("Run: %v", sv.err)
	}
	ls.checkFinalResult(t)
}

// listenStream is an open 2026-07-28 subscriptions/listen stream (request
// id 7) read with raw HTTP.
type listenStream struct {
	lines *bufio.Scanner
	msgs  []protocol.Message
}

// openListen opens a listen stream at base/mcp and reads its
// acknowledgment. The test's cleanup closes it.
func openListen(t *testing.T, base string) *listenStream {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"_meta":{` +
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},` +
		`"notifications":{"toolsListChanged":true}}}`
	req, err := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 {
		t.Fatalf("listen: status %d", resp.StatusCode)
	}
	ls := &listenStream{lines: bufio.NewScanner(resp.Body)}
	if !ls.next(t) {
		t.Fatalf("listen stream ended before its acknowledgment: %v", ls.lines.Err())
	}
	if n, ok := ls.msgs[0].(*protocol.Request); !ok || n.Method != protocol.NotificationSubscriptionsAcknowledged {
		t.Fatalf("first message = %#v, want the acknowledgment", ls.msgs[0])
	}
	return ls
}

// next reads the stream's next message; false at its end.
func (ls *listenStream) next(t *testing.T) bool {
	t.Helper()
	for ls.lines.Scan() {
		if d, ok := strings.CutPrefix(ls.lines.Text(), "data: "); ok && strings.TrimSpace(d) != "" {
			m, err := protocol.DecodeMessage([]byte(d))
			if err != nil {
				t.Fatalf("decoding %q: %v", d, err)
			}
			ls.msgs = append(ls.msgs, m)
			return true
		}
	}
	return false
}

// checkFinalResult reads the stream to its end and checks that the last
// message is the spec's graceful closure: a result for request 7 with
// resultType complete and subscription id 7 in _meta.
func (ls *listenStream) checkFinalResult(t *testing.T) {
	t.Helper()
	for ls.next(t) {
	}
	last, ok := ls.msgs[len(ls.msgs)-1].(*protocol.Response)
	if !ok || last.Error != nil || last.ID.String() != "7" {
		t.Fatalf("listen stream ended with %#v, want the result of request 7 (messages: %d)", ls.msgs[len(ls.msgs)-1], len(ls.msgs))
	}
	var res protocol.SubscriptionsListenResult
	if err := protocol.Unmarshal(last.Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.ResultType != protocol.ResultTypeComplete {
		t.Errorf("resultType = %q, want %q (result %s)", res.ResultType, protocol.ResultTypeComplete, last.Result)
	}
	if id, _ := protocol.Marshal(res.Meta[protocol.MetaSubscriptionID]); string(id) != "7" {
		t.Errorf("_meta subscriptionId = %s, want 7 (result %s)", id, last.Result)
	}
}

// TestShutdownCutsTrickledBody: a POST whose body arrives a byte at a time
// does not hold a graceful shutdown for the ShutdownTimeout (20 s here):
// its request had not started, so shutdown cuts its body short and
// answers it 503 with Retry-After, over a real socket.
func TestShutdownCutsTrickledBody(t *testing.T) {
	t.Parallel()
	ln := listenLoopback(t)
	sv := serveOn(t, newServer(fastmcp.ShutdownTimeout(20*time.Second), fastmcp.Listener(ln)), ln)
	conn, err := net.Dial("tcp", strings.TrimPrefix(sv.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: %s\r\nContent-Length: %d\r\n\r\n%s",
		strings.TrimPrefix(sv.base, "http://"), protocol.LatestVersion, len(body), body[:1])
	stopTrickle := make(chan struct{})
	trickled := make(chan struct{})
	go func() { // one more byte every 100 ms, never the whole body
		defer close(trickled)
		for i := 1; i < len(body)-1; i++ {
			select {
			case <-stopTrickle:
				return
			case <-time.After(100 * time.Millisecond):
			}
			if _, err := conn.Write([]byte{body[i]}); err != nil {
				return
			}
		}
	}()
	defer func() { close(stopTrickle); <-trickled }()
	time.Sleep(300 * time.Millisecond) // the body is arriving
	took := sv.stop(t)
	if took > 5*time.Second {
		t.Errorf("shutdown took %v with a trickled body; want well under the 20s ShutdownTimeout", took)
	}
	if sv.err != nil {
		t.Errorf("Run: %v", sv.err)
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the answer to the trickled request: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("trickled request answered %d (Retry-After %q), want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}
