package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// fakeRequest is one JSON-RPC request a fakeServer received.
type fakeRequest struct {
	ID     json.RawMessage
	Method string
	Params json.RawMessage
	Header http.Header
}

// param returns the raw member name of the request's params, or nil.
func (r fakeRequest) param(name string) json.RawMessage {
	var m map[string]json.RawMessage
	_ = jsonv2.Unmarshal(r.Params, &m)
	return m[name]
}

// fakeServer is a scripted modern (2026-07-28) MCP server over HTTP that
// records every request. answer returns the HTTP status and the members
// after the id: `"result":{...}` or `"error":{...}`; status 0 means 200.
// server/discover is answered unless answer handles it.
type fakeServer struct {
	t      *testing.T
	answer func(req fakeRequest) (int, string)

	mu   sync.Mutex
	reqs []fakeRequest
}

func newFakeServer(t *testing.T, answer func(req fakeRequest) (int, string)) (*fakeServer, string) {
	f := &fakeServer{t: t, answer: answer}
	ts := httptest.NewServer(f)
	t.Cleanup(ts.Close)
	return f, ts.URL
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := jsonv2.Unmarshal(body, &msg); err != nil {
		f.t.Errorf("fake server: bad body %s: %v", body, err)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	req := fakeRequest{ID: msg.ID, Method: msg.Method, Params: msg.Params, Header: r.Header.Clone()}
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	if len(msg.ID) == 0 {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	status, members := f.answer(req)
	if status == 0 && members == "" && msg.Method == protocol.MethodServerDiscover {
		members = `"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"resultType":"complete","ttlMs":0,"cacheScope":"private"}`
	}
	if members == "" {
		status, members = http.StatusNotFound, `"error":{"code":-32601,"message":"Method not found"}`
	}
	w.Header().Set("Content-Type", "application/json")
	if status != 0 {
		w.WriteHeader(status)
	}
	io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,`+members+`}`)
}

// requests returns the recorded requests of method.
func (f *fakeServer) requests(method string) []fakeRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeRequest
	for _, r := range f.reqs {
		if r.Method == method {
			out = append(out, r)
		}
	}
	return out
}

func connectModern(t *testing.T, url string, opts ...client.Option) *client.Client {
	t.Helper()
	opts = append([]client.Option{client.WithLogger(quietLogger), client.WithProtocolVersion("2026-07-28")}, opts...)
	c, err := client.ConnectHTTP(ctxT(t), url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func toolsResult(tools ...string) string {
	return `"result":{"tools":[` + strings.Join(tools, ",") + `],"resultType":"complete","ttlMs":300000,"cacheScope":"public"}`
}

const textResult = `"result":{"content":[{"type":"text","text":"ok"}],"resultType":"complete"}`

func TestClientMirrorsParamHeaders(t *testing.T) {
	t.Parallel()
	const tool = `{"name":"q","inputSchema":{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"priority":{"type":"integer","x-mcp-header":"Priority"},
		"verbose":{"type":"boolean","x-mcp-header":"Verbose"},
		"target":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},
		"ratio":{"type":"number"},
		"query":{"type":"string"}}}}`
	f, url := newFakeServer(t, func(req fakeRequest) (int, string) {
		switch req.Method {
		case protocol.MethodToolsList:
			return 0, toolsResult(tool)
		case protocol.MethodToolsCall:
			return 0, textResult
		}
		return 0, ""
	})
	c := connectModern(t, url)
	for _, tc := range []struct {
		name string
		args string
		want map[string]string // Mcp-Param-* headers; others must be absent
	}{
		{"plain", `{"region":"us-west1","priority":42,"verbose":false,"query":"SELECT 1","ratio":3.5}`,
			map[string]string{"Region": "us-west1", "Priority": "42", "Verbose": "false"}},
		{"encoded", `{"region":" padded ","target":{"zone":"Hello, 世界"}}`,
			map[string]string{"Region": "=?base64?IHBhZGRlZCA=?=", "Zone": "=?base64?SGVsbG8sIOS4lueVjA==?="}},
		{"sentinel-looking value", `{"region":"=?base64?literal?="}`,
			map[string]string{"Region": "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="}},
		{"control characters", `{"region":"line1\nline2","priority":-7}`,
			map[string]string{"Region": "=?base64?bGluZTEKbGluZTI=?=", "Priority": "-7"}},
		{"empty and internal space", `{"region":"","target":{"zone":"us west 1"}}`,
			map[string]string{"Region": "", "Zone": "us west 1"}},
		{"null and absent", `{"region":null,"verbose":true}`, map[string]string{"Verbose": "true"}},
	} {
		before := len(f.requests(protocol.MethodToolsCall))
		if _, err := c.CallTool(ctxT(t), "q", json.RawMessage(tc.args)); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		calls := f.requests(protocol.MethodToolsCall)
		if len(calls) != before+1 {
			t.Fatalf("%s: %d calls sent, want 1", tc.name, len(calls)-before)
		}
		call := calls[len(calls)-1]
		if got := string(call.param("arguments")); got != tc.args {
			t.Errorf("%s: arguments = %s, want them as given", tc.name, got)
		}
		for name := range call.Header {
			if p, ok := strings.CutPrefix(name, "Mcp-Param-"); ok {
				if _, want := tc.want[p]; !want {
					t.Errorf("%s: unexpected header %s: %q", tc.name, name, call.Header.Get(name))
				}
			}
		}
		for p, v := range tc.want {
			if got := call.Header.Values("Mcp-Param-" + p); len(got) != 1 || got[0] != v {
				t.Errorf("%s: Mcp-Param-%s = %q, want %q", tc.name, p, got, v)
			}
		}
		if call.Header.Get("Mcp-Method") != "tools/call" || call.Header.Get("Mcp-Name") != "q" {
			t.Errorf("%s: standard headers %v", tc.name, call.Header)
		}
	}
	// The first call listed the tools itself, once.
	if n := len(f.requests(protocol.MethodToolsList)); n != 1 {
		t.Errorf("%d tools/list requests, want 1", n)
	}
}

func TestClientDropsToolsWithInvalidHeaders(t *testing.T) {
	t.Parallel()
	prop := func(p string) string {
		return `{"type":"object","properties":{` + p + `}}`
	}
	invalid := map[string]string{
		"empty":          prop(`"v":{"type":"string","x-mcp-header":""}`),
		"space":          prop(`"v":{"type":"string","x-mcp-header":"My Region"}`),
		"colon":          prop(`"v":{"type":"string","x-mcp-header":"Region:Primary"}`),
		"non_ascii":      prop(`"v":{"type":"string","x-mcp-header":"Région"}`),
		"control_char":   prop(`"v":{"type":"string","x-mcp-header":"Region\t1"}`),
		"not_a_string":   prop(`"v":{"type":"string","x-mcp-header":7}`),
		"same_case":      prop(`"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"Region"}`),
		"diff_case":      prop(`"a":{"type":"string","x-mcp-header":"MyField"},"b":{"type":"string","x-mcp-header":"myfield"}`),
		"object":         prop(`"v":{"type":"object","x-mcp-header":"Data"}`),
		"array":          prop(`"v":{"type":"array","x-mcp-header":"Items"}`),
		"null":           prop(`"v":{"type":"null","x-mcp-header":"Nil"}`),
		"number":         prop(`"v":{"type":"number","x-mcp-header":"Score"}`),
		"untyped":        prop(`"v":{"x-mcp-header":"Any"}`),
		"in_items":       prop(`"v":{"type":"array","items":{"type":"string","x-mcp-header":"Item"}}`),
		"in_defs":        `{"type":"object","$defs":{"r":{"type":"string","x-mcp-header":"Region"}},"properties":{"v":{"$ref":"#/$defs/r"}}}`,
		"in_anyOf":       prop(`"v":{"anyOf":[{"type":"string","x-mcp-header":"Region"}]}`),
		"in_then":        `{"type":"object","if":{"required":["a"]},"then":{"properties":{"v":{"type":"string","x-mcp-header":"V"}}}}`,
		"in_additional":  `{"type":"object","additionalProperties":{"type":"string","x-mcp-header":"Extra"}}`,
		"on_root":        `{"type":"object","x-mcp-header":"Root"}`,
		"in_pattern":     `{"type":"object","patternProperties":{"^x":{"type":"string","x-mcp-header":"X"}}}`,
		"in_items_array": prop(`"v":{"type":"array","items":[{"type":"string","x-mcp-header":"Old"}]}`),
	}
	valid := map[string]string{
		"valid_tool": prop(`"region":{"type":"string","x-mcp-header":"Region"}`),
		// A network $ref is neither fetched nor a reason to drop the tool,
		// and the schema is kept byte for byte.
		"remote_ref":   `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"id":{"type":"string"}},"properties":{"id":{"$ref":"#/$defs/id"},"p":{"$ref":"http://127.0.0.1:1/canary.json"}}}`,
		"no_schema":    ``,
		"default_data": prop(`"v":{"type":"object","default":{"x-mcp-header":"NotASchema"},"const":{"x-mcp-header":""}}`),
	}
	var tools []string
	for _, name := range slices.Sorted(mapsKeys(invalid, valid)) {
		schema := invalid[name] + valid[name]
		if schema == "" {
			tools = append(tools, `{"name":"`+name+`"}`)
			continue
		}
		tools = append(tools, `{"name":"`+name+`","inputSchema":`+schema+`}`)
	}
	f, url := newFakeServer(t, func(req fakeRequest) (int, string) {
		switch req.Method {
		case protocol.MethodToolsList:
			return 0, toolsResult(tools...)
		case protocol.MethodToolsCall:
			return 0, textResult
		}
		return 0, ""
	})
	c := connectModern(t, url)
	res, err := c.ListTools(ctxT(t), "")
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, tool := range res.Tools {
		kept = append(kept, tool.Name)
		if s := valid[tool.Name]; s != "" && string(tool.InputSchema) != s {
			t.Errorf("%s: schema = %s, want it unchanged", tool.Name, tool.InputSchema)
		}
	}
	if want := slices.Sorted(mapsKeys(valid)); !slices.Equal(kept, want) {
		t.Errorf("kept %v, want %v", kept, want)
	}
	for name := range invalid {
		_, err := c.CallTool(ctxT(t), name, map[string]string{"v": "x"})
		if !errors.Is(err, client.ErrInvalidToolHeaders) {
			t.Errorf("CallTool(%s) = %v, want ErrInvalidToolHeaders", name, err)
		}
	}
	if _, err := c.CallTool(ctxT(t), "valid_tool", map[string]string{"region": "us-west1"}); err != nil {
		t.Fatal(err)
	}
	calls := f.requests(protocol.MethodToolsCall)
	if len(calls) != 1 || calls[0].Header.Get("Mcp-Param-Region") != "us-west1" {
		t.Errorf("tools/call requests: %v, want only valid_tool with its header", calls)
	}
}

