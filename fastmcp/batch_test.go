package fastmcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// batchServer is the server the batch tests talk to: add, and fail,
// which always fails.
func batchServer(opts ...fastmcp.Option) *fastmcp.Server {
	s := newServer(opts...)
	s.Tool("add", func(in AddArgs) int { return in.A + in.B }, fastmcp.Description("add"))
	s.Tool("fail", func() (string, error) { return "", errors.New("no luck") }, fastmcp.Description("fails"))
	s.Tool("progress", func(ctx *fastmcp.Context) string {
		ctx.Progress(1, 2, "half")
		ctx.Progress(2, 2, "all")
		return "done"
	}, fastmcp.Description("reports progress"))
	s.Tool("wait", func(ctx *fastmcp.Context) (string, error) {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(10 * time.Second):
			return "waited", nil
		}
	}, fastmcp.Description("waits until cancelled"))
	return s
}

// TestBatchHelperServe is the stdio server process of the batch tests.
func TestBatchHelperServe(t *testing.T) {
	if os.Getenv("FASTMCP_BATCH_HELPER") == "" {
		t.Skip("helper process for the batch tests")
	}
	if err := batchServer().Run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "run:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// startBatchServer starts the batch server in a process of its own, over
// stdio, and returns its stdin and stdout.
func startBatchServer(t *testing.T) (io.WriteCloser, *os.File) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBatchHelperServe$")
	cmd.Env = append(os.Environ(), "FASTMCP_BATCH_HELPER=1", "FASTMCP_LOG_LEVEL=error", "GORACE=atexit_sleep_ms=0")
	stdin, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, stdout, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	stdout.Close()
	t.Cleanup(func() { inW.Close(); cmd.Process.Kill(); cmd.Wait(); outR.Close() })
	return inW, outR
}

// lineReader reads the lines a stdio server writes, each within 10 s.
type lineReader struct {
	t     *testing.T
	lines chan string
}

func newLineReader(t *testing.T, r io.Reader) *lineReader {
	lr := &lineReader{t: t, lines: make(chan string, 100)}
	go func() {
		defer close(lr.lines)
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lr.lines <- sc.Text()
		}
	}()
	return lr
}

func (lr *lineReader) next() string {
	lr.t.Helper()
	select {
	case l, ok := <-lr.lines:
		if !ok {
			lr.t.Fatal("the server closed its output")
		}
		return l
	case <-time.After(10 * time.Second):
		lr.t.Fatal("no answer from the server within 10 s")
	}
	return ""
}

