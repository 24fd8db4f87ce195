package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/client"
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

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// start runs the program as a process on a free port and waits until it
// serves its metadata.
func start(t *testing.T, args ...string) (origin string, stderr *syncBuffer) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	stderr = &syncBuffer{}
	cmd := exec.Command(self, append([]string{"serve", "-addr", addr}, args...)...)
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0", "FASTMCP_REDIS_URL=")
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		if err := cmd.Wait(); err != nil {
			t.Errorf("the program ended with %v: %s", err, stderr)
		}
	})
	origin = "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(origin + "/.well-known/oauth-authorization-server")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return origin, stderr
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the program does not serve its metadata: %v; stderr: %s", err, stderr)
		}
	}
}

// TestLogin runs the program and logs in twice: our client registering
// dynamically and calling whoami, and a client pre-registered with
// -client going through the code grant by hand.
func TestLogin(t *testing.T) {
	origin, stderr := start(t, "-client", "my-app=http://127.0.0.1:1/callback")
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	quiet := slog.New(slog.DiscardHandler)
	cl, err := client.ConnectHTTP(ctx, origin+"/mcp", client.WithLogger(quiet), client.OAuth(oauthclient.Config{
		ClientName: "example test", OpenURL: oauthtest.New("alice").OpenURL, Logger: quiet,
	}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := cl.CallTool(ctx, "whoami", nil)
	if err != nil {
		t.Fatal(err)
	}
	var id Identity
	if err := json.Unmarshal(res.StructuredContent, &id); err != nil || id.Subject != "alice" {
		t.Errorf("whoami = %s (%v), want subject alice", res.StructuredContent, err)
	}
	if err := cl.Close(); err != nil {
		t.Error(err)
	}
	if code := preRegistered(t, origin); code != http.StatusOK {
		t.Errorf("the pre-registered client's token request: %d", code)
	}
	if !strings.Contains(stderr.String(), "DEMO login (no password)") {
		t.Errorf("no demo warning on stderr: %s", stderr)
	}
}

// preRegistered runs the code grant of the client "my-app" and returns
// the token endpoint's status.
func preRegistered(t *testing.T, origin string) int {
	t.Helper()
	code, verifier := authorizeCode(t, origin)
	status, _ := token(t, origin, url.Values{
		"grant_type": {"authorization_code"}, "client_id": {"my-app"}, "code": {code},
		"redirect_uri": {"http://127.0.0.1:1/callback"}, "code_verifier": {verifier},
	})
	return status
}

// authorizeCode goes through the login and consent pages at origin for
// the client "my-app" and returns the code and its PKCE verifier.
func authorizeCode(t *testing.T, origin string) (code, verifier string) {
	t.Helper()
	verifier = rand.Text() + rand.Text() // 52 characters: PKCE wants 43 to 128
	sum := sha256.Sum256([]byte(verifier))
	q := url.Values{
		"response_type": {"code"}, "client_id": {"my-app"}, "redirect_uri": {"http://127.0.0.1:1/callback"},
		"state": {"xyzxyzxyz"}, "code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])},
		"code_challenge_method": {"S256"},
	}
	b := oauthtest.New("bob")
	b.Client.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
		if req.URL.Host == "127.0.0.1:1" {
			return http.ErrUseLastResponse
		}
		return nil
	}
	resp, body, err := b.Open(t.Context(), origin+"/authorize?"+q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || loc.Query().Get("code") == "" {
		t.Fatalf("authorization: %d %q %s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	return loc.Query().Get("code"), verifier
}

// token posts a token request to origin and returns the status and the
// answer.
func token(t *testing.T, origin string, form url.Values) (int, map[string]any) {
	t.Helper()
	resp, err := http.PostForm(origin+"/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("token response %d %s: %v", resp.StatusCode, b, err)
	}
	return resp.StatusCode, m
}
