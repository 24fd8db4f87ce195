package fastmcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

const scopesMetadataURL = "http://127.0.0.1/.well-known/oauth-protected-resource/mcp"

// scopeTokens are the access tokens the tests' verifier knows, by the
// scopes they grant.
var scopeTokens = map[string][]string{
	"t-none":  nil,
	"t-read":  {"files:read"},
	"t-write": {"files:read", "files:write"},
}

// scopedServer registers one protected feature of each kind beside
// unprotected ones, and serves it over HTTP twice: behind the bearer
// middleware (protected.URL) and, as when the Auth option is forgotten,
// without it (bare.URL).
func scopedServer(t *testing.T, opts ...fastmcp.Option) (s *fastmcp.Server, protected, bare *httptest.Server) {
	s = newServer(opts...)
	type none struct{}
	type nameArgs struct {
		Name string `json:"name"`
	}
	s.Tool("open", func(none) (string, error) { return "opened", nil })
	s.Tool("delete", func(none) (string, error) { return "deleted", nil }, fastmcp.RequireScopes("files:write"))
	s.Tool("peek", func(ctx *fastmcp.Context, _ none) (string, error) {
		contents, err := ctx.ReadResource("x://secret")
		if err != nil {
			return "", err
		}
		return contents[0].Text, nil
	})
	s.Resource("x://public", func() (string, error) { return "public", nil })
	s.Resource("x://secret", func() (string, error) { return "secret", nil }, fastmcp.RequireScopes("files:read"))
	s.Resource("x://files/{name}", func(in nameArgs) (string, error) { return "file " + in.Name, nil },
		fastmcp.RequireScopes("files:read"), fastmcp.CompleteArg("name", fastmcp.Choices("a", "b")))
	s.Prompt("greet", func(nameArgs) (string, error) { return "hello", nil })
	s.Prompt("secret", func(in nameArgs) (string, error) { return "secret " + in.Name, nil },
		fastmcp.RequireScopes("files:read"), fastmcp.CompleteArg("name", fastmcp.Choices("a", "b")))

	verify := auth.VerifierFunc(func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		scopes, ok := scopeTokens[token]
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Subject: token, Scopes: scopes}, nil
	})
	protect := auth.RequireBearerToken(verify, &auth.BearerOptions{ResourceMetadataURL: scopesMetadataURL})
	protected = httptest.NewServer(protect(s))
	bare = httptest.NewServer(s)
	t.Cleanup(bare.Close)
	t.Cleanup(protected.Close)
	t.Cleanup(func() { closeNow(s) })
	return s, protected, bare
}

// scopedUse uses one protected feature of each kind; want is what it
// returns when allowed.
var scopedUses = []struct {
	kind, want string
	use        func(ctx context.Context, c *client.Client) (string, error)
}{
	{"tool", "deleted", func(ctx context.Context, c *client.Client) (string, error) {
		res, err := c.CallTool(ctx, "delete", nil)
		if err != nil {
			return "", err
		}
		if res.IsError {
			return "", fmt.Errorf("tool error result: %v", res.Content)
		}
		return res.Content[0].(*fastmcp.TextContent).Text, nil
	}},
	{"resource", "secret", func(ctx context.Context, c *client.Client) (string, error) {
		res, err := c.ReadResource(ctx, "x://secret")
		if err != nil {
			return "", err
		}
		return res.Contents[0].Text, nil
	}},
	{"template", "file a", func(ctx context.Context, c *client.Client) (string, error) {
		res, err := c.ReadResource(ctx, "x://files/a")
		if err != nil {
			return "", err
		}
		return res.Contents[0].Text, nil
	}},
	{"prompt", "secret a", func(ctx context.Context, c *client.Client) (string, error) {
		res, err := c.GetPrompt(ctx, "secret", map[string]string{"name": "a"})
		if err != nil {
			return "", err
		}
		return res.Messages[0].Content.(*fastmcp.TextContent).Text, nil
	}},
	{"nested read", "secret", func(ctx context.Context, c *client.Client) (string, error) {
		res, err := c.CallTool(ctx, "peek", nil)
		if err != nil {
			return "", err
		}
		if res.IsError {
			return "", fmt.Errorf("tool error result: %v", res.Content)
		}
		return res.Content[0].(*fastmcp.TextContent).Text, nil
	}},
	{"prompt completion", "a", func(ctx context.Context, c *client.Client) (string, error) {
		res, err := c.Complete(ctx, fastmcp.PromptRef("secret"), "name", "a", nil)
		if err != nil {
			return "", err
		}
		return strings.Join(res.Completion.Values, ","), nil
	}},
	{"template completion", "b", func(ctx context.Context, c *client.Client) (string, error) {
		res, err := c.Complete(ctx, fastmcp.ResourceRef("x://files/{name}"), "name", "b", nil)
		if err != nil {
			return "", err
		}
		return strings.Join(res.Completion.Values, ","), nil
	}},
}

