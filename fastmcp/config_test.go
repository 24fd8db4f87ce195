package fastmcp_test

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// TestHTTPConfigHoldsNoSetting checks that the HTTPEndpoints option cannot
// set, behind the Settings' back, what a setting or another option sets:
// no field of HTTPConfig (or of the structs in it) bears the name of a
// Settings field, or of the Logger and HTTPPrincipal options' targets.
func TestHTTPConfigHoldsNoSetting(t *testing.T) {
	settings := map[string]bool{"Logger": true, "Principal": true, "DisableHostCheck": true}
	st := reflect.TypeFor[fastmcp.Settings]()
	for i := range st.NumField() {
		settings[st.Field(i).Name] = true
	}
	var walk func(path string, typ reflect.Type)
	walk = func(path string, typ reflect.Type) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			if settings[f.Name] {
				t.Errorf("HTTPConfig%s.%s duplicates a setting: use its option, flag or FASTMCP_* variable", path, f.Name)
			}
			if f.Type.Kind() == reflect.Struct {
				walk(path+"."+f.Name, f.Type)
			}
		}
	}
	walk("", reflect.TypeFor[fastmcp.HTTPConfig]())
}

// TestListenerOption: the Listener option makes the transport http unless
// one is set, a transport of stdio beside it is an error naming where it
// came from, and Run then closes the listener without serving.
func TestListenerOption(t *testing.T) {
	t.Setenv("FASTMCP_TRANSPORT", "")
	ln := listenLoopback(t)
	set, err := newServer(fastmcp.Listener(ln)).Settings()
	if err != nil || set.Transport != "http" {
		t.Fatalf("Settings = %+v, %v; want the http transport", set, err)
	}
	t.Setenv("FASTMCP_TRANSPORT", "stdio")
	err = newServer(fastmcp.Listener(ln)).Run(ctxT(t))
	if err == nil || !strings.Contains(err.Error(), `setting FASTMCP_TRANSPORT="stdio" is invalid: the Listener option serves HTTP`) {
		t.Fatalf("Run = %v, want an error naming FASTMCP_TRANSPORT", err)
	}
	if _, err := ln.Accept(); err == nil {
		t.Error("Run left the listener open")
	}
}

