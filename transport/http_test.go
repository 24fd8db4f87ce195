package transport_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

var clientOpts = &transport.HTTPClientOptions{Logger: quiet, ReconnectDelay: 20 * time.Millisecond}

func TestStreamableInitializeAndCall(t *testing.T) {
	t.Parallel()
	for _, mode := range []struct {
		name string
		opts transport.HTTPOptions
	}{
		{"sse", transport.HTTPOptions{}},
		{"json", transport.HTTPOptions{JSONResponse: true}},
		{"stateless", transport.HTTPOptions{Stateless: true}},
		{"stateless-json", transport.HTTPOptions{Stateless: true, JSONResponse: true}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, &mode.opts, nil)
			conn := transport.NewStreamableClient(f.url, clientOpts)
			cli := dial(t, conn, nil)
			if got := conn.ProtocolVersion(); got != protocol.LatestLegacyVersion {
				t.Errorf("ProtocolVersion() = %q, want %q", got, protocol.LatestLegacyVersion)
			}
			if sid := conn.SessionID(); (sid == "") != mode.opts.Stateless {
				t.Errorf("SessionID() = %q with Stateless=%v", sid, mode.opts.Stateless)
			}
			for i := range 5 {
				add(t, cli, i, 10)
			}
			var wg sync.WaitGroup
			for i := range 10 {
				wg.Go(func() { add(t, cli, i, i) })
			}
			wg.Wait()
		})
	}
}

// clientRecorder answers sampling requests and records notifications.
type clientRecorder struct {
	mu    sync.Mutex
	notes []string
}

func (c *clientRecorder) Handle(ctx context.Context, req *session.Request) (any, error) {
	if req.IsNotification() {
		c.mu.Lock()
		c.notes = append(c.notes, req.Method+" "+string(req.Params))
		c.mu.Unlock()
		return nil, nil
	}
	if req.Method == protocol.MethodSamplingCreateMessage {
		return map[string]any{"role": "assistant", "content": map[string]any{"type": "text", "text": "hi"}, "model": "m"}, nil
	}
	return nil, protocol.ErrMethodNotFound
}

func (c *clientRecorder) seen() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.notes)
}

func TestStreamableServerToClientRequestDuringCall(t *testing.T) {
	t.Parallel()
	for _, opts := range []transport.HTTPOptions{{}, {JSONResponse: true}} {
		t.Run(map[bool]string{false: "sse", true: "json"}[opts.JSONResponse], func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, &opts, nil)
			cli := dial(t, transport.NewStreamableClient(f.url, clientOpts), &clientRecorder{})
			var res struct {
				Model string `json:"model"`
			}
			if err := cli.Call(testCtx(t), "sample", nil, &res); err != nil {
				t.Fatalf("sample: %v", err)
			}
			if res.Model != "m" {
				t.Fatalf("sample returned %+v", res)
			}
		})
	}
}

func TestStreamableNotificationsBeforeResponse(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, nil)
	rec := &clientRecorder{}
	cli := dial(t, transport.NewStreamableClient(f.url, clientOpts), rec)
	var progress []float64
	var res addResult
	err := cli.Call(testCtx(t), "chatty", map[string]int{"n": 5}, &res, session.WithProgress(func(p *protocol.ProgressParams) {
		progress = append(progress, p.Progress) // runs on the reading goroutine, before Call returns
	}))
	if err != nil {
		t.Fatalf("chatty: %v", err)
	}
	if want := []float64{1, 2, 3, 4, 5}; !slices.Equal(progress, want) {
		t.Errorf("progress = %v, want %v", progress, want)
	}
	var logs []string
	for _, n := range rec.seen() {
		if strings.HasPrefix(n, protocol.NotificationMessage) {
			logs = append(logs, n)
		}
	}
	if len(logs) != 5 {
		t.Errorf("got %d log notifications before the response, want 5: %v", len(logs), logs)
	}
}

func TestStreamableGETStreamDeliversUnrelatedMessages(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, nil)
	rec := &clientRecorder{}
	cli := dial(t, transport.NewStreamableClient(f.url, clientOpts), rec)
	add(t, cli, 1, 1)
	// Unrelated notifications: stored until the client's GET stream is up,
	// then delivered on it.
	for i := range 3 {
		if err := f.srv.Broadcast(testCtx(t), protocol.NotificationToolsListChanged, map[string]int{"i": i}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, func() bool { return countPrefix(rec.seen(), protocol.NotificationToolsListChanged) == 3 })
	if got := rec.seen(); !slices.Equal(got, []string{
		`notifications/tools/list_changed {"i":0}`,
		`notifications/tools/list_changed {"i":1}`,
		`notifications/tools/list_changed {"i":2}`,
	}) {
		t.Errorf("notifications = %q", got)
	}
	var gets int
	for _, r := range f.log.all() {
		if r.method == http.MethodGet {
			gets++
		}
	}
	if gets == 0 {
		t.Error("the client never opened the GET stream")
	}
}