// scopesRequired are the scopes each use of scopedUses needs.
func scopesRequired(kind string) []string {
	if kind == "tool" {
		return []string{"files:write"}
	}
	return []string{"files:read"}
}

// TestRequireScopes uses each protected feature kind in each era (and
// over the legacy SSE transport) with the scopes, without them, over HTTP
// without a token check, and in memory. A refused tools/call,
// resources/read or prompts/get over Streamable HTTP gets the HTTP 403
// step-up challenge; every other refusal is the JSON-RPC error.
func TestRequireScopes(t *testing.T) {
	t.Parallel()
	s, protected, bare := scopedServer(t)
	// The legacy SSE transport (2024-11-05) as a third era.
	type eraPath struct {
		name, path string
		opt        client.Option
	}
	ways := []eraPath{{"legacy", "/mcp", eras[0].opt}, {"modern", "/mcp", eras[1].opt}, {"sse", "/sse", legacy}}
	for _, era := range ways {
		for _, tc := range []struct {
			name    string
			url     string // "" means in memory
			token   string
			allowed bool
			missing func(required []string) []string
		}{
			{name: "scopes granted", url: protected.URL, token: "t-write", allowed: true},
			{name: "scopes missing", url: protected.URL, token: "t-none", missing: func(r []string) []string { return r }},
			{name: "read only", url: protected.URL, token: "t-read", missing: func(r []string) []string {
				return slices.DeleteFunc(slices.Clone(r), func(s string) bool { return s == "files:read" })
			}},
			{name: "no token over HTTP", url: bare.URL, missing: func(r []string) []string { return r }},
			{name: "memory", allowed: true},
		} {
			t.Run(era.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				var c *client.Client
				if tc.url == "" {
					c = connect(t, s, era.opt)
				} else {
					opts := []client.Option{era.opt, client.WithLogger(quietLogger)}
					if tc.token != "" {
						opts = append(opts, client.WithHTTPHeader(http.Header{"Authorization": {"Bearer " + tc.token}}))
					}
					var err error
					if c, err = client.ConnectHTTP(ctxT(t), tc.url+era.path, opts...); err != nil {
						t.Fatal(err)
					}
					defer c.Close()
				}
				for _, u := range scopedUses {
					required := scopesRequired(u.kind)
					got, err := u.use(ctxT(t), c)
					allowed := tc.allowed || len(tc.missing(required)) == 0
					if allowed {
						if err != nil || got != u.want {
							t.Errorf("%s: got %q, %v; want %q", u.kind, got, err, u.want)
						}
						continue
					}
					// Tools, prompts and reads (the nested one aside) name
					// their feature in headers (2026-07-28) or in the
					// body the gate reads (earlier revisions over
					// Streamable HTTP); over SSE the POST only delivers.
					stepUp := era.name != "sse" && (u.kind == "tool" || u.kind == "resource" || u.kind == "template" || u.kind == "prompt")
					// Without the bearer middleware, nothing names the metadata.
					checkRefusal(t, u.kind, err, stepUp, tc.url == protected.URL, required, tc.missing(required))
				}
			})
		}
	}
}

