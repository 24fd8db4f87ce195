package session_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// quiet is a logger that discards output; tests that check logs use their own.
var quiet = slog.New(slog.DiscardHandler)

// pair starts a server and a client session connected in memory, with the
// legacy handshake done.
func pair(t *testing.T, serverHandler, clientHandler session.Handler) (srv, cli *session.Session) {
	t.Helper()
	cc, sc := transport.NewPipe()
	srv = session.New(sc, session.Options{Role: session.RoleServer, Handler: withInitialize(serverHandler), Logger: quiet})
	cli = session.New(cc, session.Options{Role: session.RoleClient, Handler: clientHandler, Logger: quiet})
	t.Cleanup(func() { cli.Close(); srv.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := cli.Initialize(ctx, &protocol.InitializeParams{ProtocolVersion: protocol.LatestLegacyVersion, ClientInfo: protocol.Implementation{Name: "test", Version: "1"}}); err != nil {
		t.Fatalf("Initialize: %v", err)
	}
	return srv, cli
}

// withInitialize answers initialize the way lowlevel does, delegating the rest.
func withInitialize(h session.Handler) session.Handler {
	return session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		if req.Method == protocol.NotificationInitialized {
			return nil, nil
		}
		if req.Method == protocol.MethodInitialize {
			return &protocol.InitializeResult{ProtocolVersion: req.Version, ServerInfo: protocol.Implementation{Name: "srv", Version: "1"}}, nil
		}
		if h == nil {
			return nil, fmt.Errorf("%w: %s", protocol.ErrMethodNotFound, req.Method)
		}
		return h.Handle(ctx, req)
	})
}

type echoParams struct {
	N     int    `json:"n"`
	Delay int    `json:"delay,omitzero"` // milliseconds
	Text  string `json:"text,omitzero"`
}

var echo = session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
	var p echoParams
	if err := protocol.Unmarshal(req.Params, &p); err != nil {
		return nil, fmt.Errorf("%w: %v", protocol.ErrInvalidParams, err)
	}
	if p.Delay > 0 {
		select {
		case <-time.After(time.Duration(p.Delay) * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return map[string]int{"n": p.N}, nil
})

// TestCallAndOutOfOrderResponses runs in a synctest bubble, where the
// handlers' delays and the sleeps that fix the sending order are exact,
// so the completion order cannot depend on the machine's load.
func TestCallAndOutOfOrderResponses(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		_, cli := pair(t, echo, nil)
		ctx := context.Background()
		// The slow call is sent first and answered last.
		var wg sync.WaitGroup
		order := make(chan int, 3)
		for _, c := range []struct{ n, delay int }{{1, 150}, {2, 0}, {3, 50}} {
			wg.Go(func() {
				var res struct {
					N int `json:"n"`
				}
				if err := cli.Call(ctx, "echo", echoParams{N: c.n, Delay: c.delay}, &res); err != nil {
					t.Errorf("call %d: %v", c.n, err)
					return
				}
				if res.N != c.n {
					t.Errorf("call %d got result for %d", c.n, res.N)
				}
				order <- c.n
			})
			time.Sleep(5 * time.Millisecond) // only to fix the sending order
		}
		wg.Wait()
		close(order)
		var got []int
		for n := range order {
			got = append(got, n)
		}
		if fmt.Sprint(got) != "[2 3 1]" {
			t.Errorf("completion order = %v, want [2 3 1]", got)
		}
	})
}

func TestThousandConcurrentCalls(t *testing.T) {
	t.Parallel()
	_, cli := pair(t, echo, nil)
	var wg sync.WaitGroup
	var failed atomic.Int64
	for i := range 1000 {
		wg.Go(func() {
			var res struct {
				N int `json:"n"`
			}
			if err := cli.Call(context.Background(), "echo", echoParams{N: i}, &res); err != nil || res.N != i {
				failed.Add(1)
			}
		})
	}
	wg.Wait()
	if n := failed.Load(); n != 0 {
		t.Fatalf("%d of 1000 calls failed", n)
	}
}