func countPrefix(list []string, prefix string) int {
	n := 0
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			n++
		}
	}
	return n
}

// waitFor polls cond until it holds, failing after 10 seconds.
func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 10s")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestStreamableResumeAfterServerClosesStream(t *testing.T) {
	t.Parallel()
	const retry = 30 * time.Millisecond
	f := newFixture(t, &transport.HTTPOptions{RetryInterval: retry}, nil)
	rec := &clientRecorder{}
	cli := dial(t, transport.NewStreamableClient(f.url, clientOpts), rec)
	start := time.Now()
	var res addResult
	if err := cli.Call(testCtx(t), "poll", nil, &res); err != nil {
		t.Fatalf("poll: %v", err)
	}
	if res.Sum != 42 {
		t.Fatalf("poll = %+v", res)
	}
	if d := time.Since(start); d < retry {
		t.Errorf("the client reconnected after %v, before the %v retry delay", d, retry)
	}
	// The message sent after the close reaches the client: replayed on the
	// resumed stream, or, on a loaded machine, by the session's GET stream,
	// which may deliver it just after Call returned.
	waitFor(t, func() bool {
		return slices.Contains(rec.seen(), `notifications/message {"level":"info","data":"after close"}`)
	})
	var resumed []string
	for _, r := range f.log.all() {
		if r.method == http.MethodGet && r.lastEventID != "" {
			resumed = append(resumed, r.lastEventID)
		}
	}
	if len(resumed) != 1 || !strings.HasSuffix(resumed[0], "_0") {
		t.Errorf("resumption GETs carried Last-Event-ID %q, want one priming id <stream>_0", resumed)
	}
	add(t, cli, 2, 3) // the session goes on
}

func TestStreamableResumeWithRawGET(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	started := make(chan string, 1)
	f := newFixture(t, nil, newTestServer(release, started))
	sid := rawSession(t, f.url)
	hdr := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-03-26"} // any supported version is accepted
	// Start a call and drop its connection after the priming event.
	ctx, cancel := context.WithCancel(testCtx(t))
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.url, strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"block"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type = %q", ct)
	}
	if resp.Header.Get("X-Accel-Buffering") != "no" || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("SSE headers: %v", resp.Header)
	}
	events, err := transport.ParseSSEForTest(&firstEvent{r: resp.Body}, 1<<20)
	if len(events) != 1 || events[0].Data != "" || !events[0].HasID || events[0].Retry != time.Second {
		t.Fatalf("first event = %+v (%v), want a priming event with id and retry 1s", events, err)
	}
	primingID := events[0].ID
	<-started
	cancel()
	resp.Body.Close()
	close(release) // the response is produced while no connection is open

	get, _ := http.NewRequest(http.MethodGet, f.url, nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set("Last-Event-ID", primingID)
	for k, v := range hdr {
		get.Header.Set(k, v)
	}
	gresp, body := do(t, get)
	if gresp.StatusCode != http.StatusOK {
		t.Fatalf("resume GET: %d %s", gresp.StatusCode, body)
	}
	msg := lastMessage(t, body)
	if r, ok := msg.(*protocol.Response); !ok || r.ID.Raw() != "7" || string(r.Result) != `{"sum":1}` {
		t.Fatalf("replayed %s", body)
	}
	events, _ = transport.ParseSSEForTest(strings.NewReader(body), 1<<20)
	if last := events[len(events)-1]; !strings.HasPrefix(last.ID, strings.TrimSuffix(primingID, "0")) {
		t.Errorf("replayed event id %q is not on the stream of %q", last.ID, primingID)
	}
}

// firstEvent reads up to the end of the first SSE event (a blank line).
type firstEvent struct {
	r    interface{ Read([]byte) (int, error) }
	seen []byte
}

func (f *firstEvent) Read(p []byte) (int, error) {
	if strings.Contains(string(f.seen), "\n\n") {
		return 0, errors.New("EOF")
	}
	n, err := f.r.Read(p[:1])
	f.seen = append(f.seen, p[:n]...)
	return n, err
}

