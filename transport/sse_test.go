package transport_test

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/transport"
)

// newSSEFixture serves the legacy HTTP+SSE transport at /sse (GET) and
// /message (POST), beside a Streamable HTTP endpoint at /mcp.
func newSSEFixture(t testing.TB, opts *transport.SSEOptions) (*httptest.Server, *transport.SSEHandler) {
	t.Helper()
	srv := newTestServer(nil, nil)
	var o transport.SSEOptions
	if opts != nil {
		o = *opts
	}
	o.Logger = quiet
	sse := transport.NewSSEHandler(srv.Connect, &o)
	streamable := transport.NewStreamableHandler(srv.Connect, &transport.HTTPOptions{Logger: quiet})
	mux := http.NewServeMux()
	mux.Handle("/sse", sse)
	mux.Handle("/message", sse)
	mux.Handle("/mcp", streamable)
	ts := httptest.NewServer(mux)
	t.Cleanup(func() {
		sse.Close()
		streamable.Close()
		ts.Close()
	})
	return ts, sse
}

func TestSSETransport(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		opts transport.SSEOptions
	}{
		{"separate message path", transport.SSEOptions{MessagePath: "/message"}},
		{"same path", transport.SSEOptions{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts, _ := newSSEFixture(t, &tt.opts)
			conn := transport.NewSSEClient(ts.URL+"/sse", clientOpts)
			cli := dial(t, conn, &clientRecorder{})
			want := "/sse?sessionId="
			if tt.opts.MessagePath != "" {
				want = "/message?sessionId="
			}
			if ep := conn.Endpoint(); !strings.HasPrefix(ep, ts.URL+want) {
				t.Errorf("endpoint %q, want prefix %q", ep, ts.URL+want)
			}
			for i := range 5 {
				add(t, cli, i, i)
			}
			// Server-to-client requests and notifications ride the stream.
			var res struct {
				Model string `json:"model"`
			}
			if err := cli.Call(testCtx(t), "sample", nil, &res); err != nil || res.Model != "m" {
				t.Fatalf("sample: %+v %v", res, err)
			}
			var sum addResult
			if err := cli.Call(testCtx(t), "chatty", map[string]int{"n": 3}, &sum); err != nil || sum.Sum != 3 {
				t.Fatalf("chatty: %+v %v", sum, err)
			}
		})
	}
}

func TestSSEServerStatusCodes(t *testing.T) {
	t.Parallel()
	ts, _ := newSSEFixture(t, &transport.SSEOptions{MessagePath: "/message", MaxBodyBytes: 256})
	// Open a session by hand and read the endpoint event.
	resp, err := http.Get(ts.URL + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	buf := make([]byte, 256)
	n, _ := resp.Body.Read(buf)
	first := string(buf[:n])
	if !strings.HasPrefix(first, "event: endpoint\ndata: /message?sessionId=") {
		t.Fatalf("first event %q", first)
	}
	ep := strings.TrimSpace(strings.TrimPrefix(strings.Split(first, "\n")[1], "data: "))
	for _, tt := range []struct {
		name, url, ct, body string
		status              int
	}{
		{"ok", ts.URL + ep, "application/json", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 202},
		{"no session", ts.URL + "/message", "application/json", `{}`, 400},
		{"unknown session", ts.URL + "/message?sessionId=nope", "application/json", `{}`, 404},
		{"bad content type", ts.URL + ep, "text/plain", `{}`, 415},
		{"bad JSON", ts.URL + ep, "application/json", `{`, 400},
		{"too large", ts.URL + ep, "application/json", `{"x":"` + strings.Repeat("a", 300) + `"}`, 413},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := http.Post(tt.url, tt.ct, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(r.Body)
			r.Body.Close()
			if r.StatusCode != tt.status {
				t.Errorf("status %d, want %d: %s", r.StatusCode, tt.status, b)
			}
		})
	}
	// Host protection applies here too.
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/sse", nil)
	req.Host = "evil.example.com"
	if r, _ := do(t, req); r.StatusCode != http.StatusForbidden {
		t.Errorf("evil host: %d", r.StatusCode)
	}
}

