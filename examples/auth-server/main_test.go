package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
	"github.com/fastmcp-go/fastmcp/internal/testproc"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestMain lets the test binary play the command: started again with
// AUTH_SERVER_EXAMPLE=1, it runs main with the arguments it was given.
func TestMain(m *testing.M) {
	if os.Getenv("AUTH_SERVER_EXAMPLE") == "1" {
		main()
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want config
		err  string
	}{
		{[]string{"-issuer", "https://idp.example.com"}, config{"127.0.0.1:8000", "https://idp.example.com", "http://127.0.0.1:8000/mcp", "mcp"}, ""},
		{[]string{"-addr", "127.0.0.1:9001", "-issuer", "http://127.0.0.1:9000", "-audience", "http://127.0.0.1:9001/mcp"},
			config{"127.0.0.1:9001", "http://127.0.0.1:9000", "http://127.0.0.1:9001/mcp", "mcp"}, ""},
		{[]string{"-issuer", "https://idp.example.com", "-scope", "files"}, config{"127.0.0.1:8000", "https://idp.example.com", "http://127.0.0.1:8000/mcp", "files"}, ""},
		{[]string{"-issuer", "https://idp.example.com", "-scope", ""}, config{"127.0.0.1:8000", "https://idp.example.com", "http://127.0.0.1:8000/mcp", ""}, ""},
		{[]string{"-addr", "localhost:7000", "-issuer", "https://idp.example.com"}, config{"localhost:7000", "https://idp.example.com", "http://localhost:7000/mcp", "mcp"}, ""},
		{nil, config{}, "-issuer is required"},
		{[]string{"-issuer", "https://idp.example.com", "extra"}, config{}, "unexpected arguments"},
		{[]string{"-port", "1"}, config{}, "flag provided but not defined"},
	} {
		got, err := parseFlags(tc.args, io.Discard)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err = %v, want %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q = %+v, %v; want %+v", tc.args, got, err, tc.want)
		}
	}
	if _, err := parseFlags([]string{"-h"}, io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v", err)
	}
}

// connect connects to url with token (none when empty).
func connect(ctx context.Context, url, token string, opts ...client.Option) (*client.Client, error) {
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	return client.ConnectHTTP(ctx, url, append(opts, client.WithHTTPHeader(h))...)
}

