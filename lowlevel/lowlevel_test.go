package lowlevel_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// connect serves srv in memory and returns an initialized client session.
func connect(t *testing.T, srv *lowlevel.Server, modern bool) *session.Session {
	t.Helper()
	cc, sc := transport.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.ServeConn(ctx, sc); close(done) }()
	cli := session.New(cc, session.Options{Role: session.RoleClient, Logger: srv.Logger()})
	t.Cleanup(func() { cli.Close(); cancel(); <-done })
	if !modern {
		if _, err := cli.Initialize(context.Background(), &protocol.InitializeParams{ProtocolVersion: protocol.LatestLegacyVersion}); err != nil {
			t.Fatal(err)
		}
	}
	return cli
}

func TestMiddlewareOrder(t *testing.T) {
	t.Parallel()
	srv := newServer()
	var trace []string
	mw := func(name string) lowlevel.Middleware {
		return func(next lowlevel.Handler) lowlevel.Handler {
			return lowlevel.HandlerFunc(func(ctx context.Context, req *lowlevel.Request) (any, error) {
				if req.Method != "hello" {
					return next.Handle(ctx, req)
				}
				trace = append(trace, name+" in")
				res, err := next.Handle(ctx, req)
				trace = append(trace, name+" out")
				return res, err
			})
		}
	}
	srv.Use(mw("first"), mw("second"))
	srv.HandleFunc("hello", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		trace = append(trace, "handler")
		return map[string]string{"greeting": "hi"}, nil
	})
	cli := connect(t, srv, false)
	var res struct {
		Greeting string `json:"greeting"`
	}
	if err := cli.Call(context.Background(), "hello", nil, &res); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(trace, ", "); got != "first in, second in, handler, second out, first out" {
		t.Fatalf("order: %s", got)
	}
}

func TestModernResultsAreDecorated(t *testing.T) {
	t.Parallel()
	srv := newServer()
	srv.HandleFunc("tools/list", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		return &protocol.ListToolsResult{Tools: []*protocol.Tool{}}, nil
	})
	cli := connect(t, srv, true)
	params := json.RawMessage(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`)
	var raw json.RawMessage
	if err := cli.Call(context.Background(), "tools/list", params, &raw); err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	if !strings.Contains(s, `"resultType":"complete"`) || !strings.Contains(s, `"io.modelcontextprotocol/serverInfo":{"name":"t","version":"1"}`) {
		t.Fatalf("modern result not decorated: %s", s)
	}
	// Methods removed in 2026-07-28 are refused for modern requests.
	for _, m := range []string{"ping", "logging/setLevel", "resources/subscribe"} {
		err := cli.Call(context.Background(), m, params, nil)
		if !errors.Is(err, protocol.ErrMethodNotFound) {
			t.Errorf("modern %s: err = %v, want method not found", m, err)
		}
	}
	// server/discover answers with the supported versions.
	var disc protocol.DiscoverResult
	if err := cli.Call(context.Background(), protocol.MethodServerDiscover, params, &disc); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(disc.SupportedVersions) != fmt.Sprint(protocol.SupportedVersions()) || disc.ResultType != "complete" {
		t.Fatalf("discover = %+v", disc)
	}
}

func TestLegacyResultsAreNotDecorated(t *testing.T) {
	t.Parallel()
	srv := newServer()
	cli := connect(t, srv, false)
	var raw json.RawMessage
	if err := cli.Call(context.Background(), "logging/setLevel", map[string]string{"level": "info"}, &raw); err != nil {
		t.Fatal(err)
	}
	if string(raw) != "{}" {
		t.Fatalf("setLevel result = %s, want {}", raw)
	}
}

// TestLookup: Lookup returns the handler as registered, middleware aside,
// so a feature that keeps its state in its handler finds it again.
func TestLookup(t *testing.T) {
	t.Parallel()
	srv := newServer()
	srv.Use(func(next lowlevel.Handler) lowlevel.Handler { return next })
	if _, ok := srv.Lookup("x/state"); ok {
		t.Fatal("Lookup found a handler before Handle")
	}
	want := &countingHandler{}
	srv.Handle("x/state", want)
	h, ok := srv.Lookup("x/state")
	if got, _ := h.(*countingHandler); !ok || got != want {
		t.Fatalf("Lookup = %v, %v, want the registered handler", h, ok)
	}
	srv.Remove("x/state")
	if _, ok := srv.Lookup("x/state"); ok {
		t.Fatal("Lookup found a removed handler")
	}
}

type countingHandler struct{ n int }

func (h *countingHandler) Handle(context.Context, *lowlevel.Request) (any, error) {
	h.n++
	return nil, nil
}

// TestSkillsResultsAreCacheable: the skills extension's skills/list and
// skills/get are cacheable results in 2026-07-28, so a handler's result
// gets the server's ttlMs and cacheScope like the core lists.
func TestSkillsResultsAreCacheable(t *testing.T) {
	t.Parallel()
	srv := lowlevel.NewServer(protocol.Implementation{Name: "t", Version: "1"}, &lowlevel.Options{CacheTTL: 90 * time.Second, CacheScope: protocol.CacheScopePublic})
	for _, m := range []string{protocol.MethodSkillsList, protocol.MethodSkillsGet, "x/other"} {
		srv.HandleFunc(m, func(ctx context.Context, req *lowlevel.Request) (any, error) {
			return json.RawMessage(`{"skills":[]}`), nil
		})
	}
	cli := connect(t, srv, true)
	params := json.RawMessage(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`)
	for m, want := range map[string]bool{protocol.MethodSkillsList: true, protocol.MethodSkillsGet: true, "x/other": false} {
		var raw json.RawMessage
		if err := cli.Call(context.Background(), m, params, &raw); err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(string(raw), `"ttlMs":90000,"cacheScope":"public"`)
		if got != want {
			t.Errorf("%s result %s: cache attributes %v, want %v", m, raw, got, want)
		}
	}
}
