package transport_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// retryMock plays the conformance suite's sse-retry server: a tools/call
// answer stream that primes (id, retry 300ms), then closes without the
// result; the result is sent on the next GET.
type retryMock struct {
	mu       sync.Mutex
	closedAt time.Time
	gets     []string // Last-Event-ID of each GET
	getAt    time.Time
	pending  string // raw id of the unanswered call
	primes   bool   // whether the tools/call stream carries a priming id
}

func (m *retryMock) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Mcp-Session-Id", "s-1")
	if r.Method == http.MethodGet {
		m.mu.Lock()
		m.gets = append(m.gets, r.Header.Get("Last-Event-ID"))
		m.getAt = time.Now()
		pending := m.pending
		m.pending = ""
		m.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "id: g-1\nretry: 300\ndata: \n\n")
		if pending != "" {
			fmt.Fprintf(w, "event: message\nid: g-2\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"ok\":true}}\n\n", pending)
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the GET stream stays open
		return
	}
	body, _ := io.ReadAll(r.Body)
	msg, err := protocol.DecodeMessage(body)
	if err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	req, ok := msg.(*protocol.Request)
	switch {
	case !ok || !req.IsCall():
		w.WriteHeader(http.StatusAccepted)
	case req.Method == "initialize":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"mock","version":"1"}}}`, req.ID.Raw())
	default:
		m.mu.Lock()
		m.pending = req.ID.Raw()
		primes := m.primes
		m.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		if primes {
			fmt.Fprintf(w, "id: p-1\nretry: 300\ndata: \n\n")
		} else {
			fmt.Fprintf(w, ": no id\n\n")
		}
		w.(http.Flusher).Flush()
		time.Sleep(20 * time.Millisecond)
		m.mu.Lock()
		m.closedAt = time.Now()
		m.mu.Unlock()
	}
}

func TestStreamableClientHonoursRetry(t *testing.T) {
	t.Parallel()
	mock := &retryMock{primes: true}
	ts := httptest.NewServer(mock)
	t.Cleanup(ts.Close) // after the client's cleanup, which ends the GET stream
	cli := dial(t, transport.NewStreamableClient(ts.URL, clientOpts), nil)
	waitFor(t, func() bool { mock.mu.Lock(); defer mock.mu.Unlock(); return len(mock.gets) == 1 }) // the GET stream
	var res struct {
		OK bool `json:"ok"`
	}
	if err := cli.Call(testCtx(t), "tools/call", map[string]string{"name": "test_reconnection"}, &res); err != nil || !res.OK {
		t.Fatalf("call: %+v %v", res, err)
	}
	mock.mu.Lock()
	defer mock.mu.Unlock()
	if len(mock.gets) != 2 || mock.gets[1] != "p-1" {
		t.Fatalf("GETs carried Last-Event-ID %q, want [\"\" \"p-1\"]", mock.gets)
	}
	if d := mock.getAt.Sub(mock.closedAt); d < 290*time.Millisecond {
		t.Errorf("reconnected %v after the close, before the 300ms retry", d)
	}
}

func TestStreamableClientLostAnswer(t *testing.T) {
	t.Parallel()
	mock := &retryMock{primes: false}
	ts := httptest.NewServer(mock)
	t.Cleanup(ts.Close) // after the client's cleanup, which ends the GET stream
	cli := dial(t, transport.NewStreamableClient(ts.URL, clientOpts), nil)
	waitFor(t, func() bool { mock.mu.Lock(); defer mock.mu.Unlock(); return len(mock.gets) == 1 }) // the GET stream
	err := cli.Call(testCtx(t), "tools/call", nil, nil)
	// A transport failure, not a JSON-RPC error the server never sent.
	_, isProtocol := errors.AsType[*protocol.Error](err)
	if !errors.Is(err, transport.ErrTransport) || isProtocol || errors.Is(err, protocol.ErrInternal) || !strings.Contains(err.Error(), "cannot be resumed") {
		t.Fatalf("call on a stream cut without an event id: %v", err)
	}
}

func TestStreamableClientHTTPErrors(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="x"`)
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	defer ts.Close()
	conn := transport.NewStreamableClient(ts.URL, clientOpts)
	defer conn.Close()
	err := conn.Write(testCtx(t), &protocol.Request{ID: protocol.Int64ID(1), Method: "initialize", Params: []byte(`{}`)})
	he, ok := errors.AsType[*transport.HTTPError](err)
	if !ok || he.StatusCode != 401 || he.Header.Get("WWW-Authenticate") == "" {
		t.Fatalf("Write: %v", err)
	}
}