// checkRefusal checks that err refuses a use for lack of scopes: an
// *transport.HTTPError with the 403 step-up challenge when stepUp (naming
// the metadata URL when metadata), else the JSON-RPC error naming the
// required and missing scopes.
func checkRefusal(t *testing.T, kind string, err error, stepUp, metadata bool, required, missing []string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: allowed, want it refused", kind)
		return
	}
	if stepUp {
		he, ok := errors.AsType[*transport.HTTPError](err)
		if !ok {
			t.Errorf("%s: %v (%T), want a *transport.HTTPError", kind, err, err)
			return
		}
		want := `Bearer error="insufficient_scope", scope="` + strings.Join(required, " ") + `"`
		if metadata {
			want += `, resource_metadata="` + scopesMetadataURL + `"`
		}
		if he.StatusCode != http.StatusForbidden || he.Header.Get("WWW-Authenticate") != want {
			t.Errorf("%s: HTTP %d, WWW-Authenticate %q; want 403, %q", kind, he.StatusCode, he.Header.Get("WWW-Authenticate"), want)
		}
		return
	}
	pe, ok := errors.AsType[*protocol.Error](err)
	if !ok {
		t.Errorf("%s: %v (%T), want a JSON-RPC error", kind, err, err)
		return
	}
	var data struct {
		RequiredScopes []string `json:"requiredScopes"`
		MissingScopes  []string `json:"missingScopes"`
	}
	if err := json.Unmarshal(pe.Data, &data); err != nil {
		t.Errorf("%s: data %s: %v", kind, pe.Data, err)
	}
	if pe.Code != protocol.CodeInvalidRequest || !strings.HasPrefix(pe.Message, "Insufficient scope") ||
		!slices.Equal(data.RequiredScopes, required) || !slices.Equal(data.MissingScopes, missing) {
		t.Errorf("%s: error %d %q %s; want -32600 Insufficient scope, required %q, missing %q", kind, pe.Code, pe.Message, pe.Data, required, missing)
	}
}

// modernHeaders are the headers of a hand-made 2026-07-28 request.
func modernHeaders(method, name, token string) map[string]string {
	h := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": method}
	if name != "" {
		h["Mcp-Name"] = transport.EncodeHeaderValue(name)
	}
	if token != "" {
		h["Authorization"] = "Bearer " + token
	}
	return h
}

const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// TestScopeStepUpHeaders checks the HTTP answers to hand-made 2026-07-28
// requests: the exact 403 challenge, template URIs matched from Mcp-Name,
// a header that names an unprotected tool while the body calls a
// protected one, and the DPoP scheme for a DPoP-bound token.
func TestScopeStepUpHeaders(t *testing.T) {
	t.Parallel()
	s, protected, _ := scopedServer(t)
	challenge := func(scope string) string {
		return `Bearer error="insufficient_scope", scope="` + scope + `", resource_metadata="` + scopesMetadataURL + `"`
	}
	for _, tc := range []struct {
		name, method, header, params, token string
		status                              int
		challenge                           string
	}{
		{"tool refused", "tools/call", "delete", `"name":"delete"`, "t-read", 403, challenge("files:write")},
		{"tool allowed", "tools/call", "delete", `"name":"delete"`, "t-write", 200, ""},
		{"open tool", "tools/call", "open", `"name":"open"`, "t-none", 200, ""},
		{"unknown tool", "tools/call", "nope", `"name":"nope"`, "t-none", 200, ""}, // the JSON-RPC error
		{"template refused", "resources/read", "x://files/a%20b", `"uri":"x://files/a%20b"`, "t-none", 403, challenge("files:read")},
		{"template allowed", "resources/read", "x://files/a", `"uri":"x://files/a"`, "t-read", 200, ""},
		{"static refused", "resources/read", "x://secret", `"uri":"x://secret"`, "t-none", 403, challenge("files:read")},
		{"public resource", "resources/read", "x://public", `"uri":"x://public"`, "t-none", 200, ""},
		{"prompt refused", "prompts/get", "secret", `"name":"secret","arguments":{"name":"a"}`, "t-none", 403, challenge("files:read")},
		// The header names an open tool, the body a protected one: the
		// transport refuses the mismatch, so the body's tool never runs.
		{"header lies", "tools/call", "open", `"name":"delete"`, "t-none", 400, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := `{"jsonrpc":"2.0","id":1,"method":"` + tc.method + `","params":{` + tc.params + `,` + modernMeta + `}}`
			status, header, text := postFull(t, protected.URL+"/mcp", body, modernHeaders(tc.method, tc.header, tc.token))
			if status != tc.status || header.Get("WWW-Authenticate") != tc.challenge {
				t.Errorf("HTTP %d, WWW-Authenticate %q (%s); want %d, %q", status, header.Get("WWW-Authenticate"), text, tc.status, tc.challenge)
			}
			if status == 200 && tc.header != "nope" && strings.Contains(text, `"error"`) {
				t.Errorf("allowed request failed: %s", text)
			}
		})
	}

	t.Run("dpop", func(t *testing.T) {
		// A DPoP-bound token (what RequireBearerToken with DPoP passes on)
		// gets its challenge in the DPoP scheme. Neither the server (no
		// Auth option) nor this middleware names a metadata URL.
		bound := func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				info := &auth.TokenInfo{Subject: "d", Scopes: []string{"files:read"}, ConfirmationJKT: "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"}
				next.ServeHTTP(w, r.WithContext(auth.ContextWithTokenInfo(r.Context(), info)))
			})
		}
		ts := httptest.NewServer(bound(s))
		defer ts.Close()
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete",` + modernMeta + `}}`
		status, header, _ := postFull(t, ts.URL+"/mcp", body, modernHeaders("tools/call", "delete", ""))
		want := `DPoP error="insufficient_scope", scope="files:write"`
		if status != 403 || !strings.HasPrefix(header.Get("WWW-Authenticate"), want) {
			t.Errorf("HTTP %d, WWW-Authenticate %q; want 403, %q...", status, header.Get("WWW-Authenticate"), want)
		}
	})
}