func initializeLine(version string) string {
	return `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
}

const initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// batchCase is a line (or POST body) sent after the handshake and what
// must answer it: an array holding exactly the responses in array (by id,
// in any order), or the single error response single, or nothing.
type batchCase struct {
	name   string
	in     string
	array  map[string]string // id ("null" for none) -> the response's "result" or "error" member, as JSON
	single string            // the whole response
}

var add12 = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`

var batchCases = []batchCase{
	{name: "requests and notifications", in: `[` + add12 + `,{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},{"jsonrpc":"2.0","id":"p","method":"ping"},{"jsonrpc":"2.0","id":2,"method":"no/such"}]`,
		array: map[string]string{
			"1":   `{"result":{"content":[{"type":"text","text":"3"}],"structuredContent":{"result":3}}}`,
			`"p"`: `{"result":{}}`,
			"2":   `{"error":{"code":-32601,"message":"Method not found: no/such"}}`,
		}},
	{name: "a tool error", in: `[{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fail","arguments":{}}}]`,
		array: map[string]string{"3": `{"result":{"content":[{"type":"text","text":"no luck"}],"isError":true}}`}},
	{name: "all notifications", in: `[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}]`},
	{name: "empty", in: `[]`, single: `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an empty batch"}}`},
	{name: "invalid elements", in: `[1,{"jsonrpc":"2.0","id":4,"method":"ping"},{"jsonrpc":"1.0","id":5,"method":"ping"}]`,
		array: map[string]string{
			"null": `{"error":{"code":-32600,"message":"Invalid Request: a message must be a JSON object"}}`,
			"4":    `{"result":{}}`,
			"5":    `{"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}}`,
		}},
	{name: "invalid JSON", in: `[{"jsonrpc":"2.0","id":6,"method":"ping"},`, single: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: invalid JSON"}}`},
}

// checkBatchAnswer checks got, the answer to tc (one line or body).
func checkBatchAnswer(t *testing.T, tc batchCase, got string) {
	t.Helper()
	if tc.single != "" {
		if got != tc.single {
			t.Errorf("%s: answer\n got %s\nwant %s", tc.name, got, tc.single)
		}
		return
	}
	var elems []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(got), &elems); err != nil {
		t.Fatalf("%s: answer %s is not an array of objects: %v", tc.name, got, err)
	}
	seen := map[string]string{}
	for _, e := range elems {
		id := "null"
		if raw, ok := e["id"]; ok {
			id = string(raw)
		}
		if _, dup := seen[id]; dup {
			t.Errorf("%s: two responses with id %s in %s", tc.name, id, got)
		}
		if string(e["jsonrpc"]) != `"2.0"` {
			t.Errorf("%s: response without jsonrpc 2.0: %s", tc.name, got)
		}
		delete(e, "id")
		delete(e, "jsonrpc")
		b, _ := json.Marshal(e)
		seen[id] = string(b)
	}
	for id, want := range tc.array {
		var w map[string]json.RawMessage
		_ = json.Unmarshal([]byte(want), &w)
		wb, _ := json.Marshal(w)
		if seen[id] != string(wb) {
			t.Errorf("%s: response %s = %s, want %s (answer %s)", tc.name, id, seen[id], wb, got)
		}
	}
	if len(seen) != len(tc.array) {
		t.Errorf("%s: %d responses, want %d: %s", tc.name, len(seen), len(tc.array), got)
	}
}

const pingLine = `{"jsonrpc":"2.0","id":"after","method":"ping"}`
const pingAnswer = `{"jsonrpc":"2.0","id":"after","result":{}}`

// TestBatchOverStdio sends batches to a server process on 2025-03-26:
// each is answered with one line, an array of the responses, or nothing
// at all for a batch of notifications (the next line answers the ping
// sent after it).
func TestBatchOverStdio(t *testing.T) {
	t.Parallel()
	in, out := startBatchServer(t)
	lr := newLineReader(t, out)
	fmt.Fprintln(in, `[`+pingLine+`]`) // before initialize
	if got, want := lr.next(), `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a JSON-RPC batch cannot come before initialize (batches are only supported on protocol revision 2025-03-26, and initialize must be sent on its own)"}}`; got != want {
		t.Fatalf("batch before initialize answered\n%s\nwant\n%s", got, want)
	}
	fmt.Fprintln(in, initializeLine(protocol.Version20250326))
	if got := lr.next(); !strings.Contains(got, `"protocolVersion":"2025-03-26"`) {
		t.Fatalf("initialize answered %s", got)
	}
	fmt.Fprintln(in, initializedLine)
	for _, tc := range batchCases {
		fmt.Fprintln(in, tc.in)
		if tc.single != "" || tc.array != nil {
			checkBatchAnswer(t, tc, lr.next())
		}
		fmt.Fprintln(in, pingLine)
		if got := lr.next(); got != pingAnswer {
			t.Errorf("%s: the ping after it answered %s; want %s (nothing else)", tc.name, got, pingAnswer)
		}
	}
}

// TestBatchRefusedOnOtherRevisionsOverStdio checks that a session on any
// revision but 2025-03-26 answers a batch with one error saying so, and
// goes on.
func TestBatchRefusedOnOtherRevisionsOverStdio(t *testing.T) {
	t.Parallel()
	for _, v := range []string{protocol.Version20241105, protocol.Version20250618, protocol.Version20251125} {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			in, out := startBatchServer(t)
			lr := newLineReader(t, out)
			fmt.Fprintln(in, initializeLine(v))
			if got := lr.next(); !strings.Contains(got, `"protocolVersion":"`+v+`"`) {
				t.Fatalf("initialize answered %s", got)
			}
			fmt.Fprintln(in, initializedLine)
			fmt.Fprintln(in, `[`+add12+`]`)
			want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: JSON-RPC batches are only supported on protocol revision 2025-03-26, not on ` + v + `"}}`
			if got := lr.next(); got != want {
				t.Fatalf("batch answered\n%s\nwant\n%s", got, want)
			}
			fmt.Fprintln(in, pingLine)
			if got := lr.next(); got != pingAnswer {
				t.Fatalf("the ping after it answered %s", got)
			}
		})
	}
}

