package transport_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// wantCapacityError checks a refusal for capacity: the status and a
// JSON-RPC error body naming the limit.
func wantCapacityError(t *testing.T, what string, status int, body string, wantStatus int, wantID protocol.ID, wantText string) {
	t.Helper()
	if status != wantStatus {
		t.Fatalf("%s: %d %s, want %d", what, status, body, wantStatus)
	}
	id, e := jsonRPCError(t, body)
	if id != wantID || !strings.Contains(e.Message, wantText) {
		t.Errorf("%s: error id %v %+v, want id %v and a message containing %q", what, id, e, wantID, wantText)
	}
}

func TestStreamableMaxSessions(t *testing.T) {
	t.Parallel()
	const limit = 3
	f := newFixture(t, &transport.HTTPOptions{MaxSessions: limit}, nil)
	sids := make([]string, limit)
	for i := range sids {
		sids[i] = rawSession(t, f.url)
	}
	resp, body := rawPost(t, f.url, initBody, nil)
	wantCapacityError(t, "initialize past the limit", resp.StatusCode, body, http.StatusServiceUnavailable, protocol.Int64ID(1), "limit of 3 sessions")
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		t.Errorf("a refused initialize got session %q", sid)
	}
	// The sessions already open are served as before.
	for _, sid := range sids {
		if resp, body := rawPost(t, f.url, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, map[string]string{"Mcp-Session-Id": sid}); resp.StatusCode != http.StatusOK {
			t.Fatalf("ping in an open session: %d %s", resp.StatusCode, body)
		}
	}
	// DELETE frees a slot.
	del, _ := http.NewRequest(http.MethodDelete, f.url, nil)
	del.Header.Set("Mcp-Session-Id", sids[0])
	if resp, body := do(t, del); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", resp.StatusCode, body)
	}
	rawSession(t, f.url)
	if resp, body := rawPost(t, f.url, initBody, nil); resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("initialize past the limit again: %d %s", resp.StatusCode, body)
	}
}