// TestScopesWithAuth checks RequireScopes behind the Auth option: the
// bearer check runs first, so the scope check sees the verified token,
// and the 403 step-up names the server's own metadata document.
func TestScopesWithAuth(t *testing.T) {
	t.Parallel()
	p := serveProtected(t, nil)
	type none struct{}
	p.s.Tool("admin", func(ctx *fastmcp.Context, _ none) (string, error) { return "done", nil }, fastmcp.RequireScopes("admin"))
	url := p.base + "/mcp"
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"admin",` + modernMeta + `}}`
	for _, tc := range []struct {
		name, scope string
		status      int
		challenge   string
	}{
		{"without the scope", "files:read", 403, `Bearer error="insufficient_scope", scope="admin", resource_metadata="` + p.mdURL + `"`},
		{"with the scope", "admin files:read", 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr := modernHeaders("tools/call", "admin", p.token("alice", map[string]any{"scope": tc.scope}))
			status, header, text := postFull(t, url, body, hdr)
			if status != tc.status || header.Get("WWW-Authenticate") != tc.challenge {
				t.Errorf("HTTP %d, WWW-Authenticate %q (%s); want %d, %q", status, header.Get("WWW-Authenticate"), text, tc.status, tc.challenge)
			}
			if status == 200 && !strings.Contains(text, "done") {
				t.Errorf("allowed call: %s", text)
			}
		})
	}
	t.Run("legacy session", func(t *testing.T) {
		h := http.Header{"Authorization": {"Bearer " + p.token("alice", map[string]any{"scope": "files:read"})}}
		c, err := client.ConnectHTTP(ctxT(t), url, legacy, client.WithHTTPHeader(h), client.WithLogger(quietLogger))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, err = c.CallTool(ctxT(t), "admin", nil)
		he, _ := errors.AsType[*transport.HTTPError](err)
		if want := `Bearer error="insufficient_scope", scope="admin", resource_metadata="` + p.mdURL + `"`; he == nil || he.StatusCode != http.StatusForbidden || he.Header.Get("WWW-Authenticate") != want {
			t.Errorf("legacy call: %v, want the challenge %q", err, want)
		}
	})
}

// postFull sends one request by hand and returns the status, headers and
// body of the answer.
func postFull(t *testing.T, url, body string, header map[string]string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctxT(t), "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		b.WriteString(sc.Text())
		b.WriteByte('\n')
	}
	return resp.StatusCode, resp.Header, b.String()
}

// TestScopedSubscriptions checks that a caller without the scopes cannot
// subscribe to a protected resource: resources/subscribe is refused
// (legacy), and subscriptions/listen leaves the URI out of what it
// acknowledges (2026-07-28).
func TestScopedSubscriptions(t *testing.T) {
	t.Parallel()
	_, protected, _ := scopedServer(t)
	t.Run("legacy", func(t *testing.T) {
		for token, allowed := range map[string]bool{"t-none": false, "t-read": true} {
			c, err := client.ConnectHTTP(ctxT(t), protected.URL+"/mcp", legacy, client.WithLogger(quietLogger),
				client.WithHTTPHeader(http.Header{"Authorization": {"Bearer " + token}}))
			if err != nil {
				t.Fatal(err)
			}
			for _, uri := range []string{"x://secret", "x://files/a"} {
				err := c.Subscribe(ctxT(t), uri, nil)
				if allowed && err != nil {
					t.Errorf("%s subscribing to %s: %v", token, uri, err)
				}
				if !allowed {
					checkRefusal(t, "subscribe "+uri, err, false, true, []string{"files:read"}, []string{"files:read"})
				}
			}
			if err := c.Subscribe(ctxT(t), "x://public", nil); err != nil {
				t.Errorf("%s subscribing to x://public: %v", token, err)
			}
			c.Close()
		}
	})
	t.Run("modern", func(t *testing.T) {
		for token, want := range map[string]string{
			"t-none": `"resourceSubscriptions":["x://public"]`,
			"t-read": `"resourceSubscriptions":["x://files/a","x://public","x://secret"]`,
		} {
			ack := listenAck(t, protected.URL+"/mcp", token, `["x://files/a","x://public","x://secret"]`)
			if !strings.Contains(ack, want) {
				t.Errorf("%s: acknowledged %s, want %s", token, ack, want)
			}
		}
	})
}

// listenAck opens a subscriptions/listen stream for uris with token and
// returns its acknowledgment notification, then closes the stream.
func listenAck(t *testing.T, url, token, uris string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	body := `{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":` + uris + `},` + modernMeta + `}}`
	req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range modernHeaders("subscriptions/listen", "", token) {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if line := sc.Text(); strings.Contains(line, protocol.NotificationSubscriptionsAcknowledged) {
			return line
		}
	}
	t.Fatalf("no acknowledgment (HTTP %d): %v", resp.StatusCode, sc.Err())
	return ""
}