// postBatch POSTs body to url in session sid (none when empty) and returns
// the status and the JSON-RPC message of the answer (the data of the one
// SSE event, or the JSON body).
func postBatch(t *testing.T, url, sid, version, body string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctxT(t), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set(transport.HeaderSessionID, sid)
	}
	if version != "" {
		req.Header.Set(transport.HeaderProtocolVersion, version)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	msg := string(b)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		data := sseData(msg)
		if len(data) != 1 {
			t.Fatalf("SSE answer %q carries %d messages, want 1", msg, len(data))
		}
		msg = data[0]
	}
	return resp.StatusCode, strings.TrimSpace(msg), resp.Header
}

// httpSession starts a session on version and returns its id ("" from a
// stateless server).
func httpSession(t *testing.T, url, version string, stateless bool) string {
	t.Helper()
	status, body, hdr := postBatch(t, url, "", "", initializeLine(version))
	sid := hdr.Get(transport.HeaderSessionID)
	if status != http.StatusOK || (sid == "") != stateless || !strings.Contains(body, `"protocolVersion":"`+version+`"`) {
		t.Fatalf("initialize: %d %s (session %q)", status, body, sid)
	}
	if status, _, _ := postBatch(t, url, sid, version, initializedLine); status != http.StatusAccepted {
		t.Fatalf("initialized: %d", status)
	}
	return sid
}

// httpModes are the ways a Streamable HTTP server answers.
var httpModes = []struct {
	name            string
	json, stateless bool
}{{"sse", false, false}, {"json", true, false}, {"stateless sse", false, true}, {"stateless json", true, true}}

// TestBatchOverHTTP POSTs batches to a Streamable HTTP server on 127.0.0.1
// answering with SSE streams and with JSON bodies, stateful and stateless:
// each is answered with the array of its responses in one message, 202
// and no body for a batch of notifications, 400 with one error for an
// empty or unparsable one.
func TestBatchOverHTTP(t *testing.T) {
	t.Parallel()
	for _, mode := range httpModes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			s := batchServer(fastmcp.JSONResponse(mode.json), fastmcp.Stateless(mode.stateless))
			h := s
			ts := httptest.NewServer(h)
			t.Cleanup(func() { closeNow(h); ts.Close() })
			url := ts.URL + "/mcp"
			sid := httpSession(t, url, protocol.Version20250326, mode.stateless)
			for _, tc := range batchCases {
				for _, version := range []string{"", protocol.Version20250326} {
					status, body, _ := postBatch(t, url, sid, version, tc.in)
					switch {
					case tc.single != "":
						if status != http.StatusBadRequest {
							t.Errorf("%s: status %d, want 400", tc.name, status)
						}
						checkBatchAnswer(t, tc, body)
					case tc.array != nil:
						if status != http.StatusOK {
							t.Errorf("%s: status %d, want 200", tc.name, status)
						}
						checkBatchAnswer(t, tc, body)
					default:
						if status != http.StatusAccepted || body != "" {
							t.Errorf("%s: answered %d %q, want 202 and no body", tc.name, status, body)
						}
					}
				}
			}
		})
	}
}