func mapsKeys(ms ...map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for _, m := range ms {
			for k := range m {
				if !yield(k) {
					return
				}
			}
		}
	}
}

// A HeaderMismatch answer means the tool definitions changed: the client
// lists them again and retries once with the new headers.
func TestClientRelistsOnHeaderMismatch(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	annotated := false
	f, url := newFakeServer(t, func(req fakeRequest) (int, string) {
		mu.Lock()
		defer mu.Unlock()
		switch req.Method {
		case protocol.MethodToolsList:
			if annotated {
				return 0, toolsResult(`{"name":"q","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}}`)
			}
			annotated = true // the next listing has the annotation
			return 0, toolsResult(`{"name":"q","inputSchema":{"type":"object","properties":{"region":{"type":"string"}}}}`)
		case protocol.MethodToolsCall:
			if req.Header.Get("Mcp-Param-Region") == "" {
				return http.StatusBadRequest, `"error":{"code":-32020,"message":"Header mismatch: Mcp-Param-Region is missing"}`
			}
			return 0, textResult
		}
		return 0, ""
	})
	c := connectModern(t, url)
	if _, err := c.CallTool(ctxT(t), "q", map[string]string{"region": "eu"}); err != nil {
		t.Fatal(err)
	}
	if n, m := len(f.requests(protocol.MethodToolsList)), len(f.requests(protocol.MethodToolsCall)); n != 2 || m != 2 {
		t.Errorf("%d listings and %d calls, want 2 and 2", n, m)
	}
}