func TestStreamableSessionExpiry(t *testing.T) {
	t.Parallel()
	const timeout = time.Second
	f := newFixture(t, &transport.HTTPOptions{SessionIdleTimeout: timeout}, nil)
	// The first ping must come within the timeout of the session's start;
	// a machine stalled for longer than that (seen under -race on a
	// loaded 2-core machine) lets the session expire first, so such an
	// attempt is made again with a new session.
	var hdr map[string]string
	for attempt := 1; ; attempt++ {
		start := time.Now()
		hdr = map[string]string{"Mcp-Session-Id": rawSession(t, f.url)}
		resp, body := rawPost(t, f.url, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, hdr)
		if resp.StatusCode == http.StatusOK {
			break
		}
		if resp.StatusCode != http.StatusNotFound || time.Since(start) < timeout || attempt == 5 {
			t.Fatalf("ping: %d %s (after %v)", resp.StatusCode, body, time.Since(start))
		}
	}
	time.Sleep(1500 * time.Millisecond) // idle for longer than the timeout
	resp, body := rawPost(t, f.url, `{"jsonrpc":"2.0","id":3,"method":"ping"}`, hdr)
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("after expiry: %d %s", resp.StatusCode, body)
	}
	if _, e := jsonRPCError(t, body); e.Code != transport.CodeSessionNotFound {
		t.Errorf("error = %+v", e)
	}
	// A session nobody asks about is closed by the sweep, which ends the
	// session engine serving it.
	rawSession(t, f.url)
	waitFor(t, func() bool {
		n := 0
		for range f.srv.Sessions() {
			n++
		}
		return n == 0
	})
}

func TestStreamableClientSeesSessionExpired(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, nil)
	conn := transport.NewStreamableClient(f.url, clientOpts)
	cli := dial(t, conn, nil)
	add(t, cli, 1, 2)
	del, _ := http.NewRequest(http.MethodDelete, f.url, nil)
	del.Header.Set("Mcp-Session-Id", conn.SessionID())
	if resp, body := do(t, del); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", resp.StatusCode, body)
	}
	err := cli.Call(testCtx(t), "add", addParams{1, 2}, nil)
	if !errors.Is(err, transport.ErrSessionExpired) {
		t.Fatalf("call after DELETE: %v, want ErrSessionExpired", err)
	}
	select {
	case <-cli.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the client session did not end")
	}
	if err := cli.Err(); !errors.Is(err, transport.ErrSessionExpired) {
		t.Errorf("session ended with %v", err)
	}
}

func TestStreamableDelete(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, nil)
	sid := rawSession(t, f.url)
	del := func() int {
		req, _ := http.NewRequest(http.MethodDelete, f.url, nil)
		req.Header.Set("Mcp-Session-Id", sid)
		resp, _ := do(t, req)
		return resp.StatusCode
	}
	if got := del(); got != http.StatusNoContent {
		t.Fatalf("DELETE = %d", got)
	}
	if got := del(); got != http.StatusNotFound {
		t.Errorf("second DELETE = %d, want 404", got)
	}
	resp, _ := rawPost(t, f.url, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, map[string]string{"Mcp-Session-Id": sid})
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("POST after DELETE = %d, want 404", resp.StatusCode)
	}
	// The client's DELETE on Close ends its session on the server too.
	conn := transport.NewStreamableClient(f.url, clientOpts)
	cli := dial(t, conn, nil)
	sid2 := conn.SessionID()
	cli.Close()
	resp, _ = rawPost(t, f.url, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, map[string]string{"Mcp-Session-Id": sid2})
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("POST after client Close = %d, want 404", resp.StatusCode)
	}
}

func TestStreamableCancelEndsStream(t *testing.T) {
	t.Parallel()
	started := make(chan string, 1)
	f := newFixture(t, nil, newTestServer(nil, started))
	cli := dial(t, transport.NewStreamableClient(f.url, clientOpts), nil)
	ctx, cancel := context.WithCancel(testCtx(t))
	errc := make(chan error, 1)
	go func() { errc <- cli.Call(ctx, "block", nil, nil) }()
	<-started
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
	// The server's handler saw the cancellation (so "block" returned) and
	// the session keeps working.
	add(t, cli, 2, 2)
}

func TestStreamableShutdownWaitsForCalls(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	started := make(chan string, 1)
	f := newFixture(t, &transport.HTTPOptions{RetryInterval: 20 * time.Millisecond}, newTestServer(release, started))
	cli := dial(t, transport.NewStreamableClient(f.url, clientOpts), nil)
	errc := make(chan error, 1)
	go func() {
		var res addResult
		err := cli.Call(testCtx(t), "block", nil, &res)
		if err == nil && res.Sum != 1 {
			err = errors.New("wrong result")
		}
		errc <- err
	}()
	<-started
	shut := make(chan error, 1)
	go func() { shut <- f.handler.Shutdown(testCtx(t)) }()
	// New sessions are refused while shutting down.
	waitFor(t, func() bool {
		resp, _ := rawPost(t, f.url, initBody, nil)
		return resp.StatusCode == http.StatusServiceUnavailable
	})
	select {
	case err := <-shut:
		t.Fatalf("Shutdown returned %v with a call in flight", err)
	default:
	}
	close(release)
	if err := <-errc; err != nil {
		for _, r := range f.log.all() {
			t.Logf("%+v", r)
		}
		t.Fatalf("in-flight call: %v", err)
	}
	if err := <-shut; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	select {
	case <-cli.Done(): // the session was closed: the next request got 404
	case <-time.After(5 * time.Second):
		if err := cli.Call(testCtx(t), "add", addParams{}, nil); err == nil {
			t.Fatal("call after Shutdown succeeded")
		}
	}
}