func TestSSESessionEndsWithStream(t *testing.T) {
	t.Parallel()
	ts, _ := newSSEFixture(t, &transport.SSEOptions{MessagePath: "/message"})
	conn := transport.NewSSEClient(ts.URL+"/sse", clientOpts)
	cli := dial(t, conn, nil)
	ep := conn.Endpoint()
	cli.Close()
	waitFor(t, func() bool {
		r, err := http.Post(ep, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r.StatusCode == http.StatusNotFound
	})
}

func TestFallbackClient(t *testing.T) {
	t.Parallel()
	ts, _ := newSSEFixture(t, &transport.SSEOptions{MessagePath: "/message"})
	t.Run("legacy SSE server", func(t *testing.T) {
		t.Parallel()
		conn := transport.NewFallbackClient(ts.URL+"/sse", clientOpts)
		cli := dial(t, conn, nil)
		if _, ok := conn.Conn().(*transport.SSEClient); !ok {
			t.Fatalf("chose %T, want *SSEClient", conn.Conn())
		}
		add(t, cli, 1, 2)
	})
	t.Run("streamable server", func(t *testing.T) {
		t.Parallel()
		conn := transport.NewFallbackClient(ts.URL+"/mcp", clientOpts)
		cli := dial(t, conn, nil)
		sc, ok := conn.Conn().(*transport.StreamableClient)
		if !ok {
			t.Fatalf("chose %T, want *StreamableClient", conn.Conn())
		}
		// The engine's negotiated revision reaches the chosen transport
		// through the FallbackClient, for the MCP-Protocol-Version header.
		if got := sc.ProtocolVersion(); got != protocol.LatestLegacyVersion {
			t.Errorf("ProtocolVersion() = %q, want %q", got, protocol.LatestLegacyVersion)
		}
		add(t, cli, 1, 2)
	})
	t.Run("nothing there", func(t *testing.T) {
		t.Parallel()
		conn := transport.NewFallbackClient(ts.URL+"/nothing", clientOpts)
		defer conn.Close()
		err := conn.Write(testCtx(t), &protocol.Request{ID: protocol.Int64ID(1), Method: "initialize", Params: []byte(`{}`)})
		if he, ok := errors.AsType[*transport.HTTPError](err); !ok || he.StatusCode != http.StatusNotFound {
			t.Fatalf("Write: %v", err)
		}
	})
}

func TestSSEParser(t *testing.T) {
	t.Parallel()
	type ev = transport.SSEEventForTest
	tests := []struct {
		name string
		in   string
		want []ev
	}{
		{"simple", "data: hello\n\n", []ev{{Data: "hello"}}},
		{"multi-line data", "data: a\ndata: b\ndata\n\n", []ev{{Data: "a\nb\n"}}},
		{"event type and id", "event: endpoint\nid: 7\ndata: /m\n\n", []ev{{Type: "endpoint", ID: "7", HasID: true, Data: "/m"}}},
		{"id persists", "id: 1\ndata: a\n\ndata: b\n\n", []ev{{ID: "1", HasID: true, Data: "a"}, {ID: "1", Data: "b"}}},
		{"priming", "id: s_0\nretry: 500\ndata: \n\n", []ev{{ID: "s_0", HasID: true, Retry: 500 * time.Millisecond}}},
		{"comments skipped", ": keep-alive\n\n: x\ndata: a\n\n", []ev{{Data: "a"}}},
		{"CRLF", "data: a\r\nid: 2\r\n\r\n", []ev{{Data: "a", ID: "2", HasID: true}}},
		{"CR only", "data: a\rdata: b\r\r", []ev{{Data: "a\nb"}}},
		{"no space after colon", "data:x\n\n", []ev{{Data: "x"}}},
		{"two spaces keep one", "data:  x\n\n", []ev{{Data: " x"}}},
		{"bad retry ignored", "retry: 1a\ndata: a\n\n", []ev{{Data: "a"}}},
		{"id with NUL ignored", "id: a\x00b\ndata: a\n\n", []ev{{Data: "a"}}},
		{"BOM", "\xef\xbb\xbfdata: a\n\n", []ev{{Data: "a"}}},
		{"unterminated event dropped", "data: a\n\ndata: b\n", []ev{{Data: "a"}}},
		{"unknown field", "foo: bar\ndata: a\n\n", []ev{{Data: "a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := transport.ParseSSEForTest(strings.NewReader(tt.in), 1<<20)
			if !errors.Is(err, io.EOF) {
				t.Errorf("error %v, want EOF", err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("event %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
	// One byte at a time gives the same events.
	in := "id: 1\r\nevent: message\r\ndata: {\"a\":1}\r\n\r\n: c\rdata: x\r\r"
	whole, _ := transport.ParseSSEForTest(strings.NewReader(in), 1<<20)
	split, _ := transport.ParseSSEForTest(&oneByte{r: strings.NewReader(in)}, 1<<20)
	if len(whole) != 2 || len(split) != 2 || whole[0] != split[0] || whole[1] != split[1] {
		t.Errorf("whole %+v, one byte at a time %+v", whole, split)
	}
	// Oversized lines and events are skipped to the end of the event and
	// reported with their message's id; the stream goes on.
	big := `{"jsonrpc":"2.0","id":7,"result":{"text":"` + strings.Repeat("a", 100) + `"}}`
	for name, in := range map[string]string{
		"line":       "id: e1\ndata: " + big + "\n\n",
		"event":      "id: e1\ndata: " + big[:40] + "\ndata: " + big[40:] + "\n\n",
		"lines":      "id: e1\ndata: " + big + "\ndata: " + big + "\n\n",
		"id first":   "data: " + big + "\nid: e1\n\n",
		"one by one": "id: e1\n" + strings.Repeat("data: aaaaaaaaaa\n", 10) + "\n",
	} {
		for _, r := range []io.Reader{strings.NewReader(in + "data: next\n\n"), &oneByte{r: strings.NewReader(in + "data: next\n\n")}} {
			got, err := transport.ParseSSEForTest(r, 50)
			if !errors.Is(err, io.EOF) || len(got) != 2 || !got[0].TooLarge || got[0].Data != "" || got[0].ID != "e1" || got[1].Data != "next" || got[1].TooLarge {
				t.Errorf("%s: %+v, %v", name, got, err)
				continue
			}
			want := "7"
			if name == "one by one" || name == "lines" { // no message, or two: no id
				want = "null"
			}
			if got[0].TooLargeID != want {
				t.Errorf("%s: id %q, want %q", name, got[0].TooLargeID, want)
			}
		}
	}
}

type oneByte struct{ r io.Reader }

func (o *oneByte) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	return o.r.Read(p[:1])
}

func FuzzSSE(f *testing.F) {
	for _, s := range []string{
		"data: hello\n\n",
		"event: endpoint\nid: 7\ndata: /m?sessionId=x\n\n",
		"id: 1_0\nretry: 1000\ndata: \n\n: keep-alive\n\n",
		"data: a\r\ndata: b\r\r\n\r\n",
		"\xef\xbb\xbfdata:x\rretry:99999999999999\n\n",
		"id: a\x00b\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		events, err := transport.ParseSSEForTest(bytes.NewReader(data), 256)
		if err == nil {
			t.Fatal("parser returned no error at the end of the input")
		}
		for _, ev := range events {
			if len(ev.Data) > 256 {
				t.Fatalf("event data of %d bytes passed a 256-byte limit", len(ev.Data))
			}
			if ev.Retry < 0 {
				t.Fatalf("negative retry %v", ev.Retry)
			}
		}
		// Byte-at-a-time reading parses the same events.
		split, _ := transport.ParseSSEForTest(&oneByte{r: bytes.NewReader(data)}, 256)
		if len(split) != len(events) {
			t.Fatalf("%d events whole, %d byte by byte", len(events), len(split))
		}
		for i := range split {
			if split[i] != events[i] {
				t.Fatalf("event %d: %+v whole, %+v byte by byte", i, events[i], split[i])
			}
		}
	})
}

func TestMemoryEventStore(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	s := transport.NewMemoryEventStore(&transport.MemoryEventStoreOptions{MaxEvents: 4})
	for i := int64(1); i <= 3; i++ {
		if err := s.Append(ctx, "s1", "1", i, []byte{byte('a' + i - 1)}); err != nil {
			t.Fatal(err)
		}
		_ = s.Append(ctx, "s1", "2", i, []byte("x"))
	}
	var got []string
	err := s.Replay(ctx, "s1", "2", 1, func(seq int64, data []byte) error {
		got = append(got, string(data))
		return nil
	})
	if err != nil || strings.Join(got, ",") != "x,x" {
		t.Fatalf("replay stream 2 after 1: %v %v", got, err)
	}
	// Six events were appended with room for four: stream 1's first events
	// are gone.
	if err := s.Replay(ctx, "s1", "1", 0, func(int64, []byte) error { return nil }); !errors.Is(err, store.ErrEventsLost) {
		t.Errorf("replay of evicted events: %v", err)
	}
	got = nil
	if err := s.Replay(ctx, "s1", "1", 2, func(_ int64, d []byte) error { got = append(got, string(d)); return nil }); err != nil || strings.Join(got, ",") != "c" {
		t.Errorf("replay after 2: %v %v", got, err)
	}
	if n := transport.StoredEventsForTest(s); n != 4 {
		t.Errorf("%d events stored, want 4", n)
	}
	_ = s.DeleteSession(ctx, "s1")
	if n := transport.StoredEventsForTest(s); n != 0 {
		t.Errorf("%d events after DeleteSession", n)
	}
	// The byte bound.
	b := transport.NewMemoryEventStore(&transport.MemoryEventStoreOptions{MaxBytes: 10})
	for i := int64(1); i <= 5; i++ {
		_ = b.Append(ctx, "s", "1", i, []byte("12345"))
	}
	if n := transport.StoredEventsForTest(b); n != 2 {
		t.Errorf("%d events under a 10-byte bound, want 2", n)
	}
}

// TestMemoryEventStoreManyStreams: a session with many more streams than
// MaxEvents keeps a bounded record of discarded events, and still reports
// the lost events of the streams of the last MaxEvents discards.
func TestMemoryEventStoreManyStreams(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	lost := func(s *transport.MemoryEventStore, stream string, after int64) bool {
		return errors.Is(s.Replay(ctx, "s", stream, after, func(int64, []byte) error { return nil }), store.ErrEventsLost)
	}
	s := transport.NewMemoryEventStore(&transport.MemoryEventStoreOptions{MaxEvents: 4})
	for i := range 1000 {
		name := strconv.Itoa(i + 1)
		_ = s.Append(ctx, "s", name, 1, []byte("a"))
		_ = s.Append(ctx, "s", name, 2, []byte("b"))
	}
	if n := transport.EvictionRecordsForTest(s, "s"); n > 4 {
		t.Errorf("discard records of %d streams, want at most 4", n)
	}
	// Streams 999 and 1000 are stored, 997 and 998 were discarded last.
	if !lost(s, "998", 0) || !lost(s, "998", 1) || lost(s, "998", 2) {
		t.Errorf("stream 998: lost after 0, 1, 2 = %v, %v, %v; want true, true, false", lost(s, "998", 0), lost(s, "998", 1), lost(s, "998", 2))
	}
	if !lost(s, "997", 1) || lost(s, "999", 0) {
		t.Errorf("lost: stream 997 after 1 %v (want true), stream 999 after 0 %v (want false)", lost(s, "997", 1), lost(s, "999", 0))
	}
	if lost(s, "5", 0) {
		t.Error("stream 5, forgotten, reported lost") // as documented
	}

	// A stream discarded again keeps its record.
	s = transport.NewMemoryEventStore(&transport.MemoryEventStoreOptions{MaxEvents: 2})
	for _, e := range []struct {
		stream string
		seq    int64
	}{{"0", 1}, {"a", 1}, {"0", 2}, {"b", 1}, {"c", 1}, {"d", 1}} {
		_ = s.Append(ctx, "s", e.stream, e.seq, []byte("x"))
	}
	// Discarded, in order: 0/1, a/1, 0/2, b/1; the last two are recorded.
	if !lost(s, "0", 1) || !lost(s, "b", 0) || lost(s, "a", 0) {
		t.Errorf("lost: 0 after 1 %v, b after 0 %v, a after 0 %v; want true, true, false", lost(s, "0", 1), lost(s, "b", 0), lost(s, "a", 0))
	}
	if n := transport.EvictionRecordsForTest(s, "s"); n != 2 {
		t.Errorf("discard records of %d streams, want 2", n)
	}
}