// TestHideUnauthorized lists tools, prompts, resources and templates page
// by page (two per page) as callers with different scopes: each sees
// exactly what it may use, in order, with no empty page before the last
// and no item twice; without the option, or in memory, every caller sees
// everything.
func TestHideUnauthorized(t *testing.T) {
	t.Parallel()
	build := func(hide bool) (s *fastmcp.Server, protectedURL, bareURL string) {
		// Public by default: what depends on the caller must say private.
		opts := []fastmcp.Option{fastmcp.PageSize(2), fastmcp.CacheHint(time.Minute, protocol.CacheScopePublic)}
		if hide {
			opts = append(opts, fastmcp.HideUnauthorized())
		}
		s, protected, bare := scopedServer(t, opts...)
		type none struct{}
		type idArgs struct {
			ID string `json:"id"`
		}
		for i := range 7 {
			var o []fastmcp.CommonOption
			switch i % 3 {
			case 1:
				o = append(o, fastmcp.RequireScopes("files:read"))
			case 2:
				o = append(o, fastmcp.RequireScopes("files:read", "files:write"))
			}
			name := fmt.Sprintf("z%d", i)
			s.Tool(name, func(none) (string, error) { return "", nil }, toolOpts(o)...)
			s.Prompt(name, func(none) (string, error) { return "", nil }, promptOpts(o)...)
			s.Resource("x://z/"+name, func() (string, error) { return "", nil }, resourceOpts(o)...)
			s.Resource("x://t/"+name+"/{id}", func(idArgs) (string, error) { return "", nil }, resourceOpts(o)...)
		}
		return s, protected.URL + "/mcp", bare.URL + "/mcp"
	}
	all := func(prefix string) []string {
		var out []string
		for i := range 7 {
			out = append(out, fmt.Sprintf("%sz%d", prefix, i))
		}
		return out
	}
	keep := func(names []string, mods ...int) []string {
		var out []string
		for i, n := range names {
			if slices.Contains(mods, i%3) {
				out = append(out, n)
			}
		}
		return out
	}
	hiding, hidingURL, hidingBareURL := build(true)
	_, showingURL, _ := build(false)

	for _, era := range eras {
		for _, tc := range []struct {
			name, url, token string
			mods             []int // which of the z tools (by i%3) the caller sees
			open             bool  // whether it sees the protected features of scopedServer
			write            bool
		}{
			{"no scopes", hidingURL, "t-none", []int{0}, false, false},
			{"no token", hidingBareURL, "", []int{0}, false, false},
			{"read", hidingURL, "t-read", []int{0, 1}, true, false},
			{"write", hidingURL, "t-write", []int{0, 1, 2}, true, true},
			{"not hiding", showingURL, "t-none", []int{0, 1, 2}, true, true},
			{"memory", "", "", []int{0, 1, 2}, true, true},
		} {
			t.Run(era.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				var c *client.Client
				if tc.url == "" {
					c = connect(t, hiding, era.opt)
				} else {
					var err error
					opts := []client.Option{era.opt, client.WithLogger(quietLogger)}
					if tc.token != "" {
						opts = append(opts, client.WithHTTPHeader(http.Header{"Authorization": {"Bearer " + tc.token}}))
					}
					c, err = client.ConnectHTTP(ctxT(t), tc.url, opts...)
					if err != nil {
						t.Fatal(err)
					}
					defer c.Close()
				}
				cond := func(ok bool, names ...string) []string {
					if ok {
						return names
					}
					return nil
				}
				wantTools := slices.Concat(cond(tc.write, "delete"), []string{"open", "peek"}, keep(all(""), tc.mods...))
				wantPrompts := slices.Concat([]string{"greet"}, cond(tc.open, "secret"), keep(all(""), tc.mods...))
				wantResources := slices.Concat([]string{"x://public"}, cond(tc.open, "x://secret"), keep(all("x://z/"), tc.mods...))
				var wantTemplates []string
				wantTemplates = append(wantTemplates, cond(tc.open, "x://files/{name}")...)
				for _, n := range keep(all(""), tc.mods...) {
					wantTemplates = append(wantTemplates, "x://t/"+n+"/{id}")
				}
				checkPages(t, "tools", wantTools, func(cursor string) ([]string, string, error) {
					r, err := c.ListTools(ctxT(t), cursor)
					if err != nil {
						return nil, "", err
					}
					var names []string
					for _, x := range r.Tools {
						names = append(names, x.Name)
					}
					return names, r.NextCursor, nil
				})
				checkPages(t, "prompts", wantPrompts, func(cursor string) ([]string, string, error) {
					r, err := c.ListPrompts(ctxT(t), cursor)
					if err != nil {
						return nil, "", err
					}
					var names []string
					for _, x := range r.Prompts {
						names = append(names, x.Name)
					}
					return names, r.NextCursor, nil
				})
				checkPages(t, "resources", wantResources, func(cursor string) ([]string, string, error) {
					r, err := c.ListResources(ctxT(t), cursor)
					if err != nil {
						return nil, "", err
					}
					var names []string
					for _, x := range r.Resources {
						names = append(names, x.URI)
					}
					return names, r.NextCursor, nil
				})
				checkPages(t, "templates", wantTemplates, func(cursor string) ([]string, string, error) {
					r, err := c.ListResourceTemplates(ctxT(t), cursor)
					if err != nil {
						return nil, "", err
					}
					var names []string
					for _, x := range r.ResourceTemplates {
						names = append(names, x.URITemplate)
					}
					return names, r.NextCursor, nil
				})
			})
		}
	}

	t.Run("cache scope", func(t *testing.T) {
		for _, tc := range []struct {
			url, method, params, name, scope string
		}{
			{hidingURL, "tools/list", "", "", "private"},
			{showingURL, "tools/list", "", "", "public"},
			{showingURL, "resources/read", `"uri":"x://secret",`, "x://secret", "private"},
			{showingURL, "resources/read", `"uri":"x://files/a",`, "x://files/a", "private"},
			{showingURL, "resources/read", `"uri":"x://public",`, "x://public", "public"},
		} {
			body := `{"jsonrpc":"2.0","id":1,"method":"` + tc.method + `","params":{` + tc.params + modernMeta + `}}`
			_, _, text := postFull(t, tc.url, body, modernHeaders(tc.method, tc.name, "t-write"))
			if !strings.Contains(text, `"cacheScope":"`+tc.scope+`"`) {
				t.Errorf("%s %s: %s, want cacheScope %s", tc.method, tc.name, text, tc.scope)
			}
		}
	})
}