// TestSettingsPrecedenceTable: for one setting of each kind, an option
// beats a flag, a flag beats the environment, the environment beats the
// default; each source is checked alone above the ones below it.
func TestSettingsPrecedenceTable(t *testing.T) {
	rows := []struct {
		flag     string // the variable is FASTMCP_ and the name in upper case
		get      func(fastmcp.Settings) string
		def      string
		env, flg string // texts given to the variable and the flag
		option   fastmcp.Option
		fromOpt  string // what the option resolves to
		envWant  string // what env resolves to, when not the text itself
		flagWant string
	}{
		{flag: "addr", get: func(s fastmcp.Settings) string { return s.Addr }, def: "", env: "env:1", flg: "flag:1", option: fastmcp.Addr("option:1"), fromOpt: "option:1"},
		{flag: "path", get: func(s fastmcp.Settings) string { return s.Path }, def: "/mcp", env: "/env", flg: "/flag", option: fastmcp.HTTPPath("/option"), fromOpt: "/option"},
		{flag: "stateless", get: func(s fastmcp.Settings) string { return fmt.Sprint(s.Stateless) }, def: "false", env: "true", flg: "false", option: fastmcp.Stateless(true), fromOpt: "true"},
		{flag: "allowed-hosts", get: func(s fastmcp.Settings) string { return strings.Join(s.AllowedHosts, ",") }, def: "", env: "e.example", flg: "f.example", option: fastmcp.AllowedHosts("o.example"), fromOpt: "o.example"},
		{flag: "log-level", get: func(s fastmcp.Settings) string { return s.LogLevel.String() }, def: "INFO", env: "debug", envWant: "DEBUG", flg: "warn", flagWant: "WARN", option: fastmcp.LogLevel(slog.LevelError), fromOpt: "ERROR"},
		{flag: "shutdown-timeout", get: func(s fastmcp.Settings) string { return s.ShutdownTimeout.String() }, def: "10s", env: "3s", flg: "4s", option: fastmcp.ShutdownTimeout(5 * time.Second), fromOpt: "5s"},
		{flag: "read-body-timeout", get: func(s fastmcp.Settings) string { return s.ReadBodyTimeout.String() }, def: "30s", env: "none", envWant: "-1ns", flg: "4s", option: fastmcp.ReadBodyTimeout(5 * time.Second), fromOpt: "5s"},
		{flag: "max-sessions", get: func(s fastmcp.Settings) string { return fmt.Sprint(s.MaxSessions) }, def: "1000", env: "3", flg: "none", flagWant: "-1", option: fastmcp.MaxSessions(5), fromOpt: "5"},
		{flag: "max-body-bytes", get: func(s fastmcp.Settings) string { return fmt.Sprint(s.MaxBodyBytes) }, def: "4194304", env: "3000", flg: "4000", option: fastmcp.MaxBodyBytes(5000), fromOpt: "5000"},
	}
	for _, r := range rows {
		env := "FASTMCP_" + strings.ToUpper(strings.ReplaceAll(r.flag, "-", "_"))
		or := func(want, text string) string {
			if want != "" {
				return want
			}
			return text
		}
		for _, tc := range []struct {
			name          string
			env, flg, opt bool
			want          string
		}{
			{"default", false, false, false, r.def},
			{"environment over default", true, false, false, or(r.envWant, r.env)},
			{"flag over environment", true, true, false, or(r.flagWant, r.flg)},
			{"option over flag", true, true, true, r.fromOpt},
		} {
			t.Run(r.flag+"/"+tc.name, func(t *testing.T) {
				t.Setenv(env, "")
				if tc.env {
					t.Setenv(env, r.env)
				}
				var opts []fastmcp.Option
				if tc.opt {
					opts = append(opts, r.option)
				}
				s := newServer(opts...)
				fs := flag.NewFlagSet("test", flag.ContinueOnError)
				s.Flags(fs)
				var args []string
				if tc.flg {
					args = append(args, "-"+r.flag+"="+r.flg)
				}
				if err := fs.Parse(args); err != nil {
					t.Fatal(err)
				}
				set, err := s.Settings()
				if err != nil {
					t.Fatal(err)
				}
				if got := r.get(set); got != tc.want {
					t.Fatalf("%s = %q, want %q", r.flag, got, tc.want)
				}
			})
		}
	}
}

// TestSettingsReachBothEntryPoints: the two ways to serve HTTP, Run (here
// on a Listener) and the Server mounted as an http.Handler, take the
// endpoints' limits from the same settings: a POST over MaxBodyBytes gets
// 413 from both, and one under it is served.
func TestSettingsReachBothEntryPoints(t *testing.T) {
	t.Parallel()
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"` + strings.Repeat("x", 2048) + `"}}}`
	ln := listenLoopback(t)
	run := serveOn(t, newServer(fastmcp.MaxBodyBytes(1024), fastmcp.Listener(ln)), ln)
	m := newServer(fastmcp.MaxBodyBytes(1024))
	mounted := httptest.NewServer(m)
	defer mounted.Close()
	defer m.Shutdown(context.Background()) // first: it ends the sessions
	for name, base := range map[string]string{"Run": run.base, "mounted": mounted.URL} {
		if code, body := post(t, base+"/mcp", big, nil); code != http.StatusRequestEntityTooLarge {
			t.Errorf("%s: a 2 KiB POST got %d %s, want 413", name, code, body)
		}
		if code, body := post(t, base+"/mcp", initializeBody, nil); code != http.StatusOK {
			t.Errorf("%s: initialize got %d %s, want 200", name, code, body)
		}
	}
}