// TestConcurrentCallsOverUnbufferedStreams makes many concurrent calls
// between two sessions over newline-delimited Streams on io.Pipe pairs,
// where every write waits for the peer to read: no goroutine reading a
// stream may wait on a write (both sessions' readers once flushed held
// output before reading, and each waited for the other).
func TestConcurrentCallsOverUnbufferedStreams(t *testing.T) {
	t.Parallel()
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	srv := session.New(transport.NewStream(c2sR, s2cW, nil), session.Options{Role: session.RoleServer, Handler: withInitialize(echo), Logger: quiet})
	cli := session.New(transport.NewStream(s2cR, c2sW, nil), session.Options{Role: session.RoleClient, Logger: quiet})
	t.Cleanup(func() { cli.Close(); srv.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := cli.Initialize(ctx, &protocol.InitializeParams{ProtocolVersion: protocol.LatestLegacyVersion, ClientInfo: protocol.Implementation{Name: "test", Version: "1"}}); err != nil {
		t.Fatalf("Initialize: %v", err)
	}
	var wg sync.WaitGroup
	var failed atomic.Int64
	for g := range 16 {
		wg.Go(func() {
			for i := range 300 {
				n := g*1000 + i
				var res struct {
					N int `json:"n"`
				}
				if err := cli.Call(ctx, "echo", echoParams{N: n}, &res); err != nil || res.N != n {
					failed.Add(1)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := failed.Load(); n != 0 {
		t.Fatalf("%d callers failed (a deadlock shows as the 30 s deadline passing)", n)
	}
}

func TestClientCancelReachesServerHandler(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	cause := make(chan error, 1)
	h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		close(started)
		<-ctx.Done()
		cause <- context.Cause(ctx)
		return "too late", nil
	})
	_, cli := pair(t, h, nil)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- cli.Call(ctx, "block", nil, nil) }()
	<-started
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Call error = %v, want context.Canceled", err)
	}
	select {
	case c := <-cause:
		if !errors.Is(c, session.ErrCancelledByPeer) {
			t.Errorf("handler ctx cause = %v, want ErrCancelledByPeer", c)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("server handler was not cancelled")
	}
}

func TestServerCancelsCallToClient(t *testing.T) {
	t.Parallel()
	clientSaw := make(chan error, 1)
	clientHandler := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		<-ctx.Done()
		clientSaw <- context.Cause(ctx)
		return nil, nil
	})
	srv, _ := pair(t, nil, clientHandler)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := srv.Call(ctx, protocol.MethodRootsList, nil, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	if c := <-clientSaw; !errors.Is(c, session.ErrCancelledByPeer) {
		t.Errorf("client handler cause = %v", c)
	}
}

func TestCallTimeout(t *testing.T) {
	t.Parallel()
	_, cli := pair(t, echo, nil)
	err := cli.Call(context.Background(), "echo", echoParams{Delay: 5000}, nil, session.WithTimeout(30*time.Millisecond))
	if !errors.Is(err, session.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want ErrTimeout and DeadlineExceeded", err)
	}
}

func TestPanickingHandler(t *testing.T) {
	t.Parallel()
	h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		if req.Method == "boom" {
			panic("kaboom")
		}
		return echo(ctx, req)
	})
	_, cli := pair(t, h, nil)
	err := cli.Call(context.Background(), "boom", nil, nil)
	if !errors.Is(err, protocol.ErrInternal) {
		t.Fatalf("err = %v, want internal error", err)
	}
	// The session lives on.
	if err := cli.Call(context.Background(), "echo", echoParams{N: 7}, nil); err != nil {
		t.Fatalf("call after panic: %v", err)
	}
}

func TestErrorsCarryCodes(t *testing.T) {
	t.Parallel()
	_, cli := pair(t, echo, nil)
	err := cli.Call(context.Background(), "echo", map[string]string{"n": "not a number"}, nil)
	var perr *protocol.Error
	if !errors.As(err, &perr) || perr.Code != protocol.CodeInvalidParams {
		t.Fatalf("err = %v, want -32602", err)
	}
}

func TestPeerClosingMidCall(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	release := make(chan struct{})
	h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		close(started)
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil, nil
	})
	srv, cli := pair(t, h, nil)
	errc := make(chan error, 1)
	go func() { errc <- cli.Call(context.Background(), "block", nil, nil) }()
	<-started
	srv.Close()
	close(release)
	select {
	case err := <-errc:
		if !errors.Is(err, session.ErrClosed) {
			t.Fatalf("err = %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("pending call did not fail after the peer closed")
	}
	if err := cli.Call(context.Background(), "x", nil, nil); !errors.Is(err, session.ErrClosed) {
		t.Fatalf("call after close: %v", err)
	}
}

func TestProgressRouting(t *testing.T) {
	t.Parallel()
	h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		tok, ok := req.ProgressToken()
		if !ok {
			return nil, errors.New("no progress token")
		}
		for i := 1; i <= 3; i++ {
			p := protocol.ProgressParams{ProgressToken: tok, Progress: float64(i), Total: 3}
			if err := req.Session.Notify(ctx, protocol.NotificationProgress, &p); err != nil {
				return nil, err
			}
		}
		return nil, nil
	})
	_, cli := pair(t, h, nil)
	var got []float64
	err := cli.Call(context.Background(), "work", nil, nil, session.WithProgress(func(p *protocol.ProgressParams) {
		got = append(got, p.Progress)
	}))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[1 2 3]" {
		t.Fatalf("progress = %v, want [1 2 3] before the result", got)
	}
}

