package transport_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// recordingStore is a MemoryEventStore that records the appends it gets,
// notes any that break the EventStore contract (out of order, or two at
// once on one stream), and holds those whose data contains hold until
// release is closed. A held append ignores its ctx's cancellation, like a
// Redis round trip stuck on the network, which the client library bounds
// with its own timeouts rather than the ctx's cancellation.
type recordingStore struct {
	*transport.MemoryEventStore
	hold    []byte
	entered chan struct{} // one value per held append
	release chan struct{}
	delay   time.Duration // every append takes this long

	mu       sync.Mutex
	appends  map[string][]int64 // stream → seqs, in the order appended
	inFlight map[string]int
	broken   []string
}

func newRecordingStore(hold string) *recordingStore {
	s := &recordingStore{
		MemoryEventStore: transport.NewMemoryEventStore(nil),
		entered:          make(chan struct{}, 16),
		release:          make(chan struct{}),
		appends:          map[string][]int64{},
		inFlight:         map[string]int{},
	}
	if hold != "" {
		s.hold = []byte(hold)
	}
	return s
}

func (s *recordingStore) Append(ctx context.Context, session, stream string, seq int64, data []byte) error {
	s.mu.Lock()
	if s.inFlight[stream] > 0 {
		s.broken = append(s.broken, fmt.Sprintf("stream %s: append %d while another runs", stream, seq))
	}
	if l := s.appends[stream]; seq != int64(len(l))+1 {
		s.broken = append(s.broken, fmt.Sprintf("stream %s: append %d after %v", stream, seq, l))
	}
	s.inFlight[stream]++
	s.appends[stream] = append(s.appends[stream], seq)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight[stream]--
		s.mu.Unlock()
	}()
	if s.hold != nil && bytes.Contains(data, s.hold) {
		s.entered <- struct{}{}
		select {
		case <-s.release:
		case <-time.After(time.Minute): // a fail-safe: the test has failed by then
		}
	}
	if s.delay > 0 {
		time.Sleep(s.delay)
	}
	return s.MemoryEventStore.Append(ctx, session, stream, seq, data)
}

// total returns how many appends the store got.
func (s *recordingStore) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.appends {
		n += len(l)
	}
	return n
}

func (s *recordingStore) check(t *testing.T) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.broken {
		t.Error(b)
	}
}

// sessionHeaders are the headers of a raw request in session sid.
func sessionHeaders(sid string) map[string]string {
	return map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
}

// newPost returns a raw POST of body in the session of hdr, accepting
// both media types.
func newPost(ctx context.Context, url, body string, hdr map[string]string) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	return req
}

