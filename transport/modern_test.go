package transport_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// modernServer adds modern methods to the test server: tools/call (echoes
// params.name; name "progress" first sends a progress notification, name
// "block" waits for cancellation and reports its cause on cancelled),
// subscriptions/listen (acknowledges, then waits for cancellation). The
// "block" tool sends nil on cancelled when it starts.
func modernServer(cancelled chan<- error) *lowlevel.Server {
	srv := newTestServer(nil, nil)
	srv.HandleFunc(protocol.MethodToolsCall, func(ctx context.Context, req *session.Request) (any, error) {
		var p struct {
			Name string `json:"name"`
		}
		if err := protocol.Unmarshal(req.Params, &p); err != nil {
			return nil, err
		}
		switch p.Name {
		case "progress":
			if tok, ok := req.ProgressToken(); ok {
				if err := req.Session.Notify(ctx, protocol.NotificationProgress, &protocol.ProgressParams{ProgressToken: tok, Progress: 1}); err != nil {
					return nil, err
				}
			}
		case "block":
			cancelled <- nil // started
			<-ctx.Done()
			cancelled <- context.Cause(ctx)
			return nil, ctx.Err()
		}
		return map[string]any{"content": []any{map[string]string{"type": "text", "text": p.Name}}}, nil
	})
	srv.HandleFunc(protocol.MethodSubscriptionsListen, func(ctx context.Context, req *session.Request) (any, error) {
		if err := req.Session.Notify(ctx, protocol.NotificationSubscriptionsAcknowledged, map[string]any{"notifications": map[string]any{}}); err != nil {
			return nil, err
		}
		<-ctx.Done()
		cancelled <- context.Cause(ctx)
		return nil, ctx.Err()
	})
	return srv
}

func modernBody(id int, method, params string) string {
	if params == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s}}`, id, method, modernMeta)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s,%s}}`, id, method, params, modernMeta)
}

