package transport_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

var quiet = slog.New(slog.DiscardHandler)

type addParams struct {
	A int `json:"a"`
	B int `json:"b"`
}

type addResult struct {
	Sum int `json:"sum"`
}

// newTestServer returns a lowlevel server with the test methods:
//
//	add {a,b} → {sum}
//	chatty {n} → sends n progress and n log notifications, then {sum: n}
//	sample → asks the client for sampling/createMessage and returns its result
//	block → waits until release is closed (or the request is cancelled)
//	poll → closes its own stream early, sends a log message, then {sum: 42}
func newTestServer(release <-chan struct{}, started chan<- string) *lowlevel.Server {
	srv := lowlevel.NewServer(protocol.Implementation{Name: "test-server", Version: "1"}, &lowlevel.Options{Logger: quiet})
	srv.HandleFunc("add", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		var p addParams
		if err := protocol.Unmarshal(req.Params, &p); err != nil {
			return nil, fmt.Errorf("%w: %v", protocol.ErrInvalidParams, err)
		}
		return addResult{Sum: p.A + p.B}, nil
	})
	srv.HandleFunc("chatty", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		var p struct {
			N int `json:"n"`
		}
		_ = protocol.Unmarshal(req.Params, &p)
		tok, hasTok := req.ProgressToken()
		for i := range p.N {
			if hasTok {
				if err := req.Session.Notify(ctx, protocol.NotificationProgress, &protocol.ProgressParams{ProgressToken: tok, Progress: float64(i + 1), Total: float64(p.N)}); err != nil {
					return nil, err
				}
			}
			if err := req.Session.Notify(ctx, protocol.NotificationMessage, &protocol.LoggingMessageParams{Level: protocol.LevelInfo, Data: []byte(fmt.Sprintf(`"log %d"`, i))}); err != nil {
				return nil, err
			}
		}
		return addResult{Sum: p.N}, nil
	})
	srv.HandleFunc("sample", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		var res json.RawMessage
		if err := req.Session.Call(ctx, protocol.MethodSamplingCreateMessage, map[string]any{"messages": []any{}, "maxTokens": 1}, &res); err != nil {
			return nil, err
		}
		return res, nil
	})
	srv.HandleFunc("block", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		if started != nil {
			started <- req.ID.String()
		}
		select {
		case <-release:
			return addResult{Sum: 1}, nil
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	})
	srv.HandleFunc("poll", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		cs, ok := req.Session.Conn().(interface{ CloseStream(protocol.ID) error })
		if !ok {
			return nil, errors.New("conn cannot close streams")
		}
		if err := cs.CloseStream(req.ID); err != nil {
			return nil, err
		}
		if err := req.Session.Notify(ctx, protocol.NotificationMessage, &protocol.LoggingMessageParams{Level: protocol.LevelInfo, Data: []byte(`"after close"`)}); err != nil {
			return nil, err
		}
		return addResult{Sum: 42}, nil
	})
	return srv
}

type fixture struct {
	srv     *lowlevel.Server
	handler *transport.StreamableHandler
	ts      *httptest.Server
	url     string
	log     *requestLog
}

// requestLog records the requests the test server saw.
type requestLog struct {
	mu   sync.Mutex
	reqs []loggedRequest
}

type loggedRequest struct {
	method      string
	lastEventID string
	sessionID   string
	at          time.Time
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.reqs = append(l.reqs, loggedRequest{r.Method, r.Header.Get("Last-Event-ID"), r.Header.Get("Mcp-Session-Id"), time.Now()})
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *requestLog) all() []loggedRequest {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]loggedRequest(nil), l.reqs...)
}

func newFixture(t testing.TB, opts *transport.HTTPOptions, srv *lowlevel.Server) *fixture {
	t.Helper()
	if srv == nil {
		srv = newTestServer(nil, nil)
	}
	var o transport.HTTPOptions
	if opts != nil {
		o = *opts
	}
	o.Logger = quiet
	h := transport.NewStreamableHandler(srv.Connect, &o)
	f := &fixture{srv: srv, handler: h, log: &requestLog{}}
	f.ts = httptest.NewServer(f.log.wrap(h))
	f.url = f.ts.URL + "/mcp"
	t.Cleanup(func() {
		h.Close()
		f.ts.Close()
	})
	return f
}

// dial starts a client session over conn and performs the handshake.
func dial(t testing.TB, conn transport.Conn, handler session.Handler) *session.Session {
	t.Helper()
	cli := session.New(conn, session.Options{Role: session.RoleClient, Handler: handler, Logger: quiet})
	t.Cleanup(func() { cli.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := cli.Initialize(ctx, &protocol.InitializeParams{
		ProtocolVersion: protocol.LatestLegacyVersion,
		Capabilities:    protocol.ClientCapabilities{Sampling: &protocol.SamplingCapability{}},
		ClientInfo:      protocol.Implementation{Name: "test-client", Version: "1"},
	}); err != nil {
		t.Fatalf("Initialize: %v", err)
	}
	return cli
}

func add(t testing.TB, cli *session.Session, a, b int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var res addResult
	if err := cli.Call(ctx, "add", addParams{a, b}, &res); err != nil {
		t.Fatalf("add(%d, %d): %v", a, b, err)
	}
	if res.Sum != a+b {
		t.Fatalf("add(%d, %d) = %d", a, b, res.Sum)
	}
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// rawPost sends body to url with the given headers (Content-Type and
// Accept default to what the specification asks for) and returns the
// response with its body read.
func rawPost(t testing.TB, url, body string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		if v == "" {
			req.Header.Del(k)
			continue
		}
		req.Header.Set(k, v)
	}
	return do(t, req)
}

func do(t testing.TB, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// rawSession initializes a session with raw HTTP and returns its id.
func rawSession(t testing.TB, url string) string {
	t.Helper()
	resp, body := rawPost(t, url, initBody, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	sid := resp.Header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatal("initialize: no Mcp-Session-Id")
	}
	resp, body = rawPost(t, url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"})
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: %d %s", resp.StatusCode, body)
	}
	return sid
}

// jsonRPCError decodes the error of a JSON-RPC response body (plain JSON
// or the last data line of an SSE body).
func jsonRPCError(t testing.TB, body string) (protocol.ID, *protocol.Error) {
	t.Helper()
	msg := lastMessage(t, body)
	resp, ok := msg.(*protocol.Response)
	if !ok || resp.Error == nil {
		t.Fatalf("body is not a JSON-RPC error: %s", body)
	}
	return resp.ID, resp.Error
}

func lastMessage(t testing.TB, body string) protocol.Message {
	t.Helper()
	data := body
	if strings.Contains(body, "data:") {
		data = ""
		for line := range strings.SplitSeq(body, "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok && strings.TrimSpace(d) != "" {
				data = d
			}
		}
	}
	msg, err := protocol.DecodeMessage([]byte(data))
	if err != nil {
		t.Fatalf("decoding %q: %v", data, err)
	}
	return msg
}

func newRequest(host, origin, local string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "http://"+host+"/mcp", nil)
	r.Host = host
	if origin != "" {
		r.Header.Set("Origin", origin)
	}
	if local != "" {
		addr, err := net.ResolveTCPAddr("tcp", local)
		if err != nil {
			panic(err)
		}
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, addr))
	}
	return r
}

func newRecorder() *httptest.ResponseRecorder { return httptest.NewRecorder() }
