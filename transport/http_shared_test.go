package transport_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/pubsub"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/transport"
)

// replica is one of the servers of a cluster sharing sessions.
type replica struct {
	srv     *lowlevel.Server
	handler *transport.StreamableHandler
	ts      *httptest.Server
	url     string
	down    atomic.Bool // the balancer sends it nothing
}

// cluster is several replicas of a server sharing a session store, a bus
// and an event store, behind a balancer (front) whose route function
// picks the replica of each request.
type cluster struct {
	replicas []*replica
	sessions store.SessionStore
	events   *transport.MemoryEventStore
	bus      *pubsub.Memory
	front    *httptest.Server
	url      string // the balancer's endpoint

	mu    sync.Mutex
	route func(r *http.Request, body []byte) int // nil: round robin over the replicas up
	next  int
}

// clusterOptions adjusts the HTTPOptions of every replica.
type clusterOptions struct {
	sessions store.SessionStore // nil: a memory store
	noBus    bool
	opts     transport.HTTPOptions
	server   func() *lowlevel.Server // nil: newTestServer
}

func newCluster(t testing.TB, n int, co *clusterOptions) *cluster {
	t.Helper()
	if co == nil {
		co = &clusterOptions{}
	}
	c := &cluster{sessions: co.sessions, events: transport.NewMemoryEventStore(nil), bus: pubsub.NewMemory(&pubsub.MemoryOptions{Logger: quiet})}
	if c.sessions == nil {
		c.sessions = transport.NewMemorySessionStore()
	}
	for range n {
		srv := newTestServer(nil, nil)
		if co.server != nil {
			srv = co.server()
		}
		o := co.opts
		o.Logger, o.Sessions, o.EventStore = quiet, c.sessions, c.events
		if !co.noBus {
			o.Bus = c.bus
		}
		h := transport.NewStreamableHandler(srv.Connect, &o)
		rep := &replica{srv: srv, handler: h, ts: httptest.NewServer(h)}
		rep.url = rep.ts.URL + "/mcp"
		c.replicas = append(c.replicas, rep)
	}
	c.front = httptest.NewServer(http.HandlerFunc(c.serve))
	c.url = c.front.URL + "/mcp"
	t.Cleanup(func() {
		c.front.Close()
		for _, rep := range c.replicas {
			rep.handler.Close()
			rep.ts.Close()
		}
		c.bus.Close()
	})
	return c
}

// serve forwards a request to the replica the route picks, as a load
// balancer without stickiness does.
func (c *cluster) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	c.mu.Lock()
	var i int
	if c.route != nil {
		i = c.route(r, body)
	} else {
		for {
			i = c.next % len(c.replicas)
			c.next++
			if !c.replicas[i].down.Load() {
				break
			}
		}
	}
	c.mu.Unlock()
	c.replicas[i].handler.ServeHTTP(w, r)
}

func (c *cluster) setRoute(fn func(r *http.Request, body []byte) int) {
	c.mu.Lock()
	c.route = fn
	c.mu.Unlock()
}

// sessionsOf returns the sessions srv serves.
func sessionsOf(srv *lowlevel.Server) []*session.Session {
	var out []*session.Session
	for s := range srv.Sessions() {
		out = append(out, s)
	}
	return out
}

func TestSharedSessionServedByAnotherReplica(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 2, nil)
	a, b := c.replicas[0], c.replicas[1]
	sid := rawSession(t, a.url)
	hdr := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	resp, body := rawPost(t, b.url, `{"jsonrpc":"2.0","id":2,"method":"add","params":{"a":2,"b":3}}`, hdr)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"sum":5`) {
		t.Fatalf("add on the other replica: %d %s", resp.StatusCode, body)
	}
	list := sessionsOf(b.srv)
	if len(list) != 1 {
		t.Fatalf("replica B serves %d sessions, want 1", len(list))
	}
	adopted := list[0]
	if got := adopted.ClientInfo().Name; got != "raw" {
		t.Errorf("adopted session's client = %q, want raw (from its initialize on A)", got)
	}
	if got := adopted.ProtocolVersion(); got != "2025-11-25" {
		t.Errorf("adopted session's version = %q", got)
	}
	// A second request on B uses the same local session.
	resp, body = rawPost(t, b.url, `{"jsonrpc":"2.0","id":3,"method":"add","params":{"a":1,"b":1}}`, hdr)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"sum":2`) {
		t.Fatalf("second add: %d %s", resp.StatusCode, body)
	}
	if n := len(sessionsOf(b.srv)); n != 1 {
		t.Errorf("replica B serves %d sessions after two requests, want 1", n)
	}
}

