package fastmcp_test

import (
	"flag"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/transport"
)

// These tests set environment variables, so they do not run in parallel.

var limitEnv = []string{"FASTMCP_SESSION_IDLE_TIMEOUT", "FASTMCP_MAX_SESSIONS", "FASTMCP_MAX_STREAMS_PER_SESSION", "FASTMCP_MAX_LISTENS"}

func TestLimitSettings(t *testing.T) {
	for _, k := range limitEnv {
		t.Setenv(k, "")
	}
	type limits struct {
		idle                      time.Duration
		sessions, streams, listen int
	}
	resolve := func(t *testing.T, s *fastmcp.Server) limits {
		t.Helper()
		set, err := s.Settings()
		if err != nil {
			t.Fatal(err)
		}
		return limits{set.SessionIdleTimeout, set.MaxSessions, set.MaxStreamsPerSession, set.MaxListens}
	}
	if got, want := resolve(t, newServer()), (limits{30 * time.Minute, transport.DefaultMaxSessions, transport.DefaultMaxStreamsPerSession, transport.DefaultMaxListens}); got != want {
		t.Errorf("defaults = %+v, want %+v", got, want)
	}
	t.Run("environment", func(t *testing.T) {
		t.Setenv("FASTMCP_SESSION_IDLE_TIMEOUT", "5m")
		t.Setenv("FASTMCP_MAX_SESSIONS", "10")
		t.Setenv("FASTMCP_MAX_STREAMS_PER_SESSION", "none")
		t.Setenv("FASTMCP_MAX_LISTENS", "7")
		if got, want := resolve(t, newServer()), (limits{5 * time.Minute, 10, -1, 7}); got != want {
			t.Errorf("from the environment = %+v, want %+v", got, want)
		}
		t.Setenv("FASTMCP_SESSION_IDLE_TIMEOUT", "none")
		if got := resolve(t, newServer()); got.idle >= 0 {
			t.Errorf("none: idle timeout %v, want negative", got.idle)
		}
	})
	t.Run("precedence", func(t *testing.T) {
		t.Setenv("FASTMCP_MAX_SESSIONS", "10")
		t.Setenv("FASTMCP_MAX_LISTENS", "7")
		s := newServer(fastmcp.MaxSessions(3), fastmcp.SessionIdleTimeout(time.Minute))
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		s.Flags(fs)
		if err := fs.Parse([]string{"-max-sessions=5", "-max-listens=9", "-max-streams-per-session=2"}); err != nil {
			t.Fatal(err)
		}
		if got, want := resolve(t, s), (limits{time.Minute, 3, 2, 9}); got != want {
			t.Errorf("settings = %+v, want %+v (option, flag, flag)", got, want)
		}
	})
	t.Run("one rule for no limit", func(t *testing.T) {
		// Options: negative is no limit, zero leaves it to the flag; flags
		// and variables: none.
		t.Setenv("FASTMCP_MAX_LISTENS", "none")
		s := newServer(fastmcp.MaxSessions(-1), fastmcp.MaxStreamsPerSession(0), fastmcp.SessionIdleTimeout(-time.Second),
			fastmcp.ReadBodyTimeout(-1), fastmcp.ReadHeaderTimeout(0))
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		s.Flags(fs)
		if err := fs.Parse([]string{"-max-streams-per-session=none", "-read-header-timeout=none", "-idle-conn-timeout=none"}); err != nil {
			t.Fatal(err)
		}
		set, err := s.Settings()
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range map[string]int64{
			"MaxSessions": int64(set.MaxSessions), "MaxStreamsPerSession": int64(set.MaxStreamsPerSession), "MaxListens": int64(set.MaxListens),
			"SessionIdleTimeout": int64(set.SessionIdleTimeout), "ReadBodyTimeout": int64(set.ReadBodyTimeout),
			"ReadHeaderTimeout": int64(set.ReadHeaderTimeout), "IdleConnTimeout": int64(set.IdleConnTimeout),
		} {
			if v >= 0 {
				t.Errorf("%s = %d, want negative (no limit)", name, v)
			}
		}
	})
	t.Run("errors", func(t *testing.T) {
		for _, tc := range []struct{ env, value, want string }{
			{"FASTMCP_MAX_SESSIONS", "0", `setting FASTMCP_MAX_SESSIONS="0" is invalid: use a positive value such as 100, or none for no limit`},
			{"FASTMCP_MAX_STREAMS_PER_SESSION", "many", `setting FASTMCP_MAX_STREAMS_PER_SESSION="many" is invalid`},
			{"FASTMCP_MAX_LISTENS", "-3", `setting FASTMCP_MAX_LISTENS="-3" is invalid`},
			{"FASTMCP_SESSION_IDLE_TIMEOUT", "0s", `setting FASTMCP_SESSION_IDLE_TIMEOUT="0s" is invalid: use a positive value such as 30s, or none for no limit`},
			{"FASTMCP_MAX_LISTENS", "unlimited", `setting FASTMCP_MAX_LISTENS="unlimited" is invalid`},
			{"FASTMCP_SESSION_IDLE_TIMEOUT", "never", `setting FASTMCP_SESSION_IDLE_TIMEOUT="never" is invalid`},
		} {
			t.Run(tc.env, func(t *testing.T) {
				t.Setenv(tc.env, tc.value)
				if _, err := newServer().Settings(); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want %q", err, tc.want)
				}
			})
		}
	})
}

// TestLimitSettingsReachTheTransport checks, over HTTP, that the limits
// set in the environment are the ones the endpoints enforce.
func TestLimitSettingsReachTheTransport(t *testing.T) {
	for _, k := range limitEnv {
		t.Setenv(k, "")
	}
	t.Setenv("FASTMCP_MAX_SESSIONS", "1")
	s := newServer()
	h := s
	ts := httptest.NewServer(h)
	t.Cleanup(func() { closeNow(h); ts.Close() })
	const init = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	if status, body := post(t, ts.URL+"/mcp", init, nil); status != http.StatusOK {
		t.Fatalf("first initialize: %d %s", status, body)
	}
	if status, body := post(t, ts.URL+"/mcp", init, nil); status != http.StatusServiceUnavailable || !strings.Contains(body, "limit of 1 sessions") {
		t.Fatalf("second initialize: %d %s, want 503 naming the limit", status, body)
	}
	// The legacy HTTP+SSE endpoint has the same limit, counted on its own.
	first, err := http.Get(ts.URL + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	defer first.Body.Close()
	if first.StatusCode != http.StatusOK {
		t.Fatalf("first GET /sse: %d", first.StatusCode)
	}
	if status, body := get(t, ts.URL+"/sse"); status != http.StatusServiceUnavailable || !strings.Contains(body, "limit of 1 sessions") {
		t.Fatalf("second GET /sse: %d %s, want 503 naming the limit", status, body)
	}
}