// Legacy revisions have no Mcp-Param headers: annotations are ignored.
func TestLegacyClientIgnoresHeaderAnnotations(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("where", func(in regionArgs) string { return in.Region }, fastmcp.Description("where"))
	h := s
	var mu sync.Mutex
	var headers []http.Header
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		headers = append(headers, r.Header.Clone())
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { closeNow(h); ts.Close() })
	c, err := client.ConnectHTTP(ctxT(t), ts.URL+"/mcp", legacy, client.WithLogger(quietLogger))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.CallTool(ctxT(t), "where", map[string]string{"region": "eu"})
	if err != nil || textOf(t, res) != "eu" {
		t.Fatalf("where: %v %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, h := range headers {
		if h.Get("Mcp-Param-Region") != "" {
			t.Errorf("legacy request carries Mcp-Param-Region")
		}
	}
}

// Against fastmcp's own server, whose tools/call checks the headers.
func TestClientParamHeadersRoundTrip(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("where", func(in regionArgs) string { return in.Region }, fastmcp.Description("where"))
	ts := httptest.NewServer(s)
	t.Cleanup(func() { closeNow(s); ts.Close() })
	c := connectModern(t, ts.URL+"/mcp")
	for _, region := range []string{"eu-west1", " café ", "=?base64?x?=", ""} {
		res, err := c.CallTool(ctxT(t), "where", map[string]any{"region": region, "count": 3})
		if err != nil || textOf(t, res) != region {
			t.Errorf("where(%q): %v %v", region, res, err)
		}
	}
}