func TestStreamableShutdownDeadline(t *testing.T) {
	t.Parallel()
	started := make(chan string, 1)
	f := newFixture(t, &transport.HTTPOptions{RetryInterval: 20 * time.Millisecond}, newTestServer(nil, started))
	cli := dial(t, transport.NewStreamableClient(f.url, clientOpts), nil)
	errc := make(chan error, 1)
	go func() { errc <- cli.Call(testCtx(t), "block", nil, nil) }()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := f.handler.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown = %v, want DeadlineExceeded", err)
	}
	if err := <-errc; err == nil {
		t.Fatal("the blocked call succeeded after a forced shutdown")
	}
}

func TestStreamableCustomHeadersReachHandler(t *testing.T) {
	t.Parallel()
	srv := newTestServer(nil, nil)
	srv.HandleFunc("whoami", func(ctx context.Context, req *session.Request) (any, error) {
		info := req.HTTP
		if info == nil {
			return nil, errors.New("no HTTPRequestInfo")
		}
		return map[string]string{"auth": info.Header.Get("Authorization"), "param": info.Header.Get("Mcp-Param-Region"), "session": info.SessionID}, nil
	})
	for _, opts := range []*transport.HTTPOptions{nil, {JSONResponse: true}} {
		f := newFixture(t, opts, srv)
		conn := transport.NewStreamableClient(f.url, &transport.HTTPClientOptions{Logger: quiet, Header: http.Header{"Authorization": {"Bearer t0k"}}})
		cli := dial(t, conn, nil)
		var got map[string]string
		ctx := transport.WithHeader(testCtx(t), http.Header{"Mcp-Param-Region": {"eu"}})
		if err := cli.Call(ctx, "whoami", nil, &got); err != nil {
			t.Fatal(err)
		}
		if got["auth"] != "Bearer t0k" || got["param"] != "eu" || got["session"] != conn.SessionID() {
			t.Errorf("JSONResponse %v: handler saw %v", opts != nil, got)
		}
	}
}

func TestStreamableStatelessHasNoGETOrDelete(t *testing.T) {
	t.Parallel()
	f := newFixture(t, &transport.HTTPOptions{Stateless: true}, nil)
	resp, body := rawPost(t, f.url, initBody, nil)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("initialize: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	// A request without initialize is served at the header's version.
	resp, body = rawPost(t, f.url, `{"jsonrpc":"2.0","id":2,"method":"add","params":{"a":1,"b":2}}`, map[string]string{"MCP-Protocol-Version": "2025-06-18"})
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"sum":3`) {
		t.Fatalf("add: %d %s", resp.StatusCode, body)
	}
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		req, _ := http.NewRequest(m, f.url, nil)
		req.Header.Set("Accept", "text/event-stream")
		if resp, _ := do(t, req); resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s = %d, want 405", m, resp.StatusCode)
		}
	}
}

func TestStreamableJSONResponseContentType(t *testing.T) {
	t.Parallel()
	f := newFixture(t, &transport.HTTPOptions{JSONResponse: true}, nil)
	sid := rawSession(t, f.url)
	resp, body := rawPost(t, f.url, `{"jsonrpc":"2.0","id":2,"method":"add","params":{"a":2,"b":2}}`, map[string]string{"Mcp-Session-Id": sid, "Accept": "application/json"})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" || body != `{"jsonrpc":"2.0","id":2,"result":{"sum":4}}` {
		t.Fatalf("%d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}

func TestStreamableResultWithNewlinesStaysOnOneDataLine(t *testing.T) {
	t.Parallel()
	srv := newTestServer(nil, nil)
	srv.HandleFunc("pretty", func(ctx context.Context, req *session.Request) (any, error) {
		return json.RawMessage("{\n  \"a\": \"x\\ny\"\r\n}"), nil
	})
	f := newFixture(t, nil, srv)
	sid := rawSession(t, f.url)
	_, body := rawPost(t, f.url, `{"jsonrpc":"2.0","id":2,"method":"pretty"}`, map[string]string{"Mcp-Session-Id": sid})
	msg := lastMessage(t, body) // decodes the last data line alone
	if r := msg.(*protocol.Response); !strings.Contains(string(r.Result), `"x\ny"`) {
		t.Errorf("result %s", r.Result)
	}
}
