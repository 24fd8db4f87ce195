package transport_test

import (
	"bytes"
	"context"
	"errors"
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
	sessions transport.SessionStore
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
	sessions transport.SessionStore // nil: a memory store
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
type failingStore struct{ transport.SessionStore }

var errDown = errors.New("store down")

func (failingStore) Create(context.Context, *transport.SessionRecord, time.Duration) error {
	return errDown
}

func (failingStore) Get(context.Context, string) (*transport.SessionRecord, error) {
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