// rawPeer drives a server session by hand over an in-memory pipe.
type rawPeer struct {
	t    *testing.T
	conn transport.Conn
}

func newRaw(t *testing.T, h session.Handler) (*rawPeer, *session.Session) {
	cc, sc := transport.NewPipe()
	srv := session.New(sc, session.Options{Role: session.RoleServer, Handler: withInitialize(h), Logger: quiet})
	t.Cleanup(func() { srv.Close() })
	return &rawPeer{t: t, conn: cc}, srv
}

func (p *rawPeer) send(m protocol.Message) {
	p.t.Helper()
	if err := p.conn.Write(context.Background(), m); err != nil {
		p.t.Fatal(err)
	}
}

func (p *rawPeer) recv() protocol.Message {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	m, err := p.conn.Read(ctx)
	if err != nil {
		p.t.Fatalf("read: %v", err)
	}
	return m
}

func TestRequestBeforeInitialize(t *testing.T) {
	t.Parallel()
	p, _ := newRaw(t, echo)
	p.send(&protocol.Request{ID: protocol.Int64ID(1), Method: "echo", Params: json.RawMessage(`{"n":1}`)})
	resp := p.recv().(*protocol.Response)
	if resp.Error == nil || resp.Error.Code != protocol.CodeInvalidRequest {
		t.Fatalf("response = %+v, want invalid request", resp)
	}
	// ping is allowed before initialize.
	p.send(&protocol.Request{ID: protocol.StringID("p"), Method: "ping"})
	if resp := p.recv().(*protocol.Response); resp.Error != nil || resp.ID != protocol.StringID("p") {
		t.Fatalf("ping response = %+v", resp)
	}
}