func TestSharedSessionRoundRobinClient(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 3, nil)
	rec := &clientRecorder{}
	cli := dial(t, transport.NewStreamableClient(c.url, clientOpts), rec)
	for i := range 12 {
		add(t, cli, i, i)
	}
	for i, rep := range c.replicas {
		if n := len(sessionsOf(rep.srv)); n != 1 {
			t.Errorf("replica %d serves %d sessions, want 1", i, n)
		}
		for _, s := range sessionsOf(rep.srv) {
			if s.ClientCapabilities().Sampling == nil {
				t.Errorf("replica %d: the session lacks the client's sampling capability", i)
			}
		}
	}
}

func TestSharedSessionRefusals(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 2, nil)
	a, b := c.replicas[0], c.replicas[1]
	sid := rawSession(t, a.url)
	call := `{"jsonrpc":"2.0","id":2,"method":"add","params":{"a":2,"b":3}}`
	tests := []struct {
		name string
		hdr  map[string]string
	}{
		{"unknown id", map[string]string{"Mcp-Session-Id": "NOSUCHSESSION"}},
		{"another principal", map[string]string{"Mcp-Session-Id": sid, "Authorization": "Bearer someone-else"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := rawPost(t, b.url, call, tt.hdr)
			if resp.StatusCode != http.StatusNotFound {
				t.Fatalf("status %d %s, want 404", resp.StatusCode, body)
			}
			if _, e := jsonRPCError(t, body); e.Code != transport.CodeSessionNotFound {
				t.Errorf("error %v", e)
			}
		})
	}
	if n := len(sessionsOf(b.srv)); n != 0 {
		t.Errorf("replica B serves %d sessions, want 0", n)
	}
}