// The server refuses the first request's version although it lists that
// version as supported (as the conformance suite's request-metadata
// scenario does): the client retries with a version from data.supported.
func TestConnectRetriesUnsupportedVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		opts      []client.Option
		supported string
		ok        bool
	}{
		{"auto", nil, `["2026-07-28"]`, true},
		{"forced", []client.Option{client.WithProtocolVersion("2026-07-28")}, `["2026-07-28"]`, true},
		{"forced, not supported", []client.Option{client.WithProtocolVersion("2026-07-28")}, `["2099-01-01"]`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			first := true
			f, url := newFakeServer(t, func(req fakeRequest) (int, string) {
				mu.Lock()
				defer mu.Unlock()
				if first {
					first = false
					return http.StatusBadRequest, `"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":` + tc.supported + `,"requested":"2026-07-28"}}`
				}
				if req.Method == protocol.MethodToolsList {
					return 0, toolsResult()
				}
				return 0, ""
			})
			c, err := client.ConnectHTTP(ctxT(t), url, append(tc.opts, client.WithLogger(quietLogger))...)
			if !tc.ok {
				if err == nil {
					c.Close()
					t.Fatal("connected, want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if c.ProtocolVersion() != "2026-07-28" || c.Era() != protocol.Modern {
				t.Errorf("version %s", c.ProtocolVersion())
			}
			if _, err := c.ListTools(ctxT(t), ""); err != nil {
				t.Fatal(err)
			}
			for _, r := range f.requests(protocol.MethodServerDiscover) {
				if r.Header.Get("MCP-Protocol-Version") != "2026-07-28" {
					t.Errorf("discover header %q", r.Header.Get("MCP-Protocol-Version"))
				}
			}
		})
	}
}

