package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// startProxy runs `fastmcp proxy` with args and waits for the served URL
// on its stdout.
func startProxy(t *testing.T, args ...string) *devRun {
	t.Helper()
	return startServing(t, nil, "Serving: ", append([]string{"proxy"}, args...)...)
}

// useServer lists the tools of the server behind c and calls add and, when
// the client answers elicitations, signup (an elicitation round trip).
func useServer(t *testing.T, c *client.Client, elicit bool) {
	t.Helper()
	ctx := t.Context()
	res, err := c.ListTools(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if got := strings.Join(names, ","); got != "add,chatty,count,fail,header,picture,scale,signup,visit,wait" {
		t.Errorf("tools %v, want the test server's", names)
	}
	if got := callText(t, c, "add", map[string]int{"a": 2, "b": 3}); got != `{"sum":5}` {
		t.Errorf("add: %s", got)
	}
	if elicit {
		if got := callText(t, c, "signup", nil); got != "welcome Ada (41) of team blue" {
			t.Errorf("signup: %q", got)
		}
	}
}

// callText calls the tool and returns the text of its first block.
func callText(t *testing.T, c *client.Client, name string, args any) string {
	t.Helper()
	res, err := c.CallTool(t.Context(), name, args)
	if err != nil {
		t.Fatalf("calling %s: %v", name, err)
	}
	if res.IsError || len(res.Content) == 0 {
		t.Fatalf("calling %s: %+v", name, res)
	}
	text, ok := res.Content[0].(*protocol.TextContent)
	if !ok {
		t.Fatalf("calling %s: content %T", name, res.Content[0])
	}
	return text.Text
}

// answerSignup fills in the test server's signup form.
func answerSignup(_ context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
	return &client.ElicitResult{Action: protocol.ElicitActionAccept, Content: json.RawMessage(`{"name":"Ada","age":41,"team":"blue"}`)}, nil
}

// TestProxyStdioOverHTTP: `proxy --from 127.0.0.1:0 --to -- SERVER`
// serves the stdio test server over Streamable HTTP to clients of both
// eras, refuses a foreign Host, and ends with 130 on Ctrl-C.
func TestProxyStdioOverHTTP(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT on Windows")
	}
	run := startProxy(t, append([]string{"--from", "127.0.0.1:0", "--to"}, stdioTarget()...)...)
	if !strings.HasSuffix(run.url, "/mcp") {
		t.Errorf("served %s, want the /mcp endpoint", run.url)
	}
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			c, err := client.ConnectHTTP(t.Context(), run.url, client.WithProtocolVersion(era), client.WithElicitation(answerSignup))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			useServer(t, c, true)
		})
	}

	// DNS-rebinding protection: another Host is refused.
	req, _ := http.NewRequest(http.MethodPost, run.url, strings.NewReader("{}"))
	req.Host = "evil.example.com"
	expectStatus(t, req, http.StatusForbidden, "Host evil.example.com")

	run.interrupt(t)
}

// TestProxyPath: --from http://host:port/path serves the endpoint there.
func TestProxyPath(t *testing.T) {
	run := startProxy(t, append([]string{"--from", "http://127.0.0.1:0/tools/mcp"}, stdioTarget()...)...)
	if !strings.HasSuffix(run.url, "/tools/mcp") {
		t.Fatalf("served %s, want /tools/mcp", run.url)
	}
	c, err := client.ConnectHTTP(t.Context(), run.url)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	useServer(t, c, false)
}

// TestProxyBackendExits: the server the proxy started exiting ends the
// proxy with exit code 3.
func TestProxyBackendExits(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the backend is started through sh")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	run := startProxy(t, "--from", "127.0.0.1:0", "--", "sh", "-c", `echo $$ > "$0"; exec "$1" -stdio`, pidFile, server)
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	p.Kill()
	run.wait(t, exitConnection, "fastmcp: the server exited: sh -c "+`echo $$ > "$0"; exec "$1" -stdio `+pidFile+" "+server+"\n")
}

// TestProxyHTTPOverStdio: `proxy URL` is a stdio server (as a host starts
// it) in front of the HTTP test server: a client of either era lists and
// calls through it, the server's elicitation reaches the client and back.
func TestProxyHTTPOverStdio(t *testing.T) {
	u := httpTarget(t)
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"positional", []string{"proxy", u}},
		{"--to", []string{"proxy", "--from", "stdio", "--to", u}},
		{"--to=", []string{"proxy", "--to=" + u, "-v"}},
	} {
		for _, era := range eras {
			t.Run(tt.name+"/"+era, func(t *testing.T) {
				var stderr strings.Builder
				c, err := client.ConnectCommand(t.Context(), &client.Command{Path: binary, Args: tt.args, Stderr: &stderr},
					client.WithProtocolVersion(era), client.WithElicitation(answerSignup))
				if err != nil {
					t.Fatal(err)
				}
				useServer(t, c, true)
				if err := c.Close(); err != nil {
					t.Errorf("closing: %v (the proxy must exit 0 when its input ends); stderr:\n%s", err, stderr.String())
				}
			})
		}
	}
}