func TestSharedSessionConcurrentAdoption(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 2, nil)
	a, b := c.replicas[0], c.replicas[1]
	sid := rawSession(t, a.url)
	hdr := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			resp, body := rawPost(t, b.url, `{"jsonrpc":"2.0","id":`+strconv.Itoa(100+i)+`,"method":"add","params":{"a":1,"b":2}}`, hdr)
			if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"sum":3`) {
				t.Errorf("add: %d %s", resp.StatusCode, body)
			}
		})
	}
	wg.Wait()
	if n := len(sessionsOf(b.srv)); n != 1 {
		t.Errorf("replica B serves %d sessions, want 1", n)
	}
}

// failingStore is a session store that is down: every call fails.
type failingStore struct{ store.SessionStore }

var errDown = errors.New("store down")

func (failingStore) Create(context.Context, *store.SessionRecord, time.Duration) error {
	return errDown
}

func (failingStore) Get(context.Context, string) (*store.SessionRecord, error) {
	return nil, errDown
}

func TestSharedSessionStoreDown(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 1, &clusterOptions{sessions: failingStore{}})
	a := c.replicas[0]
	t.Run("initialize", func(t *testing.T) {
		resp, body := rawPost(t, a.url, initBody, nil)
		_, e := jsonRPCError(t, body)
		if e == nil || e.Code != protocol.CodeInternalError || !strings.Contains(e.Message, "session store") {
			t.Fatalf("initialize with the store down: %d %s", resp.StatusCode, body)
		}
		// The session ends with its failed initialize.
		waitFor(t, func() bool { return len(sessionsOf(a.srv)) == 0 })
	})
	t.Run("adoption", func(t *testing.T) {
		resp, body := rawPost(t, a.url, `{"jsonrpc":"2.0","id":2,"method":"add","params":{"a":2,"b":3}}`,
			map[string]string{"Mcp-Session-Id": "SOMESESSION"})
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("status %d %s, want 503", resp.StatusCode, body)
		}
		if _, e := jsonRPCError(t, body); e.Code != protocol.CodeInternalError {
			t.Errorf("error %v", e)
		}
	})
}

func TestSharedSessionDelete(t *testing.T) {
	t.Parallel()
	for _, on := range []int{0, 1} { // DELETE on the replica that created it, or the one that adopted it
		t.Run([]string{"creator", "adopter"}[on], func(t *testing.T) {
			t.Parallel()
			c := newCluster(t, 2, nil)
			a, b := c.replicas[0], c.replicas[1]
			sid := rawSession(t, a.url)
			hdr := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
			call := `{"jsonrpc":"2.0","id":2,"method":"add","params":{"a":2,"b":3}}`
			if resp, body := rawPost(t, b.url, call, hdr); resp.StatusCode != http.StatusOK {
				t.Fatalf("add on B: %d %s", resp.StatusCode, body)
			}
			req, _ := http.NewRequest(http.MethodDelete, c.replicas[on].url, nil)
			req.Header.Set("Mcp-Session-Id", sid)
			if resp, body := do(t, req); resp.StatusCode != http.StatusNoContent {
				t.Fatalf("DELETE: %d %s", resp.StatusCode, body)
			}
			// Both replicas' instances end.
			waitFor(t, func() bool { return len(sessionsOf(a.srv))+len(sessionsOf(b.srv)) == 0 })
			if _, err := c.sessions.Get(testCtx(t), sid); !errors.Is(err, store.ErrSessionUnknown) {
				t.Errorf("the record is still there: %v", err)
			}
			for i, rep := range c.replicas {
				if resp, body := rawPost(t, rep.url, call, hdr); resp.StatusCode != http.StatusNotFound {
					t.Errorf("replica %d after DELETE: %d %s", i, resp.StatusCode, body)
				}
			}
		})
	}
}

// isResponse reports whether a POST body is a JSON-RPC response.
func isResponse(body []byte) bool {
	return !bytes.Contains(body, []byte(`"method"`))
}

func TestSharedSessionAnswerOnAnotherReplica(t *testing.T) {
	t.Parallel()
	for _, json := range []bool{false, true} {
		t.Run(map[bool]string{false: "sse", true: "json"}[json], func(t *testing.T) {
			t.Parallel()
			c := newCluster(t, 2, &clusterOptions{opts: transport.HTTPOptions{JSONResponse: json}})
			// Requests go to A, the client's answers to B.
			var answers atomic.Int64
			c.setRoute(func(r *http.Request, body []byte) int {
				if r.Method == http.MethodPost && isResponse(body) {
					answers.Add(1)
					return 1
				}
				return 0
			})
			cli := dial(t, transport.NewStreamableClient(c.url, clientOpts), &clientRecorder{})
			for range 3 {
				var res struct {
					Model string `json:"model"`
				}
				if err := cli.Call(testCtx(t), "sample", nil, &res); err != nil {
					t.Fatalf("sample: %v", err)
				}
				if res.Model != "m" {
					t.Fatalf("sample returned %+v", res)
				}
			}
			if n := answers.Load(); n != 3 {
				t.Errorf("%d answers went to replica B, want 3", n)
			}
		})
	}
}

func TestSharedSessionCancelOnAnotherReplica(t *testing.T) {
	t.Parallel()
	started := make(chan string, 1)
	ended := make(chan error, 1)
	c := newCluster(t, 2, &clusterOptions{server: func() *lowlevel.Server {
		srv := newTestServer(nil, started)
		srv.Use(func(next lowlevel.Handler) lowlevel.Handler {
			return lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
				res, err := next.Handle(ctx, req)
				if req.Method == "block" {
					ended <- err
				}
				return res, err
			})
		})
		return srv
	}})
	// Calls go to A, notifications (the cancellation) to B.
	c.setRoute(func(r *http.Request, body []byte) int {
		if r.Method == http.MethodPost && bytes.Contains(body, []byte(`"notifications/cancelled"`)) {
			return 1
		}
		return 0
	})
	cli := dial(t, transport.NewStreamableClient(c.url, clientOpts), &clientRecorder{})
	ctx, cancel := context.WithCancel(testCtx(t))
	go func() {
		<-started
		cancel()
	}()
	if err := cli.Call(ctx, "block", nil, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("block: %v", err)
	}
	if err := <-ended; !errors.Is(err, session.ErrCancelledByPeer) {
		t.Fatalf("the handler on A ended with %v, want the peer's cancellation", err)
	}
}

func TestSharedSessionLogLevel(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 3, nil)
	a, b, third := c.replicas[0], c.replicas[1], c.replicas[2]
	sid := rawSession(t, a.url)
	hdr := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	if resp, body := rawPost(t, b.url, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, hdr); resp.StatusCode != http.StatusOK {
		t.Fatalf("ping on B: %d %s", resp.StatusCode, body)
	}
	if resp, body := rawPost(t, a.url, `{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"debug"}}`, hdr); resp.StatusCode != http.StatusOK {
		t.Fatalf("setLevel on A: %d %s", resp.StatusCode, body)
	}
	level := func(rep *replica) protocol.LoggingLevel {
		for _, s := range sessionsOf(rep.srv) {
			return s.LogLevel()
		}
		return "none"
	}
	if got := level(a); got != protocol.LevelDebug {
		t.Errorf("A: level %q", got)
	}
	// B's instance hears of it on the bus.
	waitFor(t, func() bool { return level(b) == protocol.LevelDebug })
	// A replica adopting the session later reads it from the record.
	if resp, body := rawPost(t, third.url, `{"jsonrpc":"2.0","id":4,"method":"ping"}`, hdr); resp.StatusCode != http.StatusOK {
		t.Fatalf("ping on C: %d %s", resp.StatusCode, body)
	}
	if got := level(third); got != protocol.LevelDebug {
		t.Errorf("C: level %q", got)
	}
}

// TestSharedSessionLogLevelInBatch: a logging/setLevel inside a JSON-RPC
// batch (2025-03-26) is recorded as one sent alone is: the replica that
// adopts the session later serves it at that level. (The transport used to
// record the level itself, looking only at requests POSTed alone.)
func TestSharedSessionLogLevelInBatch(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 2, nil)
	a, b := c.replicas[0], c.replicas[1]
	init := strings.Replace(initBody, "2025-11-25", protocol.BatchVersion, 1)
	resp, body := rawPost(t, a.url, init, nil)
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	hdr := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": protocol.BatchVersion}
	if resp, body := rawPost(t, a.url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, hdr); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: %d %s", resp.StatusCode, body)
	}
	if resp, body := rawPost(t, a.url, `[{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"error"}},{"jsonrpc":"2.0","id":3,"method":"ping"}]`, hdr); resp.StatusCode != http.StatusOK {
		t.Fatalf("batch on A: %d %s", resp.StatusCode, body)
	}
	if resp, body := rawPost(t, b.url, `{"jsonrpc":"2.0","id":4,"method":"ping"}`, hdr); resp.StatusCode != http.StatusOK {
		t.Fatalf("ping on B: %d %s", resp.StatusCode, body)
	}
	var got []protocol.LoggingLevel
	for _, s := range sessionsOf(b.srv) {
		got = append(got, s.LogLevel())
	}
	if len(got) != 1 || got[0] != protocol.LevelError {
		t.Errorf("B serves the session at levels %q, want [error]", got)
	}
}

// sseLines reads an SSE response as it arrives.
type sseLines struct {
	t      testing.TB
	resp   *http.Response
	lines  chan string
	cancel context.CancelFunc
}

// openGET opens the GET stream of session sid at url, resuming after
// lastEventID when it is not empty.
func openGET(t testing.TB, url, sid, lastEventID string) *sseLines {
	t.Helper()
	ctx, cancel := context.WithCancel(testCtx(t))
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		cancel()
		resp.Body.Close()
		t.Fatalf("GET: %d", resp.StatusCode)
	}
	g := &sseLines{t: t, resp: resp, lines: make(chan string, 64), cancel: cancel}
	go func() {
		defer close(g.lines)
		buf := make([]byte, 4096)
		var rest []byte
		for {
			n, err := resp.Body.Read(buf)
			rest = append(rest, buf[:n]...)
			for {
				i := bytes.IndexByte(rest, '\n')
				if i < 0 {
					break
				}
				g.lines <- string(rest[:i])
				rest = rest[i+1:]
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(g.close)
	return g
}

func (g *sseLines) close() {
	g.cancel()
	g.resp.Body.Close()
	for range g.lines {
	}
}

// events reads n events (id and data) with an id.
func (g *sseLines) events(n int) []string {
	g.t.Helper()
	var out []string
	var id string
	for len(out) < n {
		line, ok := <-g.lines
		if !ok {
			g.t.Fatalf("the GET stream ended after %q", out)
		}
		switch {
		case strings.HasPrefix(line, "id: "):
			id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "data: ") && id != "":
			out = append(out, id+" "+strings.TrimPrefix(line, "data: "))
			id = ""
		}
	}
	return out
}

// note sends a notification unrelated to any request from the instance
// of the session that rep serves.
func note(t testing.TB, rep *replica, text string) {
	t.Helper()
	list := sessionsOf(rep.srv)
	if len(list) != 1 {
		t.Fatalf("the replica serves %d sessions", len(list))
	}
	if err := list[0].Notify(testCtx(t), "notifications/test", map[string]string{"n": text}); err != nil {
		t.Fatal(err)
	}
}

func TestSharedSessionGETStream(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 2, nil)
	a, b := c.replicas[0], c.replicas[1]
	sid := rawSession(t, a.url)
	hdr := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	if resp, body := rawPost(t, b.url, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, hdr); resp.StatusCode != http.StatusOK {
		t.Fatalf("ping on B: %d %s", resp.StatusCode, body)
	}
	// Messages from either replica while no GET stream is open are kept.
	note(t, b, "1")
	note(t, a, "2")
	note(t, b, "3")
	g := openGET(t, a.url, sid, "0_1")
	if got, want := strings.Join(g.events(2), "\n"), `0_2 {"jsonrpc":"2.0","method":"notifications/test","params":{"n":"2"}}
