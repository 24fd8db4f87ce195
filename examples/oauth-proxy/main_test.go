package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/internal/oidcpeer"
	"github.com/fastmcp-go/fastmcp/oauthclient"
	"github.com/fastmcp-go/fastmcp/oauthserver/oauthtest"
)

// TestMain lets the test binary play the program: started again with the
// argument "serve", it runs main with the arguments after it.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		os.Args = append(os.Args[:1], os.Args[2:]...)
		main()
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// lockedBuffer is a bytes.Buffer safe for the process's writes and the
// test's reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestProxyOIDC runs the program as a process in front of panva's
// oidc-provider (npm, without dynamic registration, the proxy's client
// registered there), its secret from the environment; our client
// registers with the proxy, the user signs in at the provider, and whoami
// names the provider's user and finds the upstream token.
func TestProxyOIDC(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // the program listens there
	origin := "http://" + addr
	op := oidcpeer.Start(t, "--resource", "http://127.0.0.1:9/api", "--no-registration", "--subject", "grace",
		"--client", "proxy=proxy-secret-0123456789="+origin+"/oauth/callback")

	cmd := exec.Command(os.Args[0], "serve", "-addr", addr, "-upstream-issuer", op.Issuer, "-upstream-client-id", "proxy")
	cmd.Env = append(os.Environ(), "FASTMCP_UPSTREAM_CLIENT_SECRET=proxy-secret-0123456789", "FASTMCP_REDIS_URL=")
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		if t.Failed() {
			t.Logf("oauth-proxy's stderr:\n%s", stderr)
		}
	}()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(origin + "/.well-known/oauth-authorization-server")
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the proxy did not serve its metadata within 30s: %v", err)
		}
	}

	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	quiet := slog.New(slog.DiscardHandler)
	cl, err := client.ConnectHTTP(ctx, origin+"/mcp", client.WithLogger(quiet),
		client.OAuth(oauthclient.Config{ClientName: "example test", OpenURL: oauthtest.New("ignored").OpenURL, Logger: quiet}))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	res, err := cl.CallTool(ctx, "whoami", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := string(res.StructuredContent)
	if res.IsError || !strings.Contains(got, `"subject":"`+op.Issuer+`|grace"`) || !strings.Contains(got, "an upstream token is kept for you") {
		t.Fatalf("whoami: %s", got)
	}
}

func TestFlags(t *testing.T) {
	env := func(k string) string {
		return map[string]string{"FASTMCP_UPSTREAM_CLIENT_ID": "from-env"}[k]
	}
	for _, c := range []struct {
		args []string
		want string // an error containing it; "" for none
	}{
		{[]string{"-upstream", "github"}, ""},
		{[]string{"-upstream-issuer", "https://accounts.google.com"}, ""},
		{nil, "give one of"},
		{[]string{"-upstream", "github", "-upstream-issuer", "https://x.example"}, "give one of"},
		{[]string{"-upstream", "gitlab"}, "ready-made upstream here is github"},
		{[]string{"-upstream", "github", "extra"}, "unexpected arguments"},
	} {
		cfg, err := parseFlags(c.args, env, io.Discard)
		if c.want == "" && (err != nil || cfg.upstreamClientID != "from-env" || cfg.issuer != "http://127.0.0.1:8000") {
			t.Errorf("%q: %+v, %v", c.args, cfg, err)
		}
		if c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%q: %v, want an error with %q", c.args, err, c.want)
		}
	}
	if _, err := parseFlags([]string{"-upstream", "github"}, func(string) string { return "" }, io.Discard); err == nil || !strings.Contains(err.Error(), "upstream-client-id") {
		t.Errorf("no client id: %v", err)
	}
}