// Multi round-trip requests (SEP-2322) as the client sees them.
func TestClientInputRequiredRetries(t *testing.T) {
	t.Parallel()
	// An opaque state with escapes that a decode and re-encode would change.
	const state = `"{\"nonce\":\"\u00e9\/x\",\"id\":1}"`
	const ask = `"inputRequests":{"confirm":{"method":"elicitation/create","params":{"message":"ok?","requestedSchema":{"type":"object","properties":{"confirmed":{"type":"boolean"}}}}}}`
	f, url := newFakeServer(t, func(req fakeRequest) (int, string) {
		if req.Method != protocol.MethodToolsCall {
			if req.Method == protocol.MethodToolsList {
				return 0, toolsResult()
			}
			return 0, ""
		}
		var p struct {
			Name string `json:"name"`
		}
		_ = jsonv2.Unmarshal(req.Params, &p)
		answered := req.param("inputResponses") != nil
		switch {
		case p.Name == "echo_state" && !answered:
			return 0, `"result":{"resultType":"input_required",` + ask + `,"requestState":` + state + `}`
		case p.Name == "no_state" && !answered:
			return 0, `"result":{"resultType":"input_required",` + ask + `}`
		case p.Name == "no_result_type":
			return 0, `"result":{"content":[{"type":"text","text":"plain"}]}`
		}
		return 0, textResult
	})
	var c *client.Client
	var once sync.Once
	c = connectModern(t, url, client.WithElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
		// A call made meanwhile carries neither answers nor state.
		var err error
		once.Do(func() { _, err = c.CallTool(ctx, "unrelated", nil) })
		return &client.ElicitResult{Action: protocol.ElicitActionAccept, Content: json.RawMessage(`{"confirmed":true}`)}, err
	}))
	for _, name := range []string{"echo_state", "no_state", "no_result_type"} {
		res, err := c.CallTool(ctxT(t), name, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if name == "no_result_type" && textOf(t, res) != "plain" {
			t.Errorf("no_result_type: %v", res)
		}
	}
	byName := map[string][]fakeRequest{}
	for _, r := range f.requests(protocol.MethodToolsCall) {
		var p struct {
			Name string `json:"name"`
		}
		_ = jsonv2.Unmarshal(r.Params, &p)
		byName[p.Name] = append(byName[p.Name], r)
	}
	echo := byName["echo_state"]
	if len(echo) != 2 {
		t.Fatalf("echo_state sent %d times, want 2", len(echo))
	}
	if got := string(echo[1].param("requestState")); got != state {
		t.Errorf("requestState echoed as %s, want %s byte for byte", got, state)
	}
	if string(echo[0].ID) == string(echo[1].ID) {
		t.Errorf("the retry reused JSON-RPC id %s", echo[0].ID)
	}
	if got := string(echo[1].param("inputResponses")); got != `{"confirm":{"action":"accept","content":{"confirmed":true}}}` {
		t.Errorf("inputResponses = %s", got)
	}
	if ns := byName["no_state"]; len(ns) != 2 || ns[1].param("requestState") != nil || ns[1].param("inputResponses") == nil {
		t.Errorf("no_state requests: %v", ns)
	}
	if un := byName["unrelated"]; len(un) != 1 || un[0].param("requestState") != nil || un[0].param("inputResponses") != nil {
		t.Errorf("unrelated requests: %v", un)
	}
	if n := len(byName["no_result_type"]); n != 1 {
		t.Errorf("no_result_type sent %d times, want 1", n)
	}
}

// regionArgs are a tool's arguments mirrored in Mcp-Param headers.
type regionArgs struct {
	Region string `json:"region" jsonschema_extras:"x-mcp-header=Region"`
	Count  int    `json:"count,omitempty" jsonschema_extras:"x-mcp-header=Count"`
}