0_3 {"jsonrpc":"2.0","method":"notifications/test","params":{"n":"3"}}`; got != want {
		t.Fatalf("resumed on A:\n%s\nwant\n%s", got, want)
	}
	// A message from B reaches the GET stream held by A.
	note(t, b, "4")
	if got := g.events(1); got[0] != `0_4 {"jsonrpc":"2.0","method":"notifications/test","params":{"n":"4"}}` {
		t.Fatalf("live on A: %q", got)
	}
	// An announcement every replica sends reaches the client once: from
	// the replica holding the GET stream (A).
	for _, rep := range c.replicas {
		if err := rep.srv.Broadcast(testCtx(t), protocol.NotificationToolsListChanged, nil); err != nil {
			t.Fatal(err)
		}
	}
	note(t, b, "5")
	if got := strings.Join(g.events(2), "\n"); got != `0_5 {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}
0_6 {"jsonrpc":"2.0","method":"notifications/test","params":{"n":"5"}}` {
		t.Fatalf("after the broadcast:\n%s", got)
	}
	g.close()
	// The client comes back on B with the last id it saw: nothing lost,
	// nothing twice.
	note(t, a, "6")
	g = openGET(t, b.url, sid, "0_6")
	note(t, a, "7")
	if got := strings.Join(g.events(2), "\n"); got != `0_7 {"jsonrpc":"2.0","method":"notifications/test","params":{"n":"6"}}