func TestStreamableMaxSessionsExpiredFreeSlots(t *testing.T) {
	t.Parallel()
	const limit = 2
	f := newFixture(t, &transport.HTTPOptions{MaxSessions: limit, SessionIdleTimeout: 200 * time.Millisecond}, nil)
	for range limit {
		// An initialize alone takes a slot (rawSession's second POST could
		// find the session expired already on a loaded machine).
		if resp, body := rawPost(t, f.url, initBody, nil); resp.StatusCode != http.StatusOK {
			t.Fatalf("initialize: %d %s", resp.StatusCode, body)
		}
	}
	// Once the sessions have been idle past their timeout, their slots
	// are free again (whether the sweep or the new initialize closed
	// them). Each refusal comes back at once; the loop is bounded.
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, body := rawPost(t, f.url, initBody, nil)
		if resp.StatusCode == http.StatusOK {
			break
		}
		if resp.StatusCode != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("initialize after the sessions expired: %d %s", resp.StatusCode, body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestStreamableMaxStreamsPerSession(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	started := make(chan string, 4)
	f := newFixture(t, &transport.HTTPOptions{MaxStreamsPerSession: 2}, newTestServer(release, started))
	sid := rawSession(t, f.url)
	hdr := map[string]string{"Mcp-Session-Id": sid}

	// Stream 1: the GET stream. Stream 2: a call that waits.
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	get, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.url, nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set("Mcp-Session-Id", sid)
	getResp, err := http.DefaultClient.Do(get)
	if err != nil {
		t.Fatal(err)
	}
	defer getResp.Body.Close()
	if getResp.StatusCode != http.StatusOK {
		t.Fatalf("GET: %d", getResp.StatusCode)
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	var once sync.Once
	releaseAll := func() { once.Do(func() { close(release) }) }
	defer releaseAll() // before wg.Wait, should the test stop early
	blocked := make(chan int, 2)
	wg.Go(func() {
		resp, _ := rawPost(t, f.url, `{"jsonrpc":"2.0","id":10,"method":"block"}`, hdr)
		blocked <- resp.StatusCode
	})
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the blocking call did not start")
	}

	// A third response is refused, a request with its id echoed.
	resp, body := rawPost(t, f.url, `{"jsonrpc":"2.0","id":11,"method":"ping"}`, hdr)
	wantCapacityError(t, "call past the limit", resp.StatusCode, body, http.StatusTooManyRequests, protocol.Int64ID(11), "2 responses open")
	cancel() // the GET stream ends: its slot is free once the handler sees it
	waitFor(t, func() bool {
		resp, _ := rawPost(t, f.url, `{"jsonrpc":"2.0","id":12,"method":"ping"}`, hdr)
		return resp.StatusCode == http.StatusOK
	})
	// With the call and a second one waiting, a GET stream is refused.
	wg.Go(func() {
		resp, _ := rawPost(t, f.url, `{"jsonrpc":"2.0","id":13,"method":"block"}`, hdr)
		blocked <- resp.StatusCode
	})
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the second blocking call did not start")
	}
	get2, _ := http.NewRequestWithContext(testCtx(t), http.MethodGet, f.url, nil)
	get2.Header.Set("Accept", "text/event-stream")
	get2.Header.Set("Mcp-Session-Id", sid)
	resp, body = do(t, get2)
	wantCapacityError(t, "GET past the limit", resp.StatusCode, body, http.StatusTooManyRequests, protocol.ID{}, "2 responses open")
	// Notifications (here a cancellation) still get through, and free
	// their request's stream.
	resp, body = rawPost(t, f.url, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":13}}`, hdr)
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("cancellation past the limit: %d %s", resp.StatusCode, body)
	}
	if got := <-blocked; got != http.StatusOK {
		t.Errorf("cancelled call: status %d", got)
	}
	releaseAll()
	if got := <-blocked; got != http.StatusOK {
		t.Errorf("released call: status %d", got)
	}
	if resp, body := rawPost(t, f.url, `{"jsonrpc":"2.0","id":14,"method":"ping"}`, hdr); resp.StatusCode != http.StatusOK {
		t.Fatalf("ping after the calls ended: %d %s", resp.StatusCode, body)
	}
}

func TestStreamableMaxListens(t *testing.T) {
	t.Parallel()
	f := newFixture(t, &transport.HTTPOptions{MaxListens: 2}, modernServer(make(chan error, 16)))
	listen := func(ctx context.Context, id int) (*http.Response, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.url, strings.NewReader(modernBody(id, "subscriptions/listen", `"notifications":{"toolsListChanged":true}`)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range modernHeaders("subscriptions/listen") {
			req.Header.Set(k, v)
		}
		return http.DefaultClient.Do(req)
	}
	// open starts a listen and waits for its acknowledgement.
	open := func(id int) context.CancelFunc {
		ctx, cancel := context.WithCancel(testCtx(t))
		resp, err := listen(ctx, id)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		if resp.StatusCode != http.StatusOK {
			cancel()
			t.Fatalf("listen %d: %d", id, resp.StatusCode)
		}
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() && !strings.Contains(sc.Text(), "notifications/subscriptions/acknowledged") {
		}
		return cancel
	}
	first := open(1)
	defer first()
	second := open(2)
	defer second()
	status, body := func() (int, string) {
		resp, err := listen(testCtx(t), 3)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b := make([]byte, 4096)
		n, _ := resp.Body.Read(b)
		return resp.StatusCode, string(b[:n])
	}()
	wantCapacityError(t, "listen past the limit", status, body, http.StatusServiceUnavailable, protocol.Int64ID(3), fmt.Sprintf("limit of 2 %s streams", protocol.MethodSubscriptionsListen))
	// Other modern requests are not listens and are served.
	if resp, body := rawPost(t, f.url, modernBody(4, "tools/call", `"name":"x"`), modernHeaders("tools/call", "Mcp-Name", "x")); resp.StatusCode != http.StatusOK {
		t.Fatalf("tools/call beside the listens: %d %s", resp.StatusCode, body)
	}
	// A listen that ends frees its slot.
	first()
	waitFor(t, func() bool {
		ctx, cancel := context.WithCancel(testCtx(t))
		defer cancel()
		resp, err := listen(ctx, 5)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
}

func TestSSEMaxSessions(t *testing.T) {
	t.Parallel()
	ts, _ := newSSEFixture(t, &transport.SSEOptions{MessagePath: "/message", MaxSessions: 2})
	// sse opens a session stream and reports its status; the stream stays
	// open until stop is called.
	sse := func() (status int, body string, stop func()) {
		ctx, cancel := context.WithCancel(testCtx(t))
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/sse", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		b := make([]byte, 4096)
		n, _ := resp.Body.Read(b)
		return resp.StatusCode, string(b[:n]), func() { cancel(); resp.Body.Close() }
	}
	status, _, stop := sse()
	defer stop()
	if status != http.StatusOK {
		t.Fatalf("first session: %d", status)
	}
	openSSESession(t, ts.URL, "")
	status, body, stop3 := sse()
	stop3()
	wantCapacityError(t, "GET /sse past the limit", status, body, http.StatusServiceUnavailable, protocol.ID{}, "limit of 2 sessions")
	// A session whose stream closes frees its slot.
	stop()
	waitFor(t, func() bool {
		status, _, stop := sse()
		stop()
		return status == http.StatusOK
	})
}
