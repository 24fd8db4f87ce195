package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// initRaw does the handshake of a raw peer at version.
func initRaw(p *rawPeer, version string) {
	p.t.Helper()
	p.send(&protocol.Request{ID: protocol.Int64ID(0), Method: protocol.MethodInitialize,
		Params: json.RawMessage(`{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)})
	if r := p.recv().(*protocol.Response); r.Error != nil {
		p.t.Fatalf("initialize: %v", r.Error)
	}
	p.send(&protocol.Request{Method: protocol.NotificationInitialized})
}

func echoCall(id int64, n, delay int) *protocol.Request {
	return &protocol.Request{ID: protocol.Int64ID(id), Method: "echo", Params: json.RawMessage(`{"n":` + strconv.Itoa(n) + `,"delay":` + strconv.Itoa(delay) + `}`)}
}

// responseIDs returns the ids of the responses in a batch, sorted.
func responseIDs(t *testing.T, m protocol.Message) []string {
	t.Helper()
	b, ok := m.(*protocol.Batch)
	if !ok {
		t.Fatalf("answer %#v, want a batch", m)
	}
	var ids []string
	for _, e := range b.Messages {
		r, ok := e.(*protocol.Response)
		if !ok {
			t.Fatalf("batch answer holds %#v", e)
		}
		ids = append(ids, r.ID.Raw())
	}
	slices.Sort(ids)
	return ids
}

// TestBatchCallCancelledByPeer checks that a call of a batch cancelled by
// the peer gets no response, and the others of the batch still come, in
// one answer.
func TestBatchCallCancelledByPeer(t *testing.T) {
	t.Parallel()
	p, _ := newRaw(t, echo)
	initRaw(p, protocol.Version20250326)
	p.send(&protocol.Batch{Messages: []protocol.Message{echoCall(1, 1, 60000), echoCall(2, 2, 0), echoCall(3, 3, 50)}})
	p.send(&protocol.Request{Method: protocol.NotificationCancelled, Params: json.RawMessage(`{"requestId":1}`)})
	if got := responseIDs(t, p.recv()); !slices.Equal(got, []string{"2", "3"}) {
		t.Fatalf("batch answered ids %v, want [2 3]", got)
	}
}

// TestBatchAllCancelledWritesNothing checks that a batch whose calls were
// all cancelled gets no answer at all (a transport writes nothing for the
// empty batch the session hands it).
func TestBatchAllCancelledWritesNothing(t *testing.T) {
	t.Parallel()
	cc, sc := transport.NewPipe()
	srv := session.New(sc, session.Options{Role: session.RoleServer, Handler: withInitialize(echo), Logger: quiet})
	t.Cleanup(func() { srv.Close() })
	p := &rawPeer{t: t, conn: cc}
	initRaw(p, protocol.Version20250326)
	p.send(&protocol.Batch{Messages: []protocol.Message{echoCall(1, 1, 60000)}})
	p.send(&protocol.Request{Method: protocol.NotificationCancelled, Params: json.RawMessage(`{"requestId":1}`)})
	m := p.recv()
	if b, ok := m.(*protocol.Batch); !ok || len(b.Messages) != 0 {
		t.Fatalf("answer %#v, want the empty batch", m)
	}
	if enc, err := protocol.EncodeMessage(m); err != nil || len(enc) != 0 {
		t.Fatalf("the empty batch encodes as %q, %v; want nothing", enc, err)
	}
}

// rawClientPeer is a raw server for a client session: it answers
// initialize at version and hands every later message to the test.
func rawClientPeer(t *testing.T, version string) (*rawPeer, *session.Session) {
	t.Helper()
	cc, sc := transport.NewPipe()
	cli := session.New(cc, session.Options{Role: session.RoleClient, Logger: quiet})
	t.Cleanup(func() { cli.Close() })
	p := &rawPeer{t: t, conn: sc}
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err := cli.Initialize(ctx, &protocol.InitializeParams{ProtocolVersion: version, ClientInfo: protocol.Implementation{Name: "c", Version: "1"}})
		done <- err
	}()
	init := p.recv().(*protocol.Request)
	p.send(&protocol.Response{ID: init.ID, Result: json.RawMessage(`{"protocolVersion":"` + version + `","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`)})
	if err := <-done; err != nil {
		t.Fatalf("Initialize: %v", err)
	}
	if n := p.recv().(*protocol.Request); n.Method != protocol.NotificationInitialized {
		t.Fatalf("got %s, want notifications/initialized", n.Method)
	}
	return p, cli
}

// TestClientBatchRefusedByPeer checks that a batch the peer refuses with
// one error response without an id fails Batch with that error, rather
// than waiting for responses that will never come.
func TestClientBatchRefusedByPeer(t *testing.T) {
	t.Parallel()
	p, cli := rawClientPeer(t, protocol.Version20250326)
	calls := []*session.BatchCall{{Method: "a"}, {Method: "b"}}
	res := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		res <- cli.Batch(ctx, calls)
	}()
	if b, ok := p.recv().(*protocol.Batch); !ok || len(b.Messages) != 2 {
		t.Fatalf("the peer got %#v, want a batch of 2", b)
	}
	p.send(&protocol.Response{Error: protocol.NewError(protocol.CodeInvalidRequest, "Invalid Request: a message must be a JSON object")})
	err := <-res
	var pe *protocol.Error
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("Batch = %v, want the refusal", err)
	}
	for _, c := range calls {
		if !errors.Is(c.Err, pe) {
			t.Errorf("call %s: %v, want the refusal", c.Method, c.Err)
		}
	}
}

// TestClientBatchCancelled checks that when ctx ends first Batch returns,
// the answered calls keep their results, and the others are cancelled
// with notifications/cancelled.
func TestClientBatchCancelled(t *testing.T) {
	t.Parallel()
	p, cli := rawClientPeer(t, protocol.Version20250326)
	var first map[string]int
	calls := []*session.BatchCall{{Method: "a", Result: &first}, {Method: "b"}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res := make(chan error, 1)
	go func() { res <- cli.Batch(ctx, calls) }()
	b := p.recv().(*protocol.Batch)
	a := b.Messages[0].(*protocol.Request)
	p.send(&protocol.Batch{Messages: []protocol.Message{&protocol.Response{ID: a.ID, Result: json.RawMessage(`{"n":1}`)}}})
	// The client reads in order: once it answers a ping sent after the
	// response, the response has been delivered.
	p.send(&protocol.Request{ID: protocol.StringID("ping"), Method: protocol.MethodPing})
	if r, ok := p.recv().(*protocol.Response); !ok || r.ID != protocol.StringID("ping") {
		t.Fatalf("ping answered %#v", r)
	}
	cancel()
	if err := <-res; !errors.Is(err, context.Canceled) {
		t.Fatalf("Batch = %v, want context.Canceled", err)
	}
	if calls[0].Err != nil || first["n"] != 1 {
		t.Errorf("answered call: %v %v", calls[0].Err, first)
	}
	if !errors.Is(calls[1].Err, context.Canceled) {
		t.Errorf("unanswered call: %v, want context.Canceled", calls[1].Err)
	}
	bID := b.Messages[1].(*protocol.Request).ID
	n, ok := p.recv().(*protocol.Request)
	if !ok || n.Method != protocol.NotificationCancelled || !strings.Contains(string(n.Params), `"requestId":`+bID.Raw()) {
		t.Fatalf("after the cancellation the peer got %#v, want notifications/cancelled for %s", n, bID.Raw())
	}
}