0_8 {"jsonrpc":"2.0","method":"notifications/test","params":{"n":"7"}}` {
		t.Fatalf("resumed on B:\n%s", got)
	}
}

func TestSharedSessionRecordLifetime(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 2, &clusterOptions{opts: transport.HTTPOptions{SessionIdleTimeout: time.Second}})
	a, b := c.replicas[0], c.replicas[1]
	sid := rawSession(t, a.url)
	hdr := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	rec, err := c.sessions.Get(testCtx(t), sid)
	if err != nil {
		t.Fatal(err)
	}
	// A client only listening on its GET stream keeps the record alive:
	// the replica holding the stream refreshes it.
	g := openGET(t, a.url, sid, "")
	for range 2 {
		waitFor(t, func() bool {
			r, err := c.sessions.Get(testCtx(t), sid)
			return err == nil && r.LastActive.After(rec.LastActive)
		})
		rec, _ = c.sessions.Get(testCtx(t), sid)
	}
	g.close()
	if resp, body := rawPost(t, b.url, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, hdr); resp.StatusCode != http.StatusOK {
		t.Fatalf("ping on B: %d %s", resp.StatusCode, body)
	}
	// Once the record is gone (as when it expired), the replicas that
	// still serve the session drop it at their next refresh.
	if err := c.sessions.Delete(testCtx(t), sid); err != nil {
		t.Fatal(err)
	}
	for _, rep := range c.replicas {
		waitFor(t, func() bool {
			resp, _ := rawPost(t, rep.url, `{"jsonrpc":"2.0","id":3,"method":"ping"}`, hdr)
			return resp.StatusCode == http.StatusNotFound
		})
	}
}

// TestSharedSessionOutlivesReplica: the replica holding a client's GET
// stream and serving its calls goes away; the balancer sends the client
// to the other, where the calls go on and the GET stream resumes where
// it stopped: nothing lost, nothing twice.
func TestSharedSessionOutlivesReplica(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 2, nil)
	a, b := c.replicas[0], c.replicas[1]
	c.setRoute(func(r *http.Request, body []byte) int {
		if a.down.Load() {
			return 1
		}
		return 0
	})
	rec := &clientRecorder{}
	cli := dial(t, transport.NewStreamableClient(c.url, clientOpts), rec)
	add(t, cli, 1, 2)
	note(t, a, "1")
	waitFor(t, func() bool { return countPrefix(rec.seen(), "notifications/test") == 1 })
	a.down.Store(true)
	a.handler.Close() // its connections end, as when the process dies
	add(t, cli, 3, 4)
	// B serves the session now; what it sends reaches the client once
	// its GET stream has reconnected (to B, with the last event id).
	note(t, b, "2")
	waitFor(t, func() bool { return countPrefix(rec.seen(), "notifications/test") >= 2 })
	if got := strings.Join(rec.seen(), "\n"); got != `notifications/test {"n":"1"}