// TestProxyAuth: --auth-issuer requires access tokens from that
// authorization server for the served URL: without one, 401 with the
// resource metadata challenge; with one, the calls go through.
func TestProxyAuth(t *testing.T) {
	is := oauthtest.NewServer(t, oauthtest.Options{Subject: "ada"})
	run := startProxy(t, append([]string{"--from", "127.0.0.1:0", "--auth-issuer", is.URL()}, stdioTarget()...)...)

	req, _ := http.NewRequest(http.MethodPost, run.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	challenge := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(challenge, `resource_metadata="`+strings.TrimSuffix(run.url, "/mcp")+"/.well-known/oauth-protected-resource/mcp") {
		t.Errorf("without a token: %d, WWW-Authenticate %q; want 401 naming the metadata", resp.StatusCode, challenge)
	}

	for _, tt := range []struct {
		name     string
		audience string
		ok       bool
	}{
		{"for the proxy", run.url, true},
		{"for another resource", "http://127.0.0.1:1/mcp", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			token := is.MustToken(t, oauthtest.TokenRequest{Audience: []string{tt.audience}})
			c, err := client.ConnectHTTP(t.Context(), run.url, client.WithHTTPHeader(http.Header{"Authorization": {"Bearer " + token}}))
			if !tt.ok {
				if err == nil {
					c.Close()
					t.Fatal("connected with a token for another resource")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			useServer(t, c, false)
		})
	}
}

// TestProxyBadFlags: mistakes end with one line and exit code 2.
func TestProxyBadFlags(t *testing.T) {
	stdio := stdioTarget()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no target", []string{"proxy"}, "missing arguments"},
		{"bad --from", append([]string{"proxy", "--from", "nowhere"}, stdio...), `--from "nowhere": want stdio, host:port or http://host:port/path`},
		{"https --from", append([]string{"proxy", "--from", "https://127.0.0.1:0/mcp"}, stdio...), `--from "https://127.0.0.1:0/mcp": want stdio`},
		{"auth over stdio", append([]string{"proxy", "--auth-issuer", "http://127.0.0.1:1"}, stdio...), "apply to a proxy served over HTTP: add --from ADDRESS"},
		{"hosts over stdio", append([]string{"proxy", "--allowed-hosts", "a.example"}, stdio...), "apply to a proxy served over HTTP"},
		{"audience alone", append([]string{"proxy", "--from", "127.0.0.1:0", "--auth-audience", "http://x/mcp"}, stdio...), "--auth-audience needs --auth-issuer"},
		{"two targets", []string{"proxy", "--to=http://127.0.0.1:1/mcp", "http://127.0.0.1:2/mcp"}, "give one server"},
		{"not a URL", []string{"proxy", "--to", "example.com"}, `"example.com" is not an http(s) URL`},
		{"every interface", append([]string{"proxy", "--from", "0.0.0.0:0"}, stdio...), "listening on every interface needs --allowed-hosts"},
		{"header for stdio", append([]string{"proxy", "-H", "A: b"}, stdio...), "-H and --oauth apply to a server at a URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := cli(t, "", tt.args...)
			expect(t, r, exitUsage)
			oneLineError(t, r, tt.want)
		})
	}
}

// TestProxyOAuth: `proxy URL --oauth --no-browser` as a host starts it:
// the authorization URL goes to stderr (stdout carries the protocol), the
// test follows it as a browser would, and the calls go through as the
// logged-in user.
func TestProxyOAuth(t *testing.T) {
	is := oauthtest.NewServer(t, oauthtest.Options{Subject: "ada"})
	resource := startServer(t, "-issuer", is.URL())
	pr, pw := io.Pipe()
	followed := make(chan error, 1)
	var stderr strings.Builder
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			stderr.WriteString(sc.Text() + "\n")
			if u, ok := strings.CutPrefix(sc.Text(), "  http"); ok {
				followed <- follow(t.Context(), "http"+u)
			}
		}
		close(followed)
	}()
	c, err := client.ConnectCommand(t.Context(), &client.Command{
		Path: binary, Args: []string{"proxy", resource, "--oauth", "--no-browser"},
		Env: []string{"XDG_CONFIG_HOME=" + t.TempDir()}, Stderr: pw,
	})
	if err == nil {
		if got := callText(t, c, "whoami", nil); got != "you are ada" {
			t.Errorf("whoami: %q", got)
		}
		err = c.Close()
	}
	pw.Close()
	ferr, ok := <-followed
	for range followed {
	}
	if err != nil || !ok || ferr != nil {
		t.Errorf("connect/close: %v; authorization URL followed: %v (%v); stderr:\n%s", err, ok, ferr, stderr.String())
	}
}
