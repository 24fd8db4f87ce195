package redisstore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

const ringKey = redisstore.DefaultPrefix + "requeststate-keys"

// newRing starts a key ring that polls often and lets states live 200 ms,
// closed when the test ends.
func newRing(t *testing.T, rdb redis.UniversalClient, logger *slog.Logger) *redisstore.KeyRing {
	t.Helper()
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	r, err := redisstore.NewKeyRing(context.Background(), rdb, &redisstore.KeyRingOptions{
		PollInterval: 20 * time.Millisecond, StateTTL: 200 * time.Millisecond, Logger: logger,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// eventually polls cond until it holds; the test's deadline bounds it.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		if dl, ok := t.Deadline(); ok && time.Until(dl) < time.Second {
			t.Fatalf("still waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond) // poll interval, not an assertion
	}
}

// TestKeyRingReplicasAgree: replicas started at once on an empty Redis
// make one key; replicas polling a ring that is due at once make one new
// key; every replica comes to seal with it and keeps the old one until
// its states have expired.
func TestKeyRingReplicasAgree(t *testing.T) {
	srv := startRedis(t)
	rdb := srv.client(t)
	rings := make([]*redisstore.KeyRing, 6)
	var wg sync.WaitGroup
	for i := range rings {
		wg.Go(func() {
			r, err := redisstore.NewKeyRing(context.Background(), srv.client(t), &redisstore.KeyRingOptions{
				PollInterval: 20 * time.Millisecond, StateTTL: 200 * time.Millisecond, Logger: slog.New(slog.DiscardHandler),
			})
			if err != nil {
				t.Error(err)
				return
			}
			rings[i] = r
		})
	}
	wg.Wait()
	for _, r := range rings {
		if r != nil {
			t.Cleanup(func() { _ = r.Close() })
		}
	}
	if t.Failed() {
		return
	}
	first, secret := rings[0].Current()
	if n := rdb.HLen(context.Background(), ringKey).Val(); n != 1 {
		t.Fatalf("%d keys after six replicas started, want 1", n)
	}
	for i, r := range rings {
		if id, s := r.Current(); id != first || string(s) != string(secret) {
			t.Fatalf("replica %d seals with %q, replica 0 with %q", i, id, first)
		}
	}

	// Make the key due (made a day ago) and let every replica refresh at once.
	v := rdb.HGet(context.Background(), ringKey, first).Val()
	_, sec, _ := strings.Cut(v, ":")
	rdb.HSet(context.Background(), ringKey, first, fmt.Sprint(time.Now().Add(-25*time.Hour).UnixMilli())+":"+sec)
	for _, r := range rings {
		wg.Go(func() {
			if err := r.Refresh(context.Background()); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := rdb.HLen(context.Background(), ringKey).Val(); n != 2 {
		t.Fatalf("%d keys after six replicas rotated at once, want 2", n)
	}
	for i, r := range rings {
		eventually(t, fmt.Sprintf("replica %d to seal with the new key", i), func() bool {
			id, _ := r.Current()
			return id != first
		})
		if _, ok := r.Lookup(first); !ok {
			t.Errorf("replica %d dropped the old key as soon as the new one sealed", i)
		}
	}
	second, _ := rings[0].Current()
	for i, r := range rings {
		if id, _ := r.Current(); id != second {
			t.Errorf("replica %d seals with %q, replica 0 with %q", i, id, second)
		}
		eventually(t, fmt.Sprintf("replica %d to drop the old key", i), func() bool {
			_, ok := r.Lookup(first)
			return !ok
		})
	}
}

// askingReplica serves a tool that asks the client for a name, with the
// ring sealing its requestState (TTL 200 ms, as newRing's).
func askingReplica(t *testing.T, ring store.KeyRing) string {
	t.Helper()
	s := fastmcp.New("replica", "1.0.0", fastmcp.RequestStateKeys(ring), fastmcp.RequestStateTTL(200*time.Millisecond),
		fastmcp.Logger(slog.New(slog.DiscardHandler)))
	s.Tool("greet", func(ctx *fastmcp.Context, _ struct{}) (string, error) {
		var who struct {
			Name string `json:"name"`
		}
		if _, err := ctx.Elicit("Who?", &who); err != nil {
			return "", err
		}
		return "hello " + who.Name, nil
	})
	return serveReplica(t, s)
}

// greet runs the first round of greet on url and returns its
// requestState.
func greetState(t *testing.T, url string) string {
	t.Helper()
	res, rpcErr := callRaw(t, url, "tools/call", map[string]any{"name": "greet", "arguments": map[string]any{}})
	state, _ := res["requestState"].(string)
	if res["resultType"] != "input_required" || state == "" {
		t.Fatalf("round 1 = %v %v", res, rpcErr)
	}
	return state
}

// greetAnswer runs the second round of greet on url with state and returns
// the text or the JSON-RPC error's message.
func greetAnswer(t *testing.T, url, state string) (text, errMsg string) {
	t.Helper()
	res, rpcErr := callRaw(t, url, "tools/call", map[string]any{"name": "greet", "arguments": map[string]any{},
		"inputResponses": map[string]any{"elicit-1": map[string]any{"action": "accept", "content": map[string]any{"name": "ada"}}},
		"requestState":   state})
	if rpcErr != nil {
		return "", rpcErr.Message
	}
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		t.Fatalf("round 2 = %v", res)
	}
	text, _ = content[0].(map[string]any)["text"].(string)
	return text, ""
}

// TestKeyRingRequestState: a state sealed on one replica opens on another
// after the ring rotated, and is refused, naming its key, once the key was
// dropped.
func TestKeyRingRequestState(t *testing.T) {
	srv := startRedis(t)
	ringA, ringB := newRing(t, srv.client(t), nil), newRing(t, srv.client(t), nil)
	a, b := askingReplica(t, ringA), askingReplica(t, ringB)

	state := greetState(t, a)
	old, _ := ringA.Current()
	if err := ringA.Rotate(context.Background()); err != nil {
		t.Fatal(err)
	}
	eventually(t, "both replicas to seal with the new key", func() bool {
		idA, _ := ringA.Current()
		idB, _ := ringB.Current()
		return idA != old && idB == idA
	})
	for _, url := range []string{a, b} {
		if text, msg := greetAnswer(t, url, state); text != "hello ada" {
			t.Fatalf("state sealed with the old key, on a rotated replica: %q %s", text, msg)
		}
	}
	if text, msg := greetAnswer(t, b, greetState(t, a)); text != "hello ada" {
		t.Fatalf("state sealed with the new key on A, opened on B: %q %s", text, msg)
	}

	eventually(t, "the old key to be dropped", func() bool {
		_, okA := ringA.Lookup(old)
		_, okB := ringB.Lookup(old)
		return !okA && !okB
	})
	_, msg := greetAnswer(t, b, state)
	if !strings.Contains(msg, fmt.Sprintf("sealed with key %q, which this server does not hold", old)) {
		t.Fatalf("state sealed with a dropped key: %q", msg)
	}
}

// syncHandler records log records.
type syncHandler struct {
	mu   sync.Mutex
	msgs []string
}

func (h *syncHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *syncHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.msgs = append(h.msgs, r.Message)
	return nil
}
func (h *syncHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *syncHandler) WithGroup(string) slog.Handler      { return h }

func (h *syncHandler) count(sub string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, m := range h.msgs {
		if strings.Contains(m, sub) {
			n++
		}
	}
	return n
}

// TestKeyRingRedisRestart: while Redis is down the ring seals and opens
// with the keys it holds, saying so once in the log; a Redis that came
// back empty gets the keys back from the replicas, so a replica started
// afterwards seals with the same key.
func TestKeyRingRedisRestart(t *testing.T) {
	srv := startRedis(t)
	logs := &syncHandler{}
	rdb := redis.NewClient(&redis.Options{Addr: srv.addr, MaxRetries: -1, DialTimeout: 100 * time.Millisecond})
	t.Cleanup(func() { _ = rdb.Close() })
	ring := newRing(t, rdb, slog.New(logs))
	url := askingReplica(t, ring)
	id, secret := ring.Current()

	srv.stop()
	if err := ring.Refresh(context.Background()); !errors.Is(err, redisstore.ErrRedis) {
		t.Fatalf("Refresh with Redis down = %v, want ErrRedis", err)
	}
	eventually(t, "the ring to log that Redis does not answer", func() bool { return logs.count("Redis does not answer") > 0 })
	if text, msg := greetAnswer(t, url, greetState(t, url)); text != "hello ada" {
		t.Fatalf("multi round-trip with Redis down: %q %s", text, msg)
	}
	if got, _ := ring.Current(); got != id {
		t.Fatalf("key changed with Redis down: %q, was %q", got, id)
	}

	srv.restart(t)
	eventually(t, "the ring to log that Redis answers again", func() bool { return logs.count("Redis answers again") > 0 })
	if n := logs.count("Redis does not answer"); n != 1 {
		t.Errorf("the outage was logged %d times, want once", n)
	}
	later := newRing(t, srv.client(t), nil)
	if got, s := later.Current(); got != id || string(s) != string(secret) {
		t.Fatalf("replica started after the restart seals with %q, the others with %q", got, id)
	}
}

// TestKeyRingGarbage: a ring hash holding something else is reported,
// not used.
func TestKeyRingGarbage(t *testing.T) {
	srv := startRedis(t)
	rdb := srv.client(t)
	rdb.HSet(context.Background(), ringKey, "zz", "1:short")
	_, err := redisstore.NewKeyRing(context.Background(), rdb, nil)
	if err == nil || !strings.Contains(err.Error(), "not a ring key") {
		t.Fatalf("NewKeyRing over a bad hash = %v", err)
	}
	down := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer down.Close()
	_, err = redisstore.NewKeyRing(context.Background(), down, nil)
	if !errors.Is(err, redisstore.ErrRedis) {
		t.Fatalf("NewKeyRing without Redis = %v, want ErrRedis", err)
	}
}

// serveReplica serves s on a loopback socket until the test ends.
func serveReplica(t *testing.T, s *fastmcp.Server) string {
	t.Helper()
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_ = s.Shutdown(ctx)
	})
	return ts.URL + "/mcp"
}

// rpcError is a JSON-RPC error.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// callRaw sends one 2026-07-28 request and returns its result or its
// JSON-RPC error.
func callRaw(t *testing.T, url, method string, params map[string]any) (map[string]any, *rpcError) {
	t.Helper()
	params["_meta"] = modernMeta()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	for _, k := range []string{"name", "taskId"} {
		if v, ok := params[k].(string); ok {
			req.Header.Set("Mcp-Name", v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reply struct {
		Result map[string]any `json:"result"`
		Error  *rpcError      `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil || (reply.Result == nil && reply.Error == nil) {
		t.Fatalf("%s: %v (HTTP %d)", method, err, resp.StatusCode)
	}
	return reply.Result, reply.Error
}

// TestOptionsShareKeyRing: servers given Options share the key ring, so a
// requestState sealed on one opens on the other; a server given its own
// RequestStateSecret as well keeps it.
func TestOptionsShareKeyRing(t *testing.T) {
	srv := startRedis(t)
	ctx := context.Background()
	greeter := func(extra ...fastmcp.Option) string {
		opts, err := options(ctx, srv.client(t), nil)
		if err != nil {
			t.Fatal(err)
		}
		s := fastmcp.New("replica", "1.0.0", append(append(extra, opts...), fastmcp.Logger(slog.New(slog.DiscardHandler)))...)
		s.Tool("greet", func(ctx *fastmcp.Context, _ struct{}) (string, error) {
			var who struct {
				Name string `json:"name"`
			}
			if _, err := ctx.Elicit("Who?", &who); err != nil {
				return "", err
			}
			return "hello " + who.Name, nil
		})
		return serveReplica(t, s)
	}
	a, b := greeter(), greeter()
	own := greeter(fastmcp.RequestStateSecret([]byte("0123456789abcdef0123456789abcdef")))
	if text, msg := greetAnswer(t, b, greetState(t, a)); text != "hello ada" {
		t.Fatalf("state sealed on A, opened on B: %q %s", text, msg)
	}
	if _, msg := greetAnswer(t, own, greetState(t, a)); !strings.Contains(msg, "which this server does not hold") {
		t.Fatalf("state sealed with the ring, opened by a server with its own secret: %q", msg)
	}
}