notifications/test {"n":"2"}` {
		t.Errorf("the client got:\n%s", got)
	}
	waitFor(t, func() bool { return len(sessionsOf(a.srv)) == 0 })
}

// TestSharedSessionResumeRequestStreamElsewhere: a request's stream that
// the server closes early (SEP-1699 polling) is resumed by the client on
// another replica than the one running the request; that replica follows
// the stream in the store until the answer.
func TestSharedSessionResumeRequestStreamElsewhere(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	resumed := make(chan struct{})
	var once sync.Once
	var resumptions atomic.Int64
	c := newCluster(t, 2, &clusterOptions{server: func() *lowlevel.Server {
		srv := newTestServer(nil, nil)
		srv.HandleFunc("pollwait", func(ctx context.Context, req *lowlevel.Request) (any, error) {
			cs := req.Session.Conn().(interface{ CloseStream(protocol.ID) error })
			if err := cs.CloseStream(req.ID); err != nil {
				return nil, err
			}
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			for i := range 3 {
				if err := req.Session.Notify(ctx, protocol.NotificationMessage, &protocol.LoggingMessageParams{Level: protocol.LevelInfo, Data: []byte(`"later ` + strconv.Itoa(i) + `"`)}); err != nil {
					return nil, err
				}
			}
			return addResult{Sum: 42}, nil
		})
		return srv
	}})
	// POSTs go to A, GETs (the resumption) to B.
	c.setRoute(func(r *http.Request, body []byte) int {
		if r.Method == http.MethodGet {
			if r.Header.Get("Last-Event-ID") != "" && !strings.HasPrefix(r.Header.Get("Last-Event-ID"), "0_") {
				resumptions.Add(1)
				once.Do(func() { close(resumed) })
			}
			return 1
		}
		return 0
	})
	rec := &clientRecorder{}
	cli := dial(t, transport.NewStreamableClient(c.url, clientOpts), rec)
	go func() {
		<-resumed
		close(release)
	}()
	var res addResult
	if err := cli.Call(testCtx(t), "pollwait", nil, &res); err != nil {
		t.Fatalf("pollwait: %v", err)
	}
	if res.Sum != 42 {
		t.Fatalf("pollwait = %+v", res)
	}
	if got := strings.Join(rec.seen(), "\n"); got != `notifications/message {"level":"info","data":"later 0"}
notifications/message {"level":"info","data":"later 1"}
notifications/message {"level":"info","data":"later 2"}` {
		t.Errorf("the client got:\n%s", got)
	}
	// B kept the resumed stream open until the answer: the client did not
	// have to come back.
	if n := resumptions.Load(); n != 1 {
		t.Errorf("the client resumed the stream %d times, want 1", n)
	}
}

// unnumberedStore is an EventStore that cannot number events itself.
type unnumberedStore struct{ store.EventStore }

func TestSharedSessionsNeedSequencedEventStore(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "SequencedEventStore") {
			t.Errorf("panic %v, want one naming SequencedEventStore", r)
		}
	}()
	transport.NewStreamableHandler(func(transport.Conn, transport.ConnInfo) {}, &transport.HTTPOptions{
		Sessions:   transport.NewMemorySessionStore(),
		EventStore: unnumberedStore{transport.NewMemoryEventStore(nil)},
	})
}