// checkPages lists page by page and compares the items with want (in
// order); every page but the last is full (two items), the last is not
// empty unless the list is.
func checkPages(t *testing.T, what string, want []string, list func(cursor string) ([]string, string, error)) {
	t.Helper()
	var got []string
	cursor := ""
	for range 100 {
		names, next, err := list(cursor)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if next != "" && len(names) != 2 {
			t.Errorf("%s: a page of %d before the last: %q", what, len(names), names)
		}
		if next == "" && len(names) == 0 && len(want) > 0 {
			t.Errorf("%s: an empty last page", what)
		}
		got = append(got, names...)
		if next == "" {
			break
		}
		cursor = next
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s = %q, want %q", what, got, want)
	}
}

func toolOpts(o []fastmcp.CommonOption) []fastmcp.ToolOption {
	var out []fastmcp.ToolOption
	for _, x := range o {
		out = append(out, x)
	}
	return out
}

func promptOpts(o []fastmcp.CommonOption) []fastmcp.PromptOption {
	var out []fastmcp.PromptOption
	for _, x := range o {
		out = append(out, x)
	}
	return out
}

func resourceOpts(o []fastmcp.CommonOption) []fastmcp.ResourceOption {
	var out []fastmcp.ResourceOption
	for _, x := range o {
		out = append(out, x)
	}
	return out
}