// call calls tool on a client with token and returns its result.
func call(t *testing.T, ctx context.Context, url, token, tool string) *fastmcp.ToolResult {
	t.Helper()
	c, err := connect(ctx, url, token)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.CallTool(ctx, tool, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestTools serves the example's server on 127.0.0.1 with a test issuer
// and calls its tools with tokens with and without the admin scope, and
// with none.
func TestTools(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	is := oauthtest.NewServer(t, oauthtest.Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseFlags([]string{"-addr", ln.Addr().String(), "-issuer", is.URL()}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(c, fastmcp.Listener(ln))
	served := make(chan error, 1)
	go func() { served <- s.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()
	url := "http://" + c.addr + "/mcp"
	user := is.MustToken(t, tok("alice", c.audience, map[string]any{"client_id": "cli", "scope": "mcp files:read"}))
	root := is.MustToken(t, tok("root", c.audience, map[string]any{"scope": "mcp admin"}))

	res := call(t, ctx, url, user, "whoami")
	var id Identity
	if err := json.Unmarshal(res.StructuredContent, &id); err != nil || !reflect.DeepEqual(id, Identity{"alice", "cli", []string{"mcp", "files:read"}}) {
		t.Errorf("whoami = %s (%v)", res.StructuredContent, err)
	}
	// Refused before the tool runs: 403 with a step-up challenge
	// (2026-07-28), or the JSON-RPC error (2025-11-25).
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		c, err := connect(ctx, url, user, client.WithProtocolVersion(version))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.CallTool(ctx, "admin", nil)
		c.Close()
		he, isHTTP := errors.AsType[*transport.HTTPError](err)
		pe, isRPC := errors.AsType[*protocol.Error](err)
		switch {
		case isHTTP && he.StatusCode == http.StatusForbidden && strings.Contains(he.Header.Get("WWW-Authenticate"), `error="insufficient_scope", scope="mcp admin"`):
		case isRPC && strings.HasPrefix(pe.Message, "Insufficient scope"):
		default:
			t.Errorf("%s: admin without the scope: %v, want 403 insufficient_scope or the JSON-RPC error", version, err)
		}
	}
	if res := call(t, ctx, url, root, "admin"); res.IsError || res.Text() != "admin access granted to root" {
		t.Errorf("admin with the scope = %q (isError %v)", res.Text(), res.IsError)
	}
	if _, err := connect(ctx, url, ""); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("connect without a token: %v", err)
	}
	// A token without the base scope is refused with a challenge naming it.
	_, err = connect(ctx, url, is.MustToken(t, tok("eve", c.audience, nil)))
	if he, ok := errors.AsType[*transport.HTTPError](err); !ok || he.StatusCode != http.StatusForbidden ||
		!strings.Contains(he.Header.Get("WWW-Authenticate"), `error="insufficient_scope", scope="mcp"`) {
		t.Errorf("connect without the base scope: %v, want 403 insufficient_scope naming mcp", err)
	}
	if _, err := connect(ctx, url, is.MustToken(t, tok("alice", "http://127.0.0.1:1/mcp", nil))); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("connect with a token for another resource: %v", err)
	}
}

// TestCommandLine runs the program as the interop script does, with
// -addr, -issuer and -audience, checks its metadata document and a call,
// and stops it with SIGINT.
func TestCommandLine(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	is := oauthtest.NewServer(t, oauthtest.Options{})
	// A free port for -addr: the program listens itself.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	audience := "http://" + addr + "/mcp"
	var stderr strings.Builder
	cmd := exec.Command(testproc.Self(t), "-addr", addr, "-issuer", is.URL(), "-audience", audience)
	cmd.Env = testproc.Env("AUTH_SERVER_EXAMPLE=1")
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stopped := false
	defer func() {
		if !stopped {
			cmd.Process.Signal(os.Interrupt) // a graceful stop: exit status 0
			if err := <-exited; err != nil {
				t.Errorf("the server exited with %v", err)
			}
		}
		if t.Failed() {
			t.Logf("the server's stderr:\n%s", stderr.String())
		}
	}()
	for {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		select {
		case err := <-exited:
			stopped = true
			t.Fatalf("the server exited before it was ready: %v", err)
		case <-ctx.Done():
			t.Fatal("the server never became ready")
		case <-time.After(10 * time.Millisecond): // polling a readiness probe, as orchestrators do
		}
	}
	resp, err := http.Get("http://" + addr + "/.well-known/oauth-protected-resource/mcp")
	if err != nil {
		t.Fatal(err)
	}
	var md map[string]any
	err = json.NewDecoder(resp.Body).Decode(&md)
	resp.Body.Close()
	if err != nil || md["resource"] != audience || !reflect.DeepEqual(md["authorization_servers"], []any{is.URL()}) ||
		!reflect.DeepEqual(md["scopes_supported"], []any{"mcp", "admin"}) {
		t.Errorf("metadata = %v (%v), want scopes_supported mcp admin", md, err)
	}
	resp, err = http.Post(audience, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ch := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(ch, `scope="mcp"`) {
		t.Errorf("no token: %d %q, want 401 naming scope mcp", resp.StatusCode, ch)
	}
	res := call(t, ctx, audience, is.MustToken(t, tok("bob", audience, map[string]any{"scope": "mcp"})), "whoami")
	if !strings.Contains(string(res.StructuredContent), `"subject":"bob"`) {
		t.Errorf("whoami = %s", res.StructuredContent)
	}
}

// tok describes a token of subject for audience, through client "app"
// with scope "files:read" unless the overrides say otherwise.
func tok(subject, audience string, overrides map[string]any) oauthtest.TokenRequest {
	return oauthtest.TokenRequest{Subject: subject, ClientID: "app", Audience: []string{audience}, Scopes: []string{"files:read"}, Claims: overrides}
}