// newResume returns a raw GET resuming after the event lastID.
func newResume(url, lastID string, hdr map[string]string) *http.Request {
	get, _ := http.NewRequest(http.MethodGet, url, nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set("Last-Event-ID", lastID)
	for k, v := range hdr {
		get.Header.Set(k, v)
	}
	return get
}

func sseEvents(t *testing.T, body string) []transport.SSEEventForTest {
	t.Helper()
	evs, _ := transport.ParseSSEForTest(strings.NewReader(body), 1<<20)
	return evs
}

// TestPOSTAnswerJSONFirst checks, over a real server, when the answer to a
// POSTed request is one JSON body and when an SSE stream: JSON when the
// response is the first message and comes within JSONWindow (nothing is
// stored then), SSE when a message comes first (every event stored and
// resumable) or the window passes (the stream is primed at once), and SSE
// always with a negative window.
func TestPOSTAnswerJSONFirst(t *testing.T) {
	t.Parallel()
	t.Run("response first", func(t *testing.T) {
		t.Parallel()
		store := newRecordingStore("")
		// A window no loaded machine can miss: the test is about the choice.
		f := newFixture(t, &transport.HTTPOptions{EventStore: store, JSONWindow: time.Minute}, nil)
		sid := rawSession(t, f.url)
		resp, body := rawPost(t, f.url, `{"jsonrpc":"2.0","id":2,"method":"add","params":{"a":2,"b":2}}`, sessionHeaders(sid))
		if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "application/json" {
			t.Fatalf("answer: %d %q %s, want 200 application/json", resp.StatusCode, ct, body)
		}
		if r, ok := lastMessage(t, body).(*protocol.Response); !ok || string(r.Result) != `{"sum":4}` || strings.Contains(body, "data:") {
			t.Errorf("body = %q, want the bare response", body)
		}
		if n := store.total(); n != 0 {
			t.Errorf("the event store got %d appends for answers sent as JSON (initialize and add), want 0", n)
		}
		// Any media type the client accepts with */* is fine too.
		resp, body = rawPost(t, f.url, `{"jsonrpc":"2.0","id":3,"method":"add","params":{"a":1,"b":2}}`, map[string]string{"Mcp-Session-Id": sid, "Accept": "*/*"})
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("Accept */*: %d %q %s", resp.StatusCode, ct, body)
		}
	})
	t.Run("message first", func(t *testing.T) {
		t.Parallel()
		store := newRecordingStore("")
		f := newFixture(t, &transport.HTTPOptions{EventStore: store, JSONWindow: time.Minute}, nil)
		sid := rawSession(t, f.url)
		resp, body := rawPost(t, f.url, `{"jsonrpc":"2.0","id":2,"method":"chatty","params":{"n":2,"_meta":{"progressToken":"p"}}}`, sessionHeaders(sid))
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Fatalf("answer: %d %q, want text/event-stream", resp.StatusCode, ct)
		}
		evs := sseEvents(t, body)
		// The priming event, 2 progress and 2 log notifications, the response.
		if len(evs) != 6 || evs[0].Data != "" || !evs[0].HasID {
			t.Fatalf("events = %+v, want a priming event then 5 messages", evs)
		}
		name, _, _ := strings.Cut(evs[0].ID, "_")
		for i, ev := range evs[1:] {
			if want := name + "_" + strconv.Itoa(i+1); ev.ID != want {
				t.Errorf("event %d has id %q, want %q", i+1, ev.ID, want)
			}
		}
		if got := store.total(); got != 5 {
			t.Errorf("the event store got %d appends, want the 5 messages", got)
		}
		// Resumable: a client that saw up to the second message gets the rest.
		gresp, gbody := do(t, newResume(f.url, evs[2].ID, sessionHeaders(sid)))
		rest := sseEvents(t, gbody)
		if gresp.StatusCode != http.StatusOK || len(rest) != 3 || rest[0].ID != evs[3].ID || rest[2].Data != evs[5].Data {
			t.Errorf("resumed after %s: %d %+v, want events 3 to 5", evs[2].ID, gresp.StatusCode, rest)
		}
		store.check(t)
	})
	t.Run("window passes", func(t *testing.T) {
		t.Parallel()
		release := make(chan struct{})
		store := newRecordingStore("")
		f := newFixture(t, &transport.HTTPOptions{EventStore: store}, newTestServer(release, nil))
		sid := rawSession(t, f.url)
		// The default window (2 ms) may pass for initialize too on a
		// loaded machine, which stores its answer: count from here.
		before := store.total()
		req := newPost(context.Background(), f.url, `{"jsonrpc":"2.0","id":7,"method":"block"}`, sessionHeaders(sid))
		resp, err := http.DefaultClient.Do(req) // the headers come while the call runs
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Fatalf("a slow call's answer: %q, want text/event-stream", ct)
		}
		first, _ := transport.ParseSSEForTest(&firstEvent{r: resp.Body}, 1<<20)
		if len(first) != 1 || !first[0].HasID || first[0].Data != "" {
			t.Fatalf("first event = %+v, want the priming event", first)
		}
		close(release)
		rest, _ := transport.ParseSSEForTest(resp.Body, 1<<20)
		if len(rest) != 1 || !strings.HasSuffix(rest[0].ID, "_1") {
			t.Fatalf("then %+v, want the response as event 1", rest)
		}
		if got := store.total() - before; got != 1 {
			t.Errorf("the event store got %d appends for the call, want the response", got)
		}
	})
	t.Run("negative window", func(t *testing.T) {
		t.Parallel()
		store := newRecordingStore("")
		f := newFixture(t, &transport.HTTPOptions{EventStore: store, JSONWindow: -1}, nil)
		sid := rawSession(t, f.url)
		resp, body := rawPost(t, f.url, `{"jsonrpc":"2.0","id":2,"method":"add","params":{"a":2,"b":2}}`, sessionHeaders(sid))
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Fatalf("answer: %q %s, want text/event-stream", ct, body)
		}
		if evs := sseEvents(t, body); len(evs) != 2 || !strings.HasSuffix(evs[1].ID, "_1") {
			t.Errorf("events = %+v, want the priming event and the response", evs)
		}
	})
	t.Run("accept", func(t *testing.T) {
		t.Parallel()
		// The specification has the client accept both; one that does not
		// is refused before anything runs, so it never gets a media type it
		// did not list.
		f := newFixture(t, nil, nil)
		sid := rawSession(t, f.url)
		for _, accept := range []string{"text/event-stream", "application/json"} {
			resp, body := rawPost(t, f.url, `{"jsonrpc":"2.0","id":2,"method":"add","params":{"a":2,"b":2}}`, map[string]string{"Mcp-Session-Id": sid, "Accept": accept})
			if resp.StatusCode != http.StatusNotAcceptable {
				t.Errorf("Accept %s: %d %s, want 406", accept, resp.StatusCode, body)
			}
		}
	})
}

