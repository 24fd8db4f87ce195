package transport_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// orphanCluster is two replicas sharing a session: POSTs go to A (the
// first), GETs to B. Its "orphan" method closes its request's stream at
// once (the client resumes it on B; POSTs go to B once A is down), waits for the resumption, sends a
// log message on the stream, and answers 42 when release is closed.
type orphanCluster struct {
	*cluster
	a, b        *replica
	release     chan struct{}
	resumed     chan struct{}
	resumptions atomic.Int64
	probes      atomic.Int64 // probes seen on the session's topic
	alives      atomic.Int64 // their answers
}

// newOrphanCluster starts the cluster; killOnResume stops A when the
// client's first resumption reaches the balancer, before B gets it.
func newOrphanCluster(t *testing.T, killOnResume bool) *orphanCluster {
	oc := &orphanCluster{release: make(chan struct{}), resumed: make(chan struct{})}
	oc.cluster = newCluster(t, 2, &clusterOptions{
		opts: transport.HTTPOptions{ProbeTimeout: 200 * time.Millisecond, RetryInterval: 20 * time.Millisecond},
		server: func() *lowlevel.Server {
			srv := newTestServer(nil, nil)
			srv.HandleFunc("orphan", func(ctx context.Context, req *lowlevel.Request) (any, error) {
				cs := req.Session.Conn().(interface{ CloseStream(protocol.ID) error })
				if err := cs.CloseStream(req.ID); err != nil {
					return nil, err
				}
				select {
				case <-oc.resumed:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				if err := req.Session.Notify(ctx, protocol.NotificationMessage, &protocol.LoggingMessageParams{Level: protocol.LevelInfo, Data: []byte(`"running"`)}); err != nil {
					return nil, err
				}
				select {
				case <-oc.release:
					return addResult{Sum: 42}, nil
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			})
			return srv
		},
	})
	oc.a, oc.b = oc.replicas[0], oc.replicas[1]
	var once sync.Once
	oc.setRoute(func(r *http.Request, body []byte) int {
		last := r.Header.Get("Last-Event-ID")
		if r.Method != http.MethodGet {
			if oc.a.down.Load() {
				return 1
			}
			return 0
		}
		if last != "" && !strings.HasPrefix(last, "0_") {
			oc.resumptions.Add(1)
			once.Do(func() {
				if killOnResume {
					oc.kill()
				}
				close(oc.resumed)
			})
		}
		return 1
	})
	return oc
}

// kill stops A as a dead process would: its connections end, it answers
// nothing on the bus any more.
func (oc *orphanCluster) kill() {
	oc.a.down.Store(true)
	oc.a.handler.Close()
}

// watch counts the probes and their answers on the topic of session sid.
func (oc *orphanCluster) watch(t *testing.T, sid string) {
	unsub, err := oc.bus.Subscribe(context.Background(), transport.SessionTopicForTest(sid), func(data []byte) {
		switch {
		case strings.Contains(string(data), `"k":"probe"`):
			oc.probes.Add(1)
		case strings.Contains(string(data), `"k":"alive"`):
			oc.alives.Add(1)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(unsub)
}

// TestSharedSessionResumeOrphanedStream: the client resumes on B the
// stream of a request whose replica (A) died, before or after B started
// following it. The call fails promptly with ErrStreamLost: no hang.
func TestSharedSessionResumeOrphanedStream(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name         string
		killOnResume bool // A dies before B follows; else while B follows
	}{
		{"A gone before the resumption", true},
		{"A gone while B follows", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			oc := newOrphanCluster(t, tt.killOnResume)
			rec := &clientRecorder{}
			cli := dial(t, transport.NewStreamableClient(oc.url, clientOpts), rec)
			if !tt.killOnResume {
				done := make(chan struct{})
				defer close(done)
				go func() {
					// B follows the stream once the client got what A
					// stored after the resumption.
					select {
					case <-oc.resumed:
					case <-done:
						return
					}
					for countPrefix(rec.seen(), "notifications/message") == 0 {
						select {
						case <-done:
							return
						case <-time.After(2 * time.Millisecond):
						}
					}
					oc.kill()
				}()
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var res addResult
			err := cli.Call(ctx, "orphan", nil, &res)
			if !errors.Is(err, transport.ErrStreamLost) || !errors.Is(err, transport.ErrTransport) {
				t.Fatalf("orphan: %v (%+v), want ErrStreamLost", err, res)
			}
			if ctx.Err() != nil {
				t.Fatal("the call ended only with its deadline")
			}
			if !tt.killOnResume && countPrefix(rec.seen(), "notifications/message") != 1 {
				t.Errorf("the client got %q, want the log message once", rec.seen())
			}
			// The session goes on on B.
			add(t, cli, 1, 2)
		})
	}
}

// TestSharedSessionFollowLiveReplica: while A runs the request, it
// answers B's probes and B keeps following the stream until the answer,
// however long it takes.
func TestSharedSessionFollowLiveReplica(t *testing.T) {
	t.Parallel()
	oc := newOrphanCluster(t, false)
	rec := &clientRecorder{}
	conn := transport.NewStreamableClient(oc.url, clientOpts)
	cli := dial(t, conn, rec)
	oc.watch(t, conn.SessionID())
	done := make(chan struct{})
	defer close(done)
	go func() {
		// Release the answer once B asked again twice after it started
		// following, and A answered each time.
		for oc.probes.Load() < 3 || oc.alives.Load() < 3 {
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
		close(oc.release)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var res addResult
	if err := cli.Call(ctx, "orphan", nil, &res); err != nil || res.Sum != 42 {
		t.Fatalf("orphan = %+v, %v", res, err)
	}
	if n := oc.resumptions.Load(); n != 1 {
		t.Errorf("the client resumed the stream %d times, want 1", n)
	}
}

// TestSharedSessionResumeAnsweredStream: A stored the answer of the
// request while no connection carried its stream, then died; the
// resumption on B replays the answer, without asking A anything.
func TestSharedSessionResumeAnsweredStream(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 2, &clusterOptions{
		opts: transport.HTTPOptions{ProbeTimeout: 200 * time.Millisecond, RetryInterval: 20 * time.Millisecond},
		server: func() *lowlevel.Server {
			srv := newTestServer(nil, nil)
			srv.HandleFunc("early", func(ctx context.Context, req *lowlevel.Request) (any, error) {
				cs := req.Session.Conn().(interface{ CloseStream(protocol.ID) error })
				if err := cs.CloseStream(req.ID); err != nil {
					return nil, err
				}
				return addResult{Sum: 42}, nil
			})
			return srv
		},
	})
	a := c.replicas[0]
	var once sync.Once
	c.setRoute(func(r *http.Request, body []byte) int {
		last := r.Header.Get("Last-Event-ID")
		if r.Method != http.MethodGet {
			if a.down.Load() {
				return 1
			}
			return 0
		}
		if last != "" && !strings.HasPrefix(last, "0_") {
			once.Do(func() {
				// Wait for the answer in the store, then stop A.
				i := strings.LastIndexByte(last, '_')
				answered := func() bool {
					found := false
					_ = c.events.Replay(context.Background(), r.Header.Get("Mcp-Session-Id"), last[:i], 0, func(_ int64, data []byte) error {
						found = found || strings.Contains(string(data), `"result"`)
						return nil
					})
					return found
				}
				for deadline := time.Now().Add(10 * time.Second); !answered(); time.Sleep(2 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Error("the answer was not stored within 10s")
						break
					}
				}
				a.down.Store(true)
				a.handler.Close()
			})
		}
		return 1
	})
	conn := transport.NewStreamableClient(c.url, clientOpts)
	cli := dial(t, conn, &clientRecorder{})
	var probes atomic.Int64
	unsub, err := c.bus.Subscribe(context.Background(), transport.SessionTopicForTest(conn.SessionID()), func(data []byte) {
		if strings.Contains(string(data), `"k":"probe"`) {
			probes.Add(1)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer unsub()
	var res addResult
	if err := cli.Call(testCtx(t), "early", nil, &res); err != nil || res.Sum != 42 {
		t.Fatalf("early = %+v, %v", res, err)
	}
	if n := probes.Load(); n != 0 {
		t.Errorf("%d probes, want none: the store held the answer", n)
	}
}