// TestBatchRefusedOverHTTP checks the batches refused with 400 and one
// error saying why: on a session of another revision, with another
// MCP-Protocol-Version, without a session, and as a 2026-07-28 request.
func TestBatchRefusedOverHTTP(t *testing.T) {
	t.Parallel()
	s := batchServer()
	h := s
	ts := httptest.NewServer(h)
	t.Cleanup(func() { closeNow(h); ts.Close() })
	url := ts.URL + "/mcp"
	batch := `[` + add12 + `]`
	only := func(v string) string {
		return `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: JSON-RPC batches are only supported on protocol revision 2025-03-26, not on ` + v + `"}}`
	}
	s0618 := httpSession(t, url, protocol.Version20250618, false)
	s1125 := httpSession(t, url, protocol.Version20251125, false)
	s0326 := httpSession(t, url, protocol.Version20250326, false)
	for _, tc := range []struct {
		name, sid, version, want string
	}{
		{"2025-06-18 session", s0618, protocol.Version20250618, only(protocol.Version20250618)},
		{"2025-11-25 session", s1125, "", only(protocol.Version20251125)},
		{"2025-03-26 session, other header", s0326, protocol.Version20250618, only(protocol.Version20250618)},
		{"2026-07-28", "", protocol.Version20260728, only(protocol.Version20260728)},
		{"no session", "", "", `"message":"Bad Request: missing Mcp-Session-Id header (a batch cannot start a session: send initialize first, on its own)"`},
	} {
		status, body, _ := postBatch(t, url, tc.sid, tc.version, batch)
		if status != http.StatusBadRequest || !strings.Contains(body, tc.want) {
			t.Errorf("%s: answered %d %s; want 400 with %s", tc.name, status, body, tc.want)
		}
	}
}

