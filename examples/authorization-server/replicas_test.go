package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"testing"
	"time"
)

// startRedis starts a redis-server of the test's own on a free loopback
// port, without persistence, and returns its URL. Without redis-server the
// test is skipped, except under CI=true where it fails.
func startRedis(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		msg := "redis-server is not installed (Debian: apt-get install redis-server)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", t.TempDir(), "--loglevel", "warning")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server does not listen: %s", out.Bytes())
		}
	}
	return fmt.Sprintf("redis://127.0.0.1:%d/0", port)
}

// TestReplicas runs two processes sharing one Redis and one issuer, as
// behind a load balancer: a code issued at one is redeemed at the other,
// the refresh token rotates at the first, and the rotated one is refused
// at the second; both publish the same keys.
func TestReplicas(t *testing.T) {
	redisURL := startRedis(t)
	a, _ := start(t, "-redis-url", redisURL, "-client", "my-app=http://127.0.0.1:1/callback")
	b, _ := start(t, "-redis-url", redisURL, "-issuer", a, "-client", "my-app=http://127.0.0.1:1/callback")
	code, verifier := authorizeCode(t, a)
	status, first := token(t, b, url.Values{
		"grant_type": {"authorization_code"}, "client_id": {"my-app"}, "code": {code},
		"redirect_uri": {"http://127.0.0.1:1/callback"}, "code_verifier": {verifier},
	})
	if status != http.StatusOK {
		t.Fatalf("a's code redeemed at b: %d %v", status, first)
	}
	refresh := url.Values{"grant_type": {"refresh_token"}, "client_id": {"my-app"}, "refresh_token": {fmt.Sprint(first["refresh_token"])}}
	if status, m := token(t, a, refresh); status != http.StatusOK {
		t.Errorf("b's refresh token at a: %d %v", status, m)
	}
	if status, m := token(t, b, refresh); m["error"] != "invalid_grant" {
		t.Errorf("the rotated refresh token at b: %d %v, want invalid_grant", status, m)
	}
	if ka, kb := get(t, a+"/jwks.json"), get(t, b+"/jwks.json"); ka != kb {
		t.Errorf("the replicas publish different keys:\n%s\n%s", ka, kb)
	}
}

func get(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