// gatedServer is the test server plus:
//
//	gated → sends a log message "hold", then {sum: 7}
//	burst {n} → sends n log messages from n goroutines at once, then {sum: n}
func gatedServer() *lowlevel.Server {
	srv := newTestServer(nil, nil)
	srv.HandleFunc("gated", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		if err := req.Session.Notify(ctx, protocol.NotificationMessage, &protocol.LoggingMessageParams{Level: protocol.LevelInfo, Data: []byte(`"hold"`)}); err != nil {
			return nil, err
		}
		return addResult{Sum: 7}, nil
	})
	srv.HandleFunc("burst", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		var p struct {
			N int `json:"n"`
		}
		_ = protocol.Unmarshal(req.Params, &p)
		var wg sync.WaitGroup
		for i := range p.N {
			wg.Go(func() {
				_ = req.Session.Notify(ctx, protocol.NotificationMessage, &protocol.LoggingMessageParams{Level: protocol.LevelInfo, Data: []byte(strconv.Quote("b" + strconv.Itoa(i)))})
			})
		}
		wg.Wait()
		return addResult{Sum: p.N}, nil
	})
	return srv
}

// within runs f and fails the test when it has not returned after a
// bound far above what it takes (it is blocked, not slow).
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Errorf("%s is blocked while another stream's event is being stored", what)
	}
}

// TestSlowEventStoreHoldsOnlyItsStream: while the event store holds an
// append of one request's stream, the session's other streams, a
// cancellation of that request and the end of the session go on; the
// stream lock is not held across EventStore.Append.
func TestSlowEventStoreHoldsOnlyItsStream(t *testing.T) {
	t.Parallel()
	store := newRecordingStore(`"hold"`)
	f := newFixture(t, &transport.HTTPOptions{EventStore: store}, gatedServer())
	sid := rawSession(t, f.url)
	hdr := sessionHeaders(sid)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gated := make(chan struct{})
	go func() {
		defer close(gated)
		req := newPost(ctx, f.url, `{"jsonrpc":"2.0","id":10,"method":"gated"}`, hdr)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	defer func() { <-gated }()
	defer close(store.release)
	<-store.entered

	within(t, "a call on another stream that stores its events", func() {
		resp, body := rawPost(t, f.url, `{"jsonrpc":"2.0","id":11,"method":"chatty","params":{"n":1,"_meta":{"progressToken":"p"}}}`, hdr)
		if r, ok := lastMessage(t, body).(*protocol.Response); resp.StatusCode != http.StatusOK || !ok || string(r.Result) != `{"sum":1}` {
			t.Errorf("chatty: %d %s", resp.StatusCode, body)
		}
	})
	within(t, "cancelling the request", func() {
		resp, body := rawPost(t, f.url, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":10}}`, hdr)
		if resp.StatusCode != http.StatusAccepted {
			t.Errorf("cancel: %d %s", resp.StatusCode, body)
		}
	})
	within(t, "ending the session", func() {
		req, _ := http.NewRequest(http.MethodDelete, f.url, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		if resp, body := do(t, req); resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNoContent {
			t.Errorf("DELETE: %d %s", resp.StatusCode, body)
		}
	})
	store.check(t)
}

// TestEventOrderWithConcurrentSenders: messages sent at once by many
// goroutines on one stream, through a slow store, are stored one at a
// time in sequence order and reach the client in that order, each once,
// also when the client drops the connection and resumes meanwhile.
func TestEventOrderWithConcurrentSenders(t *testing.T) {
	t.Parallel()
	const n = 16
	store := newRecordingStore("")
	store.delay = 200 * time.Microsecond
	f := newFixture(t, &transport.HTTPOptions{EventStore: store}, gatedServer())
	sid := rawSession(t, f.url)
	hdr := sessionHeaders(sid)
	for round := range 4 {
		id := 100 + round
		req := newPost(context.Background(), f.url, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"burst","params":{"n":%d}}`, id, n), hdr)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got []transport.SSEEventForTest
		if round%2 == 0 {
			got, _ = transport.ParseSSEForTest(resp.Body, 1<<20) // the whole stream
		} else {
			// Drop the connection after the first message and resume
			// while the rest are being stored.
			for len(got) < 2 {
				evs, _ := transport.ParseSSEForTest(&firstEvent{r: resp.Body}, 1<<20)
				if len(evs) == 0 {
					t.Fatal("the stream ended early")
				}
				got = append(got, evs...)
			}
			resp.Body.Close()
			_, body := do(t, newResume(f.url, got[len(got)-1].ID, hdr))
			got = append(got, sseEvents(t, body)...)
		}
		resp.Body.Close()
		var ids []string
		for _, ev := range got {
			if ev.Data != "" {
				ids = append(ids, ev.ID)
			}
		}
		name, _, _ := strings.Cut(got[0].ID, "_")
		if len(ids) != n+1 {
			t.Errorf("round %d: got %d messages %v, want %d", round, len(ids), ids, n+1)
			continue
		}
		for i, got := range ids {
			if want := name + "_" + strconv.Itoa(i+1); got != want {
				t.Errorf("round %d: message %d has id %q, want %q (all: %v)", round, i+1, got, want, ids)
				break
			}
		}
		if r, ok := lastMessage(t, "data: "+got[len(got)-1].Data).(*protocol.Response); !ok || r.ID.Raw() != strconv.Itoa(id) {
			t.Errorf("round %d: the last message is %s, want the response", round, got[len(got)-1].Data)
		}
	}
	store.check(t)
}