// TestClientBatch sends batches with Client.Batch to our server over
// stdio (a server process), Streamable HTTP (SSE and JSON answers,
// stateful and stateless) and the legacy HTTP+SSE transport, on
// 2025-03-26: every call gets its own result or error. On other revisions
// Batch sends nothing and fails with ErrBatchUnsupported.
func TestClientBatch(t *testing.T) {
	t.Parallel()
	v0326 := client.WithProtocolVersion(protocol.Version20250326)
	connectors := []struct {
		name    string
		connect func(t *testing.T, opts ...client.Option) *client.Client
	}{
		{"stdio", func(t *testing.T, opts ...client.Option) *client.Client {
			in, out := startBatchServer(t)
			c, err := client.Connect(ctxT(t), transport.NewStream(out, in, nil), append(opts, client.WithLogger(quietLogger))...)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			return c
		}},
	}
	for _, mode := range httpModes {
		connectors = append(connectors, struct {
			name    string
			connect func(t *testing.T, opts ...client.Option) *client.Client
		}{"http " + mode.name, func(t *testing.T, opts ...client.Option) *client.Client {
			s := batchServer(fastmcp.JSONResponse(mode.json), fastmcp.Stateless(mode.stateless))
			h := s
			ts := httptest.NewServer(h)
			t.Cleanup(func() { closeNow(h); ts.Close() })
			c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", append(opts, client.WithLogger(quietLogger))...)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			return c
		}})
	}
	connectors = append(connectors, struct {
		name    string
		connect func(t *testing.T, opts ...client.Option) *client.Client
	}{"legacy http+sse", func(t *testing.T, opts ...client.Option) *client.Client {
		s := batchServer()
		h := s
		ts := httptest.NewServer(h)
		t.Cleanup(func() { closeNow(h); ts.Close() })
		c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/sse", append(opts, client.WithLogger(quietLogger))...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}})
	for _, cn := range connectors {
		t.Run(cn.name, func(t *testing.T) {
			t.Parallel()
			c := cn.connect(t, v0326)
			if v := c.ProtocolVersion(); v != protocol.Version20250326 {
				t.Fatalf("negotiated %s", v)
			}
			var sums [5]protocol.CallToolResult
			var calls []*client.BatchCall
			for i := range sums {
				calls = append(calls, &client.BatchCall{Method: protocol.MethodToolsCall,
					Params: map[string]any{"name": "add", "arguments": map[string]int{"a": i, "b": 10}}, Result: &sums[i]})
			}
			var failed protocol.CallToolResult
			missing := &client.BatchCall{Method: "no/such"}
			note := &client.BatchCall{Method: "notifications/roots/list_changed", Notification: true}
			calls = append(calls, &client.BatchCall{Method: protocol.MethodToolsCall, Params: map[string]any{"name": "fail"}, Result: &failed},
				missing, note, &client.BatchCall{Method: protocol.MethodPing})
			if err := c.Batch(ctxT(t), calls...); err != nil {
				t.Fatalf("Batch: %v", err)
			}
			for i, call := range calls {
				if call != missing && call.Err != nil {
					t.Errorf("call %d (%s): %v", i, call.Method, call.Err)
				}
			}
			for i := range sums {
				if got := string(sums[i].StructuredContent); got != fmt.Sprintf(`{"result":%d}`, i+10) {
					t.Errorf("add %d: structured content %s", i, got)
				}
			}
			if !failed.IsError {
				t.Errorf("fail: result %+v, want a tool error", failed)
			}
			if !errors.Is(missing.Err, protocol.ErrMethodNotFound) {
				t.Errorf("no/such: %v, want method not found", missing.Err)
			}
			// The connection goes on.
			if err := c.Ping(ctxT(t)); err != nil {
				t.Fatalf("ping after the batch: %v", err)
			}
			// Only notifications: nothing to wait for.
			if err := c.Batch(ctxT(t), note, &client.BatchCall{Method: "notifications/roots/list_changed", Notification: true}); err != nil {
				t.Fatalf("Batch of notifications: %v", err)
			}
		})
		t.Run(cn.name+" other revisions", func(t *testing.T) {
			t.Parallel()
			for _, v := range []string{protocol.Version20250618, protocol.Version20251125, protocol.Version20260728} {
				if protocol.EraOf(v).Stateless() && cn.name == "legacy http+sse" {
					continue // that transport carries legacy revisions only
				}
				c := cn.connect(t, client.WithProtocolVersion(v))
				call := &client.BatchCall{Method: protocol.MethodPing}
				err := c.Batch(ctxT(t), call)
				if !errors.Is(err, session.ErrBatchUnsupported) || !errors.Is(call.Err, session.ErrBatchUnsupported) || !strings.Contains(err.Error(), v) {
					t.Errorf("%s: Batch = %v (call: %v), want ErrBatchUnsupported naming %s", v, err, call.Err, v)
				}
				if err := c.Ping(ctxT(t)); err != nil {
					t.Errorf("%s: ping after the refused batch: %v", v, err)
				}
			}
		})
	}
}

// sseData returns the data of the events of an SSE body.
func sseData(body string) []string {
	var data []string
	for l := range strings.SplitSeq(body, "\n") {
		if d, ok := strings.CutPrefix(l, "data: "); ok && d != "" {
			data = append(data, d)
		}
	}
	return data
}

// TestBatchSSEStream checks the SSE answer to a batch over Streamable
// HTTP: the messages related to its calls (progress) travel on it before
// the array of responses, and a call the client cancels meanwhile is left
// out of that array while the others are answered.
func TestBatchSSEStream(t *testing.T) {
	t.Parallel()
	s := batchServer()
	h := s
	ts := httptest.NewServer(h)
	t.Cleanup(func() { closeNow(h); ts.Close() })
	url := ts.URL + "/mcp"
	sid := httpSession(t, url, protocol.Version20250326, false)

	req, err := http.NewRequestWithContext(ctxT(t), http.MethodPost, url, strings.NewReader(`[`+
		`{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"wait"}},`+
		`{"jsonrpc":"2.0","id":"p","method":"tools/call","params":{"name":"progress","_meta":{"progressToken":"tok"}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(transport.HeaderSessionID, sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("answer %d %s, want 200 and an SSE stream", resp.StatusCode, ct)
	}
	// The progress notifications come while "wait" still runs: cancel it.
	r := bufio.NewReader(resp.Body)
	var lines []string
	for progress := 0; progress < 2; {
		l, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("the stream ended after %q: %v", lines, err)
		}
		lines = append(lines, l)
		if strings.Contains(l, `"method":"notifications/progress"`) && strings.Contains(l, `"progressToken":"tok"`) {
			progress++
		}
	}
	if status, _, _ := postBatch(t, url, sid, "", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w"}}`); status != http.StatusAccepted {
		t.Fatalf("cancelling: %d", status)
	}
	rest, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	data := sseData(string(rest))
	if len(data) != 1 {
		t.Fatalf("after the progress the stream carried %q, want one message", data)
	}
	checkBatchAnswer(t, batchCase{name: "progress and a cancelled call", array: map[string]string{
		`"p"`: `{"result":{"content":[{"type":"text","text":"done"}]}}`,
	}}, data[0])
}
