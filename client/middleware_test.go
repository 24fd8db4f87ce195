package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// sendLog records what client middleware saw.
type sendLog struct {
	mu      sync.Mutex
	entries []string
}

func (l *sendLog) add(s string) {
	l.mu.Lock()
	l.entries = append(l.entries, s)
	l.mu.Unlock()
}

func (l *sendLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.entries)
}

// TestClientMiddleware: WithMiddleware sees every request the client
// sends, outermost first, with its method, params and revision; what it
// puts in _meta reaches the server; it gets the raw result back, and the
// server's error as a *protocol.Error. Both eras.
func TestClientMiddleware(t *testing.T) {
	s := newServer()
	seenMeta := make(chan string, 4)
	s.Tool("echo", func(ctx *fastmcp.Context, in struct {
		Text string `json:"text"`
	}) (string, error) {
		if v, ok := ctx.Request().Meta.Other["x-trace"]; ok {
			seenMeta <- string(v)
		}
		return in.Text, nil
	})
	s.Tool("fail", func(struct{}) (string, error) { return "", errors.New("boom") })

	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		var log sendLog
		outer := func(next client.SendFunc) client.SendFunc {
			return func(ctx context.Context, req *client.OutgoingRequest) (json.RawMessage, error) {
				log.add("outer " + req.Method)
				if req.Method == protocol.MethodToolsCall {
					p, err := protocol.SetMeta(req.Params, "x-trace", "t1")
					if err != nil {
						return nil, err
					}
					req.Params = p
				}
				res, err := next(ctx, req)
				var perr *protocol.Error
				switch {
				case errors.As(err, &perr):
					log.add("outer error " + perr.Message)
				case err == nil && req.Method == protocol.MethodToolsCall:
					var r struct {
						IsError bool `json:"isError"`
					}
					_ = json.Unmarshal(res, &r)
					if r.IsError {
						log.add("outer isError")
					}
				}
				return res, err
			}
		}
		inner := func(next client.SendFunc) client.SendFunc {
			return func(ctx context.Context, req *client.OutgoingRequest) (json.RawMessage, error) {
				log.add("inner " + req.Method + " " + req.Version)
				if req.Session == nil {
					t.Error("OutgoingRequest.Session is nil")
				}
				res, err := next(ctx, req)
				if !req.ID.IsValid() {
					t.Errorf("%s: OutgoingRequest.ID not set once sent", req.Method)
				}
				return res, err
			}
		}
		c := connect(t, s, era, client.WithMiddleware(outer), client.WithMiddleware(inner))
		ctx := ctxT(t)
		v := c.ProtocolVersion()

		res, err := c.CallTool(ctx, "echo", map[string]string{"text": "hi"})
		if err != nil || res.IsError {
			t.Fatalf("CallTool echo: %v %+v", err, res)
		}
		if got := recvT(t, seenMeta); got != `"t1"` {
			t.Errorf("server saw _meta x-trace %s, want \"t1\"", got)
		}
		if res, err := c.CallTool(ctx, "fail", nil); err != nil || !res.IsError {
			t.Fatalf("CallTool fail: %v %+v", err, res)
		}
		if _, err := c.CallTool(ctx, "nope", nil); err == nil {
			t.Fatal("CallTool nope: no error")
		}

		want := []string{"outer initialize", "inner initialize " + v}
		if modern {
			want = []string{"outer server/discover", "inner server/discover " + v}
		}
		want = append(want,
			"outer tools/call", "inner tools/call "+v,
			"outer tools/call", "inner tools/call "+v, "outer isError",
			"outer tools/call", "inner tools/call "+v)
		got := log.all()
		// The modern client lists the tools before a call over HTTP only;
		// in memory the calls above are all it sends.
		if len(got) != len(want)+1 || !slices.Equal(got[:len(want)], want) {
			t.Fatalf("middleware saw\n%q\nwant\n%q + an error", got, want)
		}
		if last := got[len(got)-1]; !strings.HasPrefix(last, "outer error ") || !strings.Contains(last, "nope") {
			t.Errorf("last entry %q, want the server's error", last)
		}
	})
}

// TestClientMiddlewareLegacyCall: initialize, Client.Call and Ping on a
// legacy session pass through the middleware too, and decode the result it returns.
func TestClientMiddlewareLegacyCall(t *testing.T) {
	s := newServer()
	var log sendLog
	mw := func(next client.SendFunc) client.SendFunc {
		return func(ctx context.Context, req *client.OutgoingRequest) (json.RawMessage, error) {
			log.add(req.Method)
			return next(ctx, req)
		}
	}
	c := connect(t, s, legacy, client.WithMiddleware(mw))
	ctx := ctxT(t)
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	var res protocol.ListToolsResult
	if err := c.Call(ctx, protocol.MethodToolsList, nil, &res); err == nil {
		t.Fatal("tools/list on a server without tools: no error")
	}
	if got, want := log.all(), []string{"initialize", "ping", "tools/list"}; !slices.Equal(got, want) {
		t.Errorf("middleware saw %q, want %q", got, want)
	}
}
