package fastmcp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// TestEveryInterfaceNeedsAllowedHosts: listening on every interface
// without the AllowedHosts setting fails at start, naming the setting;
// with it (or "*"), the server starts.
func TestEveryInterfaceNeedsAllowedHosts(t *testing.T) {
	t.Setenv("FASTMCP_ALLOWED_HOSTS", "")
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0"} {
		t.Run("Run "+addr, func(t *testing.T) {
			err := newServer(fastmcp.Addr(addr)).Run(ctxT(t))
			checkHostsRequired(t, err)
		})
	}
	t.Run("Listener", func(t *testing.T) {
		ln, err := net.Listen("tcp", "0.0.0.0:0")
		if err != nil {
			t.Fatal(err)
		}
		checkHostsRequired(t, newServer(fastmcp.Listener(ln)).Run(ctxT(t)))
		if _, err := ln.Accept(); err == nil {
			t.Error("the listener was left open")
		}
	})
	t.Run("Run with FASTMCP_ADDR", func(t *testing.T) {
		t.Setenv("FASTMCP_ADDR", "0.0.0.0:0")
		checkHostsRequired(t, newServer().Run(ctxT(t)))
	})
	for name, opt := range map[string]fastmcp.Option{"listed": fastmcp.AllowedHosts("mcp.test"), "any": fastmcp.AllowedHosts("*")} {
		t.Run("serves with "+name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "0.0.0.0:0")
			if err != nil {
				t.Fatal(err)
			}
			sv := serveOn(t, newServer(opt, fastmcp.Listener(ln)), ln)
			sv.stop(t)
			if sv.err != nil {
				t.Fatalf("Run: %v", sv.err)
			}
		})
	}
}

func checkHostsRequired(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, fastmcp.ErrAllowedHostsRequired) {
		t.Fatalf("err = %v, want ErrAllowedHostsRequired", err)
	}
	for _, want := range []string{"FASTMCP_ALLOWED_HOSTS", "-allowed-hosts", "AllowedHosts", `"*"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %s: %v", want, err)
		}
	}
}

// TestHostAndOriginChecks drives real servers, on loopback and off it,
// with Host and Origin combinations, rebinding pages among them.
func TestHostAndOriginChecks(t *testing.T) {
	t.Setenv("FASTMCP_ALLOWED_HOSTS", "")
	t.Setenv("FASTMCP_ALLOWED_ORIGINS", "")
	public := publicIP()
	type check struct {
		via          string // "loopback" or "public": the address dialled
		host, origin string // "{addr}" is the dialled address, "{port}" its port
		want         int
	}
	configs := []struct {
		name   string
		listen string // "{public}" is a non-loopback address of this machine
		opts   []fastmcp.Option
		checks []check
	}{
		{"loopback, default", "127.0.0.1:0", nil, []check{
			{"loopback", "{addr}", "", 200},
			{"loopback", "localhost:{port}", "http://localhost:{port}", 200},
			{"loopback", "evil.com:{port}", "http://evil.com:{port}", 403}, // rebinding
			{"loopback", "{addr}", "http://evil.com", 403},
		}},
		{"every interface, listed", "0.0.0.0:0", []fastmcp.Option{fastmcp.AllowedHosts("mcp.test")}, []check{
			{"loopback", "mcp.test:{port}", "", 200},
			{"loopback", "mcp.test:{port}", "http://mcp.test:{port}", 200},
			{"loopback", "evil.com:{port}", "http://evil.com:{port}", 403},
			{"loopback", "mcp.test:{port}", "http://evil.com:{port}", 403},
			{"public", "mcp.test:{port}", "http://mcp.test:{port}", 200},
			{"public", "evil.com:{port}", "http://evil.com:{port}", 403}, // the reported case
			{"public", "{addr}", "", 403},
			{"public", "mcp.test:{port}", "https://evil.com", 403},
		}},
		{"every interface, any host", "0.0.0.0:0", []fastmcp.Option{fastmcp.AllowedHosts("*")}, []check{
			{"public", "whatever.example:{port}", "", 200},
			{"public", "whatever.example:{port}", "http://evil.com", 403},
			{"loopback", "evil.com:{port}", "http://evil.com:{port}", 403},
		}},
		{"public address, default", "{public}:0", nil, []check{
			{"public", "{addr}", "", 200},
			{"public", "{addr}", "http://{addr}", 200},
			{"public", "evil.com:{port}", "http://evil.com:{port}", 403},
			{"public", "{addr}", "http://evil.com:{port}", 403},
			{"public", "localhost:{port}", "", 403},
		}},
	}
	for _, cfg := range configs {
		t.Run(cfg.name, func(t *testing.T) {
			if strings.Contains(cfg.listen, "{public}") || strings.HasPrefix(cfg.listen, "0.0.0.0") {
				if public == nil {
					t.Skip("this machine has no non-loopback IPv4 address")
				}
			}
			ln, err := net.Listen("tcp", strings.ReplaceAll(cfg.listen, "{public}", public.String()))
			if err != nil {
				t.Fatal(err)
			}
			port := fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
			serveOn(t, newServer(append(cfg.opts, fastmcp.Listener(ln))...), ln)
			for _, c := range cfg.checks {
				addr := net.JoinHostPort("127.0.0.1", port)
				if c.via == "public" {
					addr = net.JoinHostPort(public.String(), port)
				}
				expand := strings.NewReplacer("{addr}", addr, "{port}", port).Replace
				host, origin := expand(c.host), expand(c.origin)
				if got := initializeAt(t, addr, host, origin); got != c.want {
					t.Errorf("via %s, Host %q, Origin %q: status %d, want %d", c.via, host, origin, got, c.want)
				}
			}
		})
	}
}

// initializeAt POSTs an initialize request to addr with the given Host
// and Origin and returns the status.
func initializeAt(t *testing.T, addr, host, origin string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+addr+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// publicIP returns a non-loopback IPv4 address of this machine, or nil.
func publicIP() net.IP {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil && !n.IP.IsLinkLocalUnicast() {
			return n.IP
		}
	}
	return nil
}