func TestModernRequestWithoutHandshake(t *testing.T) {
	t.Parallel()
	var gotVersion string
	var gotModern bool
	h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		gotVersion, gotModern = req.Version, req.Era == protocol.Modern
		return nil, nil
	})
	p, _ := newRaw(t, h)
	p.send(&protocol.Request{ID: protocol.Int64ID(1), Method: "tools/list", Params: []byte(
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`)})
	if resp := p.recv().(*protocol.Response); resp.Error != nil {
		t.Fatalf("modern request refused: %v", resp.Error)
	}
	if gotVersion != protocol.Version20260728 || !gotModern {
		t.Fatalf("handler saw version %q modern %v", gotVersion, gotModern)
	}
	p.send(&protocol.Request{ID: protocol.Int64ID(2), Method: "tools/list", Params: []byte(
		`{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}`)})
	resp := p.recv().(*protocol.Response)
	if resp.Error == nil || resp.Error.Code != protocol.CodeUnsupportedProtocolVersion {
		t.Fatalf("unsupported version response = %+v", resp)
	}
	var data protocol.UnsupportedProtocolVersionData
	if err := protocol.Unmarshal(resp.Error.Data, &data); err != nil || data.Requested != "1900-01-01" || len(data.Supported) == 0 {
		t.Fatalf("error data = %s (%v)", resp.Error.Data, err)
	}
}

func TestResponseForUnknownIDIsIgnored(t *testing.T) {
	t.Parallel()
	p, _ := newRaw(t, echo)
	p.send(&protocol.Response{ID: protocol.Int64ID(999), Result: json.RawMessage(`{}`)})
	p.send(&protocol.Request{ID: protocol.Int64ID(1), Method: "ping"})
	if resp := p.recv().(*protocol.Response); resp.ID != protocol.Int64ID(1) || resp.Error != nil {
		t.Fatalf("ping after stray response = %+v", resp)
	}
}

func TestIDsEchoedExactly(t *testing.T) {
	t.Parallel()
	p, _ := newRaw(t, echo)
	for _, raw := range []string{`1`, `"1"`, `1.0`, `-5`, `"x y"`, `1e3`} {
		id, err := protocol.ParseID([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		p.send(&protocol.Request{ID: id, Method: "ping"})
		resp := p.recv().(*protocol.Response)
		if resp.ID.Raw() != raw {
			t.Errorf("id %s echoed as %s", raw, resp.ID.Raw())
		}
	}
}

func TestDuplicateInFlightID(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		<-release
		return nil, nil
	})
	p, srv := newRaw(t, h)
	p.send(&protocol.Request{ID: protocol.Int64ID(1), Method: protocol.MethodInitialize, Params: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)})
	p.recv()
	_ = srv
	p.send(&protocol.Request{ID: protocol.Int64ID(7), Method: "block"})
	p.send(&protocol.Request{ID: protocol.Int64ID(7), Method: "block"})
	resp := p.recv().(*protocol.Response)
	if resp.Error == nil || resp.Error.Code != protocol.CodeInvalidRequest {
		t.Fatalf("duplicate id response = %+v", resp)
	}
	close(release)
	if resp := p.recv().(*protocol.Response); resp.Error != nil {
		t.Fatalf("original request failed: %v", resp.Error)
	}
}

func TestNegotiation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ asked, want string }{
		{"2025-06-18", "2025-06-18"},
		{"2024-11-05", "2024-11-05"},
		{"2099-01-01", protocol.LatestLegacyVersion},
		{"2026-07-28", protocol.LatestLegacyVersion},
	} {
		p, srv := newRaw(t, nil)
		p.send(&protocol.Request{ID: protocol.Int64ID(1), Method: protocol.MethodInitialize, Params: []byte(
			`{"protocolVersion":"` + tc.asked + `","capabilities":{"sampling":{}},"clientInfo":{"name":"c","version":"1"}}`)})
		resp := p.recv().(*protocol.Response)
		var res protocol.InitializeResult
		if err := protocol.Unmarshal(resp.Result, &res); err != nil {
			t.Fatal(err)
		}
		if res.ProtocolVersion != tc.want || srv.ProtocolVersion() != tc.want {
			t.Errorf("asked %s: got %s (session %s), want %s", tc.asked, res.ProtocolVersion, srv.ProtocolVersion(), tc.want)
		}
		if srv.ClientCapabilities().Sampling == nil || srv.ClientInfo().Name != "c" {
			t.Errorf("client capabilities/info not stored")
		}
	}
}

func TestClientRefusesUnsupportedVersion(t *testing.T) {
	t.Parallel()
	cc, sc := transport.NewPipe()
	srv := session.New(sc, session.Options{Role: session.RoleServer, Logger: quiet, Handler: session.HandlerFunc(
		func(ctx context.Context, req *session.Request) (any, error) {
			return &protocol.InitializeResult{ProtocolVersion: "1999-01-01"}, nil
		})})
	cli := session.New(cc, session.Options{Role: session.RoleClient, Logger: quiet})
	defer srv.Close()
	defer cli.Close()
	_, err := cli.Initialize(context.Background(), &protocol.InitializeParams{ProtocolVersion: protocol.LatestLegacyVersion})
	if !errors.Is(err, session.ErrUnsupportedVersion) {
		t.Fatalf("err = %v, want ErrUnsupportedVersion", err)
	}
}

func TestNotificationsBothWays(t *testing.T) {
	t.Parallel()
	got := make(chan string, 2)
	note := func(ctx context.Context, req *session.Request) (any, error) {
		if req.IsNotification() && req.Method != protocol.NotificationInitialized {
			got <- req.Method
		}
		return nil, nil
	}
	srv, cli := pair(t, session.HandlerFunc(note), session.HandlerFunc(note))
	if err := cli.Notify(context.Background(), "notifications/roots/list_changed", nil); err != nil {
		t.Fatal(err)
	}
	if m := <-got; m != "notifications/roots/list_changed" {
		t.Fatalf("server got %s", m)
	}
	if err := srv.Notify(context.Background(), "notifications/tools/list_changed", nil); err != nil {
		t.Fatal(err)
	}
	if m := <-got; m != "notifications/tools/list_changed" {
		t.Fatalf("client got %s", m)
	}
}

func TestWaitAfterPeerEOF(t *testing.T) {
	t.Parallel()
	r, w := io.Pipe()
	_, out := io.Pipe()
	s := session.New(transport.NewStream(r, out, nil), session.Options{Logger: quiet})
	w.Close()
	done := make(chan error)
	go func() { done <- s.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Wait = %v, want nil on clean EOF", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("session did not end at EOF")
	}
	if !errors.Is(s.Err(), io.EOF) {
		t.Fatalf("Err = %v, want EOF", s.Err())
	}
	s.Close()
}

func TestShutdownLetsInFlightFinish(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	started := make(chan struct{})
	h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		if req.Method == "slow" {
			close(started)
			<-release
			return "finished", nil
		}
		return nil, nil
	})
	srv, cli := pair(t, h, nil)
	res := make(chan error, 1)
	go func() {
		var out string
		err := cli.Call(context.Background(), "slow", nil, &out)
		if err == nil && out != "finished" {
			err = fmt.Errorf("result %q", out)
		}
		res <- err
	}()
	<-started
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(context.Background()) }()
	// New requests are refused while draining; the slow one goes on.
	for {
		err := cli.Call(context.Background(), "other", nil, nil)
		if err != nil && strings.Contains(err.Error(), "shutting down") {
			break
		}
	}
	close(release)
	if err := <-res; err != nil {
		t.Fatalf("in-flight call: %v", err)
	}
	if err := <-shut; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
}

func TestShutdownDeadline(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	srv, cli := pair(t, h, nil)
	go cli.Call(context.Background(), "stuck", nil, nil)
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := srv.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown = %v, want DeadlineExceeded", err)
	}
}

// TestShutdownWritesHeldResponses checks that a graceful shutdown writes
// the responses a stream transport held back to batch them (while its
// reader had more input buffered) before it closes the stream.
func TestShutdownWritesHeldResponses(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	hold, holding := make(chan struct{}), make(chan struct{})
	h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		if req.Method == "notifications/hold" {
			close(holding)
			<-hold // keeps the reader busy while input is buffered
		}
		return "done", nil
	})
	srv := session.New(transport.NewStream(inR, outW, nil), session.Options{
		Role: session.RoleServer, Handler: h, Logger: quiet, Version: protocol.LatestLegacyVersion,
	})
	go func() {
		_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"work"}`+"\n"+
			`{"jsonrpc":"2.0","method":"notifications/hold"}`+"\n"+
			`{"jsonrpc":"2.0","id":2,"method":"work"}`+"\n")
	}()
	<-holding // call 1 was read, and call 2 waits in the buffer
	shut := make(chan error, 1)
	go func() { shut <- srv.Shutdown(context.Background()) }()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(line, `"id":1,"result":"done"`) {
		t.Fatalf("first line %q, want the response to call 1", line)
	}
	close(hold)
	go func() { _, _ = io.Copy(io.Discard, outR) }()
	if err := <-shut; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	inW.Close()
	outR.Close()
}

// TestCallMeta: session.CallOption is client.CallOption, and Call honours
// client.WithMeta: its entries reach the peer in params._meta, beside the
// progress token WithProgress adds.
func TestCallMeta(t *testing.T) {
	t.Parallel()
	saw := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		meta, _ := protocol.Member(req.Params, "_meta")
		return map[string]json.RawMessage{"meta": meta}, nil
	})
	_, cli := pair(t, saw, nil)
	var res struct {
		Meta map[string]json.RawMessage `json:"meta"`
	}
	err := cli.Call(context.Background(), "saw", map[string]int{"n": 1}, &res,
		client.WithMeta(protocol.Meta{"com.example/trace": "abc"}),
		session.WithProgress(func(*protocol.ProgressParams) {}))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Meta["com.example/trace"]); got != `"abc"` {
		t.Errorf(`_meta["com.example/trace"] = %s, want "abc" (all of _meta: %v)`, got, res.Meta)
	}
	if _, ok := res.Meta[protocol.MetaProgressToken]; !ok {
		t.Errorf("_meta has no progress token: %v", res.Meta)
	}
}