// TestRequireScopesRegistration checks that a RequireScopes without a
// usable scope fails registration of each feature kind, saying how to fix
// it, and that Tool panics with the same message.
func TestRequireScopesRegistration(t *testing.T) {
	t.Parallel()
	type none struct{}
	type idArgs struct {
		ID string `json:"id"`
	}
	for _, tc := range []struct {
		name   string
		scopes []string
		want   string
	}{
		{"none", nil, "no scope given"},
		{"empty", []string{""}, "empty scope"},
		{"blank", []string{"files:read", "  "}, "empty scope"},
		{"space inside", []string{"files:read files:write"}, "pass each scope as its own argument"},
		{"quote", []string{`files"`}, "is not a scope"},
		{"non-ASCII", []string{"fichiers:écrire"}, "is not a scope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer()
			opt := fastmcp.RequireScopes(tc.scopes...)
			for kind, err := range map[string]error{
				"tool":              registerErr(t, func() { s.Tool("t", func(none) (string, error) { return "", nil }, opt) }),
				"resource":          registerErr(t, func() { s.Resource("x://r", func() (string, error) { return "", nil }, opt) }),
				"resource template": registerErr(t, func() { s.Resource("x://r/{id}", func(idArgs) (string, error) { return "", nil }, opt) }),
				"prompt":            registerErr(t, func() { s.Prompt("p", func(none) (string, error) { return "", nil }, opt) }),
			} {
				if err == nil || !strings.Contains(err.Error(), "RequireScopes") || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), kind) {
					t.Errorf("%s: %v, want an error saying %q", kind, err, tc.want)
				}
			}
		})
	}
	t.Run("valid", func(t *testing.T) {
		s := newServer()
		if err := registerErr(t, func() {
			s.Tool("t", func(none) (string, error) { return "", nil },
				fastmcp.RequireScopes("files:read", "files:read"), fastmcp.RequireScopes("mcp:tools/call"))
		}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestScopeGateReadsLegacyBodies checks the gate's reading of the body of
// a request of an earlier revision: a protected call gets the 403, and
// what it cannot judge reaches the transport unchanged, which answers as
// it always does (a body over the limit: 413; a batch: the JSON-RPC
// error inside).
func TestScopeGateReadsLegacyBodies(t *testing.T) {
	t.Parallel()
	_, protected, _ := scopedServer(t, fastmcp.MaxBodyBytes(4096))
	hdr := map[string]string{"MCP-Protocol-Version": "2025-11-25", "Authorization": "Bearer t-none"}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete"}}`
	for _, tc := range []struct {
		name, body string
		status     int
		challenge  bool
	}{
		{"protected call", call, 403, true},
		{"open tool", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"open"}}`, 400, false}, // no session: the transport's answer
		{"too large", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete","pad":"` + strings.Repeat("x", 5000) + `"}}`, 413, false},
		{"batch", `[` + call + `]`, 400, false},
		{"not JSON", `{"method":`, 400, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, header, text := postFull(t, protected.URL+"/mcp", tc.body, hdr)
			if status != tc.status || (header.Get("WWW-Authenticate") != "") != tc.challenge {
				t.Errorf("HTTP %d, WWW-Authenticate %q (%s); want %d, challenge %v", status, header.Get("WWW-Authenticate"), text, tc.status, tc.challenge)
			}
		})
	}
}