func modernHeaders(method string, kv ...string) map[string]string {
	m := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func TestModernRequestValidation(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, modernServer(make(chan error, 10)))
	call := modernBody(3, "tools/call", `"name":"echo","arguments":{}`)
	tests := []struct {
		name   string
		body   string
		hdr    map[string]string
		status int
		code   int64 // 0: success expected
	}{
		{"ok", call, modernHeaders("tools/call", "Mcp-Name", "echo"), 200, 0},
		{"lowercase header names", call, map[string]string{"mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo"}, 200, 0},
		{"name with spaces around", call, modernHeaders("tools/call", "Mcp-Name", "  echo  "), 200, 0},
		{"name mismatch", call, modernHeaders("tools/call", "Mcp-Name", "other"), 400, protocol.CodeHeaderMismatch},
		{"name missing", call, modernHeaders("tools/call"), 400, protocol.CodeHeaderMismatch},
		{"name bad base64", call, modernHeaders("tools/call", "Mcp-Name", "=?base64?ZWNobw?="), 400, protocol.CodeHeaderMismatch},
		{"method missing", call, modernHeaders("", "Mcp-Name", "echo"), 400, protocol.CodeHeaderMismatch},
		{"method mismatch", call, modernHeaders("tools/list", "Mcp-Name", "echo"), 400, protocol.CodeHeaderMismatch},
		{"method case", call, modernHeaders("TOOLS/CALL", "Mcp-Name", "echo"), 400, protocol.CodeHeaderMismatch},
		{"version header missing", call, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "echo"}, 400, protocol.CodeHeaderMismatch},
		{"version header mismatch", strings.Replace(call, `"2026-07-28"`, `"v999.0.0"`, 1), modernHeaders("tools/call", "Mcp-Name", "echo"), 400, protocol.CodeHeaderMismatch},
		{"unsupported version", strings.Replace(call, `"2026-07-28"`, `"v999.0.0"`, 1), modernHeaders("tools/call", "Mcp-Name", "echo", "MCP-Protocol-Version", "v999.0.0"), 400, protocol.CodeUnsupportedProtocolVersion},
		{"no _meta", `{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{}}`, modernHeaders("server/discover"), 400, protocol.CodeInvalidParams},
		{"no capabilities", `{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, modernHeaders("server/discover"), 400, protocol.CodeInvalidParams},
		{"discover", modernBody(3, "server/discover", ""), modernHeaders("server/discover"), 200, 0},
		{"unknown method", modernBody(3, "unknown/method", ""), modernHeaders("unknown/method"), 404, protocol.CodeMethodNotFound},
		{"initialize is removed", modernBody(3, "initialize", ""), modernHeaders("initialize"), 404, protocol.CodeMethodNotFound},
		{"ping is removed", modernBody(3, "ping", ""), modernHeaders("ping"), 404, protocol.CodeMethodNotFound},
		{"session id means legacy", call, modernHeaders("tools/call", "Mcp-Name", "echo", "Mcp-Session-Id", "nope"), 404, transport.CodeSessionNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := rawPost(t, f.url, tt.body, tt.hdr)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tt.status, body)
			}
			if resp.Header.Get("Mcp-Session-Id") != "" {
				t.Error("a modern request got a session id")
			}
			msg := lastMessage(t, body)
			r, ok := msg.(*protocol.Response)
			if !ok || r.ID.Raw() != "3" {
				t.Fatalf("answer %s does not echo id 3", body)
			}
			if tt.code == 0 {
				if r.Error != nil {
					t.Fatalf("error %v", r.Error)
				}
				if !strings.Contains(string(r.Result), `"resultType":"complete"`) {
					t.Errorf("modern result without resultType: %s", r.Result)
				}
				return
			}
			if r.Error == nil || r.Error.Code != tt.code {
				t.Fatalf("answer %s, want error %d", body, tt.code)
			}
			if tt.code == protocol.CodeUnsupportedProtocolVersion {
				var d protocol.UnsupportedProtocolVersionData
				if err := protocol.Unmarshal(r.Error.Data, &d); err != nil || d.Requested != "v999.0.0" || len(d.Supported) == 0 {
					t.Errorf("data %s", r.Error.Data)
				}
			}
		})
	}
}

func TestModernNameHeaderBase64(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, modernServer(make(chan error, 1)))
	name := "héllo wörld"
	resp, body := rawPost(t, f.url, modernBody(1, "tools/call", `"name":"`+name+`"`), modernHeaders("tools/call", "Mcp-Name", transport.EncodeHeaderValue(name)))
	if resp.StatusCode != 200 || !strings.Contains(body, name) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}

func TestModernStreamsNotificationsWithoutEventIDs(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, modernServer(make(chan error, 1)))
	body := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"progress","_meta":{"progressToken":"p1","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	resp, text := rawPost(t, f.url, body, modernHeaders("tools/call", "Mcp-Name", "progress"))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), text)
	}
	events, _ := transport.ParseSSEForTest(strings.NewReader(text), 1<<20)
	if len(events) != 2 {
		t.Fatalf("events %+v", events)
	}
	for _, ev := range events {
		if ev.HasID || ev.Retry != 0 {
			t.Errorf("modern stream event has id/retry: %+v", ev)
		}
	}
	if !strings.Contains(events[0].Data, `"notifications/progress"`) || !strings.Contains(events[1].Data, `"id":4`) {
		t.Errorf("events %+v", events)
	}
}

func TestModernNotificationAccepted(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, modernServer(make(chan error, 1)))
	resp, body := rawPost(t, f.url, `{"jsonrpc":"2.0","method":"notifications/whatever","params":{`+modernMeta+`}}`, modernHeaders("notifications/whatever"))
	if resp.StatusCode != http.StatusAccepted || body != "" {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}

// modernClient returns a client session that sends modern requests (no
// handshake) over a StreamableClient.
func modernClient(t *testing.T, url string) *session.Session {
	cli := session.New(transport.NewStreamableClient(url, clientOpts), session.Options{Role: session.RoleClient, Logger: quiet})
	t.Cleanup(func() { cli.Close() })
	return cli
}

func modernParams(name string) json.RawMessage {
	return json.RawMessage(`{"name":"` + name + `",` + modernMeta + `}`)
}

func TestModernClientCallAndCancel(t *testing.T) {
	t.Parallel()
	cancelled := make(chan error, 1)
	f := newFixture(t, nil, modernServer(cancelled))
	cli := modernClient(t, f.url)
	var res struct {
		Content    []map[string]string `json:"content"`
		ResultType string              `json:"resultType"`
	}
	// The client sends the headers the server checks: a success proves them.
	if err := cli.Call(testCtx(t), protocol.MethodToolsCall, modernParams("échø"), &res); err != nil {
		t.Fatal(err)
	}
	if res.Content[0]["text"] != "échø" || res.ResultType != "complete" {
		t.Fatalf("result %+v", res)
	}
	err := cli.Call(testCtx(t), "nope/nope", json.RawMessage(`{`+modernMeta+`}`), nil)
	if !errors.Is(err, protocol.ErrMethodNotFound) {
		t.Fatalf("unknown method: %v", err)
	}

	// Cancelling a modern call aborts its POST; the server sees the
	// request's context end, and no notifications/cancelled is sent.
	before := len(f.log.all())
	ctx, cancel := context.WithCancel(testCtx(t))
	errc := make(chan error, 1)
	go func() { errc <- cli.Call(ctx, protocol.MethodToolsCall, modernParams("block"), nil) }()
	<-cancelled // the handler is running
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}
	select {
	case cause := <-cancelled:
		if cause == nil {
			t.Error("no cancellation cause")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server handler was not cancelled")
	}
	if n := len(f.log.all()) - before; n != 1 {
		t.Errorf("%d HTTP requests for a cancelled modern call, want 1 (no notifications/cancelled POST)", n)
	}
}

// A notifications/cancelled for a modern call whose answer has already
// arrived (the caller's ctx ended as the answer came in) is not POSTed:
// 2026-07-28 defines no client notifications over Streamable HTTP.
func TestModernClientLateCancelNotSent(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, modernServer(make(chan error, 1)))
	conn := transport.NewStreamableClient(f.url, clientOpts)
	t.Cleanup(func() { conn.Close() })
	ctx := testCtx(t)
	id := protocol.Int64ID(7)
	if err := conn.Write(ctx, &protocol.Request{ID: id, Method: protocol.MethodToolsCall, Params: modernParams("done")}); err != nil {
		t.Fatal(err)
	}
	msg, err := conn.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := msg.(*protocol.Response); !ok || r.ID != id {
		t.Fatalf("answer %#v", msg)
	}
	before := len(f.log.all())
	cancelled := json.RawMessage(`{"requestId":7,"reason":"too late"}`)
	if err := conn.Write(ctx, &protocol.Request{Method: protocol.NotificationCancelled, Params: cancelled}); err != nil {
		t.Fatal(err)
	}
	if n := len(f.log.all()) - before; n != 0 {
		t.Errorf("%d HTTP requests for a late notifications/cancelled on a modern connection, want 0", n)
	}
}

func TestModernListenStreamKeepAliveAndDisconnect(t *testing.T) {
	t.Parallel()
	cancelled := make(chan error, 1)
	f := newFixture(t, &transport.HTTPOptions{KeepAlive: 10 * time.Millisecond}, modernServer(cancelled))
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.url, strings.NewReader(modernBody(9, "subscriptions/listen", `"notifications":{"toolsListChanged":true}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range modernHeaders("subscriptions/listen") {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	sc := bufio.NewScanner(resp.Body)
	sawAck, keepAlives := false, 0
	for sc.Scan() && (!sawAck || keepAlives < 2) {
		line := sc.Text()
		if strings.Contains(line, "notifications/subscriptions/acknowledged") {
			sawAck = true
		}
		if strings.HasPrefix(line, ":") {
			keepAlives++
		}
	}
	if !sawAck || keepAlives < 2 {
		t.Fatalf("ack %v, keep-alives %d", sawAck, keepAlives)
	}
	cancel() // the client goes away: the listen request is cancelled
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the listen handler was not cancelled by the disconnect")
	}
}

func TestModernAndLegacyShareEndpoint(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, modernServer(make(chan error, 1)))
	legacy := dial(t, transport.NewStreamableClient(f.url, clientOpts), nil)
	modern := modernClient(t, f.url)
	add(t, legacy, 1, 2)
	if err := modern.Call(testCtx(t), protocol.MethodToolsCall, modernParams("x"), nil); err != nil {
		t.Fatal(err)
	}
	add(t, legacy, 3, 4)
}
