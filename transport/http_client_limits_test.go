package transport_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// readCall reads a POSTed request; ok is false for anything else.
func readCall(r *http.Request) (*protocol.Request, bool) {
	body, _ := io.ReadAll(r.Body)
	msg, err := protocol.DecodeMessage(body)
	req, ok := msg.(*protocol.Request)
	return req, err == nil && ok
}

const initResult = `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"mock","version":"1"}}}`

// An answer stream that the server lets resume but that never brings an
// event fails the call after MaxRetries fruitless resumptions, instead of
// being resumed until the caller's context ends.
func TestStreamableClientGivesUpResumingWithoutProgress(t *testing.T) {
	t.Parallel()
	var resumes atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			if r.Header.Get("Last-Event-ID") == "" {
				w.WriteHeader(http.StatusMethodNotAllowed)
				return
			}
			resumes.Add(1)
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK) // and end at once, with nothing
			return
		}
		req, ok := readCall(r)
		switch {
		case !ok:
			w.WriteHeader(http.StatusBadRequest)
		case !req.IsCall():
			w.WriteHeader(http.StatusAccepted)
		case req.Method == protocol.MethodInitialize:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, initResult, req.ID.Raw())
		default:
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "id: e1\nretry: 5\ndata: \n\n")
		}
	}))
	defer ts.Close()
	opts := *clientOpts
	opts.MaxRetries = 3
	cli := dial(t, transport.NewStreamableClient(ts.URL, &opts), nil)
	err := cli.Call(testCtx(t), "tools/call", nil, nil)
	if !errors.Is(err, transport.ErrTransport) || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("call: %v; want ErrTransport", err)
	}
	if n := resumes.Load(); n > 4 {
		t.Errorf("resumed %d times, want at most MaxRetries+1", n)
	}
}

// legacySSE is a legacy HTTP+SSE server that answers each request, on its
// stream, with the event answers holds for its method (%s: its id).
func legacySSE(t *testing.T, answers map[string]string) *httptest.Server {
	events := make(chan string, 4)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: endpoint\ndata: /message\n\n")
			w.(http.Flusher).Flush()
			for {
				select {
				case ev := <-events:
					io.WriteString(w, ev)
					w.(http.Flusher).Flush()
				case <-r.Context().Done():
					return
				}
			}
		}
		req, ok := readCall(r)
		w.WriteHeader(http.StatusAccepted)
		if ans, found := answers[req.Method]; ok && found {
			events <- fmt.Sprintf(ans, req.ID.Raw())
		}
	}))
	t.Cleanup(ts.Close)
	return ts
}

// On the legacy SSE transport, an event over the limit fails the call it
// answers and the session goes on; one whose id cannot be read ends the
// session with an error saying why (its call could never be answered).
func TestSSEClientEventTooLarge(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("x", 2000)
	ts := legacySSE(t, map[string]string{
		protocol.MethodInitialize: "event: message\ndata: " + initResult + "\n\n",
		"big":                     `data: {"jsonrpc":"2.0","id":%s,"result":{"t":"` + pad + `"}}` + "\n\n",
		"ping":                    `data: {"jsonrpc":"2.0","id":%s,"result":{}}` + "\n\n",
		"big-no-id":               `data: {"jsonrpc":"2.0","result":{"t":"` + pad + `"}}` + "\n\n%.0s",
	})
	opts := *clientOpts
	opts.MaxMessageSize = 1000
	cli := dial(t, transport.NewSSEClient(ts.URL, &opts), nil)
	err := cli.Call(testCtx(t), "big", nil, nil)
	if !errors.Is(err, transport.ErrMessageTooLarge) || errors.Is(err, session.ErrClosed) {
		t.Fatalf("call answered over the limit: %v", err)
	}
	if err := cli.Call(testCtx(t), "ping", nil, nil); err != nil {
		t.Fatalf("next call: %v", err)
	}
	err = cli.Call(testCtx(t), "big-no-id", nil, nil)
	if !errors.Is(err, session.ErrClosed) || !errors.Is(err, transport.ErrMessageTooLarge) || !strings.Contains(err.Error(), "id could not be read") {
		t.Fatalf("call after an unreadable response over the limit: %v", err)
	}
}

// A JSON answer to a batch over the client's limit fails each of the
// batch's calls with a transport error matching ErrMessageTooLarge, as for
// a single call, rather than an error of Batch that says nothing of it.
func TestStreamableClientBatchAnswerTooLarge(t *testing.T) {
	t.Parallel()
	for _, sse := range []bool{false, true} {
		name := map[bool]string{false: "json", true: "sse"}[sse]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost {
					w.WriteHeader(http.StatusMethodNotAllowed)
					return
				}
				body, _ := io.ReadAll(r.Body)
				msg, err := protocol.DecodeMessage(body)
				switch m := msg.(type) {
				case *protocol.Request:
					if !m.IsCall() {
						w.WriteHeader(http.StatusAccepted)
						return
					}
					w.Header().Set("Content-Type", "application/json")
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"mock","version":"1"}}}`, m.ID.Raw())
				case *protocol.Batch:
					answer := fmt.Sprintf(`[{"jsonrpc":"2.0","id":%s,"result":{"text":%q}}]`, m.Messages[0].(*protocol.Request).ID.Raw(), strings.Repeat("x", 8192))
					if sse {
						w.Header().Set("Content-Type", "text/event-stream")
						fmt.Fprintf(w, "event: message\ndata: %s\n\n", answer)
						return
					}
					w.Header().Set("Content-Type", "application/json")
					io.WriteString(w, answer)
				default:
					t.Errorf("unexpected POST %q: %v", body, err)
					w.WriteHeader(http.StatusBadRequest)
				}
			}))
			defer ts.Close()
			opts := *clientOpts
			opts.MaxMessageSize = 4096
			cli := session.New(transport.NewStreamableClient(ts.URL, &opts), session.Options{Role: session.RoleClient, Logger: quiet})
			t.Cleanup(func() { cli.Close() })
			if _, err := cli.Initialize(testCtx(t), &protocol.InitializeParams{ProtocolVersion: protocol.BatchVersion,
				ClientInfo: protocol.Implementation{Name: "c", Version: "1"}}); err != nil {
				t.Fatalf("Initialize: %v", err)
			}
			calls := []*session.BatchCall{{Method: "tools/list"}, {Method: "prompts/list"}}
			if err := cli.Batch(testCtx(t), calls); err != nil {
				t.Fatalf("Batch: %v, want the calls to fail one by one", err)
			}
			for _, c := range calls {
				if !errors.Is(c.Err, transport.ErrMessageTooLarge) || !errors.Is(c.Err, transport.ErrTransport) {
					t.Errorf("%s: %v, want ErrMessageTooLarge and ErrTransport", c.Method, c.Err)
				}
			}
		})
	}
}
