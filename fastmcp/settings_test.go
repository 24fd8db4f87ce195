package fastmcp_test

import (
	"flag"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// These tests set environment variables, so they do not run in parallel.

func TestSettingsDefaults(t *testing.T) {
	for _, k := range []string{"FASTMCP_TRANSPORT", "FASTMCP_ADDR", "FASTMCP_PATH", "FASTMCP_LOG_LEVEL", "FASTMCP_STATELESS", "FASTMCP_JSON_RESPONSE", "FASTMCP_ALLOWED_HOSTS", "FASTMCP_ALLOWED_ORIGINS", "FASTMCP_SHUTDOWN_TIMEOUT"} {
		t.Setenv(k, "")
	}
	set, err := newServer().Settings()
	if err != nil {
		t.Fatal(err)
	}
	if set.Transport != "stdio" || set.Path != "/mcp" || set.LogLevel != slog.LevelInfo || set.ShutdownTimeout != 10*time.Second || set.Stateless {
		t.Fatalf("defaults = %+v", set)
	}
}

func TestSettingsFromEnvironment(t *testing.T) {
	t.Setenv("FASTMCP_ADDR", "127.0.0.1:9000")
	t.Setenv("FASTMCP_LOG_LEVEL", "debug")
	t.Setenv("FASTMCP_STATELESS", "true")
	t.Setenv("FASTMCP_JSON_RESPONSE", "1")
	t.Setenv("FASTMCP_ALLOWED_HOSTS", "a.example, b.example")
	t.Setenv("FASTMCP_ALLOWED_ORIGINS", "https://a.example")
	t.Setenv("FASTMCP_SHUTDOWN_TIMEOUT", "3s")
	t.Setenv("FASTMCP_PATH", "/api/mcp")
	set, err := newServer().Settings()
	if err != nil {
		t.Fatal(err)
	}
	want := fastmcp.Settings{
		Transport: "http", Addr: "127.0.0.1:9000", Path: "/api/mcp", LogLevel: slog.LevelDebug,
		Stateless: true, JSONResponse: true, AllowedHosts: []string{"a.example", "b.example"},
		AllowedOrigins: []string{"https://a.example"}, ShutdownTimeout: 3 * time.Second,
	}
	if set.Transport != want.Transport || set.Addr != want.Addr || set.Path != want.Path || set.LogLevel != want.LogLevel ||
		set.Stateless != want.Stateless || set.JSONResponse != want.JSONResponse ||
		!slices.Equal(set.AllowedHosts, want.AllowedHosts) || !slices.Equal(set.AllowedOrigins, want.AllowedOrigins) ||
		set.ShutdownTimeout != want.ShutdownTimeout {
		t.Fatalf("settings = %+v\nwant       %+v", set, want)
	}
}

func TestSettingsPrecedence(t *testing.T) {
	t.Setenv("FASTMCP_ADDR", "env:1")
	t.Setenv("FASTMCP_STATELESS", "true")
	t.Setenv("FASTMCP_LOG_LEVEL", "error")
	// An option beats a flag, which beats the environment.
	s := newServer(fastmcp.Addr("option:1"))
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	s.Flags(fs)
	if err := fs.Parse([]string{"-addr=flag:1", "-stateless=false"}); err != nil {
		t.Fatal(err)
	}
	set, err := s.Settings()
	if err != nil {
		t.Fatal(err)
	}
	if set.Addr != "option:1" || set.Stateless || set.LogLevel != slog.LevelError {
		t.Fatalf("settings = %+v: want option addr, flag stateless=false, env log level", set)
	}
}

func TestSettingsErrors(t *testing.T) {
	cases := []struct {
		env, value, want string
	}{
		{"FASTMCP_TRANSPORT", "ftp", `setting FASTMCP_TRANSPORT="ftp" is invalid: use stdio or http`},
		{"FASTMCP_LOG_LEVEL", "loud", `setting FASTMCP_LOG_LEVEL="loud" is invalid: use debug, info, warn or error`},
		{"FASTMCP_STATELESS", "maybe", `setting FASTMCP_STATELESS="maybe" is invalid: use true or false`},
		{"FASTMCP_JSON_RESPONSE", "2", `setting FASTMCP_JSON_RESPONSE="2" is invalid: use true or false`},
		{"FASTMCP_SHUTDOWN_TIMEOUT", "soon", `setting FASTMCP_SHUTDOWN_TIMEOUT="soon" is invalid: use a non-negative duration`},
		{"FASTMCP_PATH", "mcp", `setting FASTMCP_PATH="mcp" is invalid: the MCP endpoint path must start with /`},
	}
	for _, tc := range cases {
		t.Run(tc.env, func(t *testing.T) {
			t.Setenv(tc.env, tc.value)
			_, err := newServer().Settings()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	// A bad flag is named as a flag.
	s := newServer()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	s.Flags(fs)
	fs.Parse([]string{"-transport=carrier-pigeon"})
	if _, err := s.Settings(); err == nil || !strings.Contains(err.Error(), `setting flag -transport="carrier-pigeon" is invalid`) {
		t.Fatalf("flag error = %v", err)
	}
	// Run reports invalid settings instead of serving.
	t.Setenv("FASTMCP_TRANSPORT", "ftp")
	if err := newServer().Run(ctxT(t)); err == nil || !strings.Contains(err.Error(), "FASTMCP_TRANSPORT") {
		t.Fatalf("Run = %v", err)
	}
}

// httpLimitEnv lists the environment variables of the HTTP server limits.
var httpLimitEnv = []string{"FASTMCP_READ_HEADER_TIMEOUT", "FASTMCP_READ_BODY_TIMEOUT", "FASTMCP_IDLE_CONN_TIMEOUT", "FASTMCP_MAX_HEADER_BYTES", "FASTMCP_MAX_BODY_BYTES"}

func TestSettingsHTTPLimits(t *testing.T) {
	for _, k := range httpLimitEnv {
		t.Setenv(k, "")
	}
	type limits struct {
		header, body, idle time.Duration
		maxHeader          int
		maxBody            int64
	}
	of := func(s fastmcp.Settings) limits {
		return limits{s.ReadHeaderTimeout, s.ReadBodyTimeout, s.IdleConnTimeout, s.MaxHeaderBytes, s.MaxBodyBytes}
	}
	defaults := limits{10 * time.Second, 30 * time.Second, 2 * time.Minute, 64 << 10, 4 << 20}
	cases := []struct {
		name string
		env  map[string]string
		opts []fastmcp.Option
		want limits
	}{
		{"defaults", nil, nil, defaults},
		{"environment", map[string]string{
			"FASTMCP_READ_HEADER_TIMEOUT": "1s", "FASTMCP_READ_BODY_TIMEOUT": "2s", "FASTMCP_IDLE_CONN_TIMEOUT": "3s",
			"FASTMCP_MAX_HEADER_BYTES": "4096", "FASTMCP_MAX_BODY_BYTES": "8192",
		}, nil, limits{time.Second, 2 * time.Second, 3 * time.Second, 4096, 8192}},
		{"none is no limit", map[string]string{"FASTMCP_READ_BODY_TIMEOUT": "none", "FASTMCP_IDLE_CONN_TIMEOUT": "none"}, nil,
			limits{10 * time.Second, -1, -1, 64 << 10, 4 << 20}},
		{"a negative option is no limit, zero the default", map[string]string{"FASTMCP_READ_HEADER_TIMEOUT": "1s"},
			[]fastmcp.Option{fastmcp.ReadHeaderTimeout(0), fastmcp.ReadBodyTimeout(-time.Second), fastmcp.IdleConnTimeout(-1)},
			limits{time.Second, -1, -1, 64 << 10, 4 << 20}},
		{"options beat the environment", map[string]string{"FASTMCP_READ_BODY_TIMEOUT": "2s", "FASTMCP_MAX_BODY_BYTES": "8192"},
			[]fastmcp.Option{fastmcp.ReadHeaderTimeout(time.Second), fastmcp.ReadBodyTimeout(5 * time.Second), fastmcp.IdleConnTimeout(0),
				fastmcp.MaxHeaderBytes(1000), fastmcp.MaxBodyBytes(2000)},
			limits{time.Second, 5 * time.Second, 2 * time.Minute, 1000, 2000}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			set, err := newServer(tc.opts...).Settings()
			if err != nil {
				t.Fatal(err)
			}
			if got := of(set); got != tc.want {
				t.Fatalf("limits = %+v, want %+v", got, tc.want)
			}
		})
	}
	for _, tc := range []struct{ env, value, want string }{
		{"FASTMCP_READ_BODY_TIMEOUT", "slow", `setting FASTMCP_READ_BODY_TIMEOUT="slow" is invalid: use a positive value such as 30s, or none for no limit`},
		{"FASTMCP_IDLE_CONN_TIMEOUT", "-1s", `setting FASTMCP_IDLE_CONN_TIMEOUT="-1s" is invalid`},
		{"FASTMCP_READ_BODY_TIMEOUT", "0", `setting FASTMCP_READ_BODY_TIMEOUT="0" is invalid: use a positive value such as 30s, or none`},
		{"FASTMCP_IDLE_CONN_TIMEOUT", "unlimited", `setting FASTMCP_IDLE_CONN_TIMEOUT="unlimited" is invalid`},
		{"FASTMCP_READ_HEADER_TIMEOUT", "10", `setting FASTMCP_READ_HEADER_TIMEOUT="10" is invalid`},
		{"FASTMCP_MAX_HEADER_BYTES", "64KiB", `setting FASTMCP_MAX_HEADER_BYTES="64KiB" is invalid: use a positive number of bytes`},
		{"FASTMCP_MAX_BODY_BYTES", "0", `setting FASTMCP_MAX_BODY_BYTES="0" is invalid: use a positive number of bytes`},
	} {
		t.Run(tc.env, func(t *testing.T) {
			t.Setenv(tc.env, tc.value)
			_, err := newServer().Settings()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
