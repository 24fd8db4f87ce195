package fastmcp_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/session"
)

// blockTool registers a tool that returns only when its context ends.
func blockTool(s *fastmcp.Server) {
	s.Tool("block", func(c *fastmcp.Context) (string, error) {
		<-c.Done()
		return "", c.Err()
	})
}

// TestWithCallTimeout: the client option bounds every call.
func TestWithCallTimeout(t *testing.T) {
	t.Parallel()
	s := newServer()
	blockTool(s)
	// The timeout bounds the handshake too: long enough for a loaded
	// machine's initialize, short enough to keep the test quick.
	c := connect(t, s, legacy, client.WithCallTimeout(time.Second))
	_, err := c.CallTool(ctxT(t), "block", nil)
	if !errors.Is(err, session.ErrTimeout) {
		t.Fatalf("err = %v, want session.ErrTimeout", err)
	}
}

// TestCallTimeout: the server option bounds the requests the server sends
// to the client (here sampling, which the client never answers).
func TestCallTimeout(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.CallTimeout(50 * time.Millisecond))
	s.Tool("sample", func(c *fastmcp.Context) (string, error) {
		_, err := c.Sample(&fastmcp.SamplingRequest{MaxTokens: 1})
		if errors.Is(err, session.ErrTimeout) {
			return "timed out", nil
		}
		return "", err
	})
	release := make(chan struct{})
	defer close(release)
	c := connect(t, s, legacy, client.WithSampling(func(ctx context.Context, req *fastmcp.SamplingRequest) (*fastmcp.SamplingResult, error) {
		select {
		case <-ctx.Done():
		case <-release:
		}
		return nil, errors.New("not answered")
	}))
	res, err := c.CallTool(ctxT(t), "sample", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(t, res); got != "timed out" {
		t.Fatalf("tool said %q, want \"timed out\"", got)
	}
}

// TestMaxConcurrency: with MaxConcurrency(1) a session runs one handler at
// a time; without it, the same calls overlap. Each handler waits for a
// second one to start, within a bound (a wait that cannot end early under
// the limit, so the bound there is short; without the limit it is only a
// safety net).
func TestMaxConcurrency(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		opts    []fastmcp.Option
		wait    time.Duration
		overlap bool
	}{
		{[]fastmcp.Option{fastmcp.MaxConcurrency(1)}, 100 * time.Millisecond, false},
		{nil, 5 * time.Second, true},
	} {
		var active, most atomic.Int32
		second := make(chan struct{})
		var once sync.Once
		s := newServer(tc.opts...)
		s.Tool("work", func(c *fastmcp.Context) string {
			n := active.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			if n > 1 {
				once.Do(func() { close(second) })
			}
			select {
			case <-second:
			case <-c.Done():
			case <-time.After(tc.wait):
			}
			active.Add(-1)
			return "ok"
		})
		c := connect(t, s, legacy)
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() {
				if _, err := c.CallTool(ctxT(t), "work", nil); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if got := most.Load() > 1; got != tc.overlap {
			t.Errorf("MaxConcurrency %v: at most %d handlers at once", tc.opts, most.Load())
		}
	}
}

// TestWithMaxInputRounds: a request that needs two rounds of input
// (2026-07-28) fails under WithMaxInputRounds(1) and passes under 2.
func TestWithMaxInputRounds(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("twice", func(c *fastmcp.Context) (string, error) {
		var v struct {
			OK bool `json:"ok"`
		}
		for _, key := range []string{"a", "b"} {
			if _, err := c.Elicit("ok?", &v, fastmcp.InputKey(key)); err != nil {
				return "", err
			}
		}
		return "done", nil
	})
	answer := client.WithElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
		return client.AcceptElicitation(map[string]bool{"ok": true})
	})
	for _, tc := range []struct {
		rounds int
		ok     bool
	}{{1, false}, {2, true}} {
		c := connect(t, s, eras[1].opt, answer, client.WithMaxInputRounds(tc.rounds))
		res, err := c.CallTool(ctxT(t), "twice", nil)
		if tc.ok {
			if err != nil || textOf(t, res) != "done" {
				t.Errorf("rounds %d: %v %v", tc.rounds, res, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), "still needs input after 1 rounds") {
			t.Errorf("rounds %d: err = %v, want giving up", tc.rounds, err)
		}
	}
}

// countingTransport counts the requests it carries.
type countingTransport struct{ n atomic.Int32 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

// TestWithHTTPClientAndHeader: ConnectHTTP sends its requests with the
// given *http.Client and the given headers.
func TestWithHTTPClientAndHeader(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("hi", func() string { return "hi" })
	h := s
	var mu sync.Mutex
	var seen []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("X-Test"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { closeNow(h); ts.Close() })
	rt := &countingTransport{}
	c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", client.WithLogger(quietLogger),
		client.WithHTTPClient(&http.Client{Transport: rt}), client.WithHTTPHeader(http.Header{"X-Test": {"yes"}}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := c.CallTool(ctxT(t), "hi", nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if int(rt.n.Load()) != len(seen) || len(seen) == 0 {
		t.Errorf("the client's transport carried %d requests, the server saw %d", rt.n.Load(), len(seen))
	}
	for i, v := range seen {
		if v != "yes" {
			t.Errorf("request %d: X-Test = %q, want yes", i, v)
		}
	}
}

// TestRequestStateSecret: two servers behind one URL (requests alternate
// between them) finish a multi round-trip call only when they share the
// secret that seals requestState.
func TestRequestStateSecret(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		secret []byte
		ok     bool
	}{
		{"shared secret", []byte("0123456789abcdef0123456789abcdef"), true},
		{"a secret each", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var hs [2]*fastmcp.Server
			for i := range hs {
				s := newServer(fastmcp.RequestStateSecret(tc.secret), fastmcp.Stateless(true))
				s.Tool("ask", func(c *fastmcp.Context) (string, error) {
					var v struct {
						OK bool `json:"ok"`
					}
					if _, err := c.Elicit("ok?", &v); err != nil {
						return "", err
					}
					return "done", nil
				})
				hs[i] = s
			}
			var next atomic.Int32
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hs[next.Add(1)%2].ServeHTTP(w, r)
			}))
			t.Cleanup(func() { closeNow(hs[0]); closeNow(hs[1]); ts.Close() })
			c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", client.WithLogger(quietLogger), eras[1].opt,
				client.WithElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
					return client.AcceptElicitation(map[string]bool{"ok": true})
				}))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			res, err := c.CallTool(ctxT(t), "ask", nil)
			if tc.ok {
				if err != nil || textOf(t, res) != "done" {
					t.Fatalf("res %v err %v, want done", res, err)
				}
			} else if err == nil {
				t.Fatalf("res %v: want the state refused by the other server", res)
			}
		})
	}
}
