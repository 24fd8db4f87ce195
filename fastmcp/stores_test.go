package fastmcp_test

import (
	"context"
	"errors"
	"flag"
	"net"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// TestRedisURLSetting: the RedisURL setting comes from the option, the
// -redis-url flag or FASTMCP_REDIS_URL, in that order; a URL that is not
// a Redis URL is refused without being repeated (it may hold a password).
func TestRedisURLSetting(t *testing.T) {
	tests := []struct {
		name, env, flag string
		opts            []fastmcp.Option
		want, wantErr   string
	}{
		{name: "unset"},
		{name: "env", env: "redis://env:6379/0", want: "redis://env:6379/0"},
		{name: "flag beats env", env: "redis://env:6379/0", flag: "rediss://flag:6380", want: "rediss://flag:6380"},
		{name: "option beats flag", flag: "redis://flag", opts: []fastmcp.Option{fastmcp.RedisURL("unix:///run/redis.sock")}, want: "unix:///run/redis.sock"},
		{name: "wrong scheme", env: "http://user:s3cret@host", wantErr: `setting FASTMCP_REDIS_URL is invalid: its scheme is "http"`},
		{name: "no host", flag: "redis://:s3cret@", wantErr: "setting flag -redis-url is invalid: it names no host"},
		{name: "not a URL", opts: []fastmcp.Option{fastmcp.RedisURL("redis://s3cret@[::1")}, wantErr: "setting option RedisURL is invalid: it is not a URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("FASTMCP_REDIS_URL", tt.env)
			s := newServer(tt.opts...)
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			s.Flags(fs)
			var args []string
			if tt.flag != "" {
				args = append(args, "-redis-url="+tt.flag)
			}
			if err := fs.Parse(args); err != nil {
				t.Fatal(err)
			}
			set, err := s.Settings()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "s3cret") {
					t.Fatalf("Settings = %v, want an error saying %q without the password", err, tt.wantErr)
				}
				return
			}
			if err != nil || set.RedisURL != tt.want {
				t.Fatalf("RedisURL = %q, %v; want %q", set.RedisURL, err, tt.want)
			}
		})
	}
}

// TestRedisURLWithoutBackend: a server given a Redis URL by a program that
// does not link store/redisstore refuses to start, saying which import to
// add, whichever way it serves.
func TestRedisURLWithoutBackend(t *testing.T) {
	t.Setenv("FASTMCP_REDIS_URL", "redis://127.0.0.1:1/0")
	serve := map[string]func() (*fastmcp.Server, error){
		"Run": func() (*fastmcp.Server, error) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			s := newServer(fastmcp.Listener(ln))
			return s, s.Run(context.Background())
		},
		"Start": func() (*fastmcp.Server, error) { s := newServer(); return s, s.Start(context.Background()) },
	}
	for name, fn := range serve {
		t.Run(name, func(t *testing.T) {
			s, err := fn()
			if !errors.Is(err, fastmcp.ErrNoStoreBackend) || !strings.Contains(err.Error(), `import _ "github.com/fastmcp-go/fastmcp/store/redisstore/redisurl"`) {
				t.Fatalf("%s = %v, want ErrNoStoreBackend naming the import", name, err)
			}
			_ = s.Shutdown(context.Background())
		})
	}
}
