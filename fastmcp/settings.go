package fastmcp

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/fastmcp-go/fastmcp/transport"
)

// Settings configure how Run serves. Each comes, in this order of
// precedence, from an option given to New, a command-line flag (when the
// program registered them with Server.Flags), an environment variable, or
// its default:
//
//	setting          option            flag               environment                default
//	Transport        Transport         -transport         FASTMCP_TRANSPORT          stdio (http when Addr is set)
//	Addr             Addr              -addr              FASTMCP_ADDR               "" (for http: localhost:8000)
//	Path             HTTPPath          -path              FASTMCP_PATH               /mcp
//	LogLevel         LogLevel          -log-level         FASTMCP_LOG_LEVEL          info
//	Stateless        Stateless         -stateless         FASTMCP_STATELESS          false
//	JSONResponse     JSONResponse      -json-response     FASTMCP_JSON_RESPONSE      false
//	AllowedHosts     AllowedHosts      -allowed-hosts     FASTMCP_ALLOWED_HOSTS      see AllowedHosts (required on every interface)
//	AllowedOrigins   AllowedOrigins    -allowed-origins   FASTMCP_ALLOWED_ORIGINS    same-host and localhost origins
//	ShutdownTimeout  ShutdownTimeout   -shutdown-timeout  FASTMCP_SHUTDOWN_TIMEOUT   10s
//	ReadHeaderTimeout  (same name)     -read-header-timeout  FASTMCP_READ_HEADER_TIMEOUT  10s
//	ReadBodyTimeout    (same name)     -read-body-timeout    FASTMCP_READ_BODY_TIMEOUT    30s
//	WriteTimeout       (same name)     -write-timeout        FASTMCP_WRITE_TIMEOUT        30s
//	JSONWindow         (same name)     -json-window          FASTMCP_JSON_WINDOW          2ms
//	IdleConnTimeout    (same name)     -idle-conn-timeout    FASTMCP_IDLE_CONN_TIMEOUT    2m
//	MaxHeaderBytes     (same name)     -max-header-bytes     FASTMCP_MAX_HEADER_BYTES     65536 (64 KiB)
//	MaxBodyBytes       (same name)     -max-body-bytes       FASTMCP_MAX_BODY_BYTES       4194304 (4 MiB)
//	RedisURL           (same name)     -redis-url            FASTMCP_REDIS_URL            "" (in-memory stores)
//
// and the limits on what HTTP clients may hold open:
//
//	setting               option                flag                      environment                      default
//	SessionIdleTimeout    SessionIdleTimeout    -session-idle-timeout     FASTMCP_SESSION_IDLE_TIMEOUT     30m
//	MaxSessions           MaxSessions           -max-sessions             FASTMCP_MAX_SESSIONS             1000
//	MaxStreamsPerSession  MaxStreamsPerSession  -max-streams-per-session  FASTMCP_MAX_STREAMS_PER_SESSION  64
//	MaxListens            MaxListens            -max-listens              FASTMCP_MAX_LISTENS              1000
//
// Lists are comma-separated; booleans take the forms of strconv.ParseBool;
// durations those of time.ParseDuration. The time and number limits
// (ReadHeaderTimeout to IdleConnTimeout, and SessionIdleTimeout to
// MaxListens) follow one rule: a flag or variable takes a positive value
// or "none" for no limit; an option takes a positive value, a negative one
// for no limit, or 0 to leave the setting to the flag, the environment or
// the default; once resolved (Server.Settings) a negative value means no
// limit. Sizes are positive numbers of bytes, always bounded. An invalid
// value stops Run with an error naming the setting, where it came from,
// and what it accepts.
type Settings struct {
	// Transport is "stdio" or "http" (Streamable HTTP, with the legacy
	// HTTP+SSE endpoints beside it).
	Transport string
	// Addr is the HTTP listen address, such as "localhost:8000" or ":8000".
	Addr string
	// Path is the MCP endpoint's path.
	Path string
	// LogLevel is the least severe level the default logger writes:
	// debug, info, warn or error.
	LogLevel slog.Level
	// Stateless serves each HTTP request on its own, without sessions.
	Stateless bool
	// JSONResponse answers HTTP requests with JSON bodies instead of SSE streams.
	JSONResponse bool
	// AllowedHosts and AllowedOrigins configure the DNS-rebinding protection.
	AllowedHosts, AllowedOrigins []string
	// ShutdownTimeout bounds how long in-flight requests may take to finish
	// at shutdown, and, over stdio, after the client closed stdin: the
	// requests read before end of input are answered within it.
	ShutdownTimeout time.Duration
	// ReadHeaderTimeout bounds how long an HTTP client may take to send a
	// request's headers (the server Run builds). Negative: no limit.
	ReadHeaderTimeout time.Duration
	// ReadBodyTimeout bounds how long an HTTP client may take to send a
	// POST body, from the start of the request: a slower client gets 408
	// and its connection closed. Negative: no limit. It applies to the
	// Server mounted as an http.Handler too.
	ReadBodyTimeout time.Duration
	// WriteTimeout bounds how long an HTTP client may take none of an
	// answer's bytes: a response stream that makes no progress for this
	// long is dropped, with the memory its unread answers held (its stored
	// events keep it resumable). A slow reader that keeps reading is never
	// cut. Negative: no limit. It applies to the Server mounted as an
	// http.Handler too.
	WriteTimeout time.Duration
	// JSONWindow is how long the answer to a POSTed request of a legacy
	// HTTP session may take and still be sent as one JSON body: an answer
	// that comes first within it is JSON (not stored, so not resumable,
	// and needing no stream); a message sent before it, or the window
	// passing, starts an SSE stream, stored and resumable. Negative: every
	// answer is an SSE stream. JSONResponse (JSON always) takes precedence.
	JSONWindow time.Duration
	// IdleConnTimeout is how long a keep-alive HTTP connection may wait
	// for its next request before the server closes it. Negative: no
	// limit.
	IdleConnTimeout time.Duration
	// MaxHeaderBytes bounds the size of an HTTP request's headers; larger
	// requests get 431.
	MaxHeaderBytes int
	// MaxBodyBytes bounds the size of a POST body; larger bodies get 413.
	// It applies to the Server mounted as an http.Handler too.
	MaxBodyBytes int64
	// RedisURL names the Redis that keeps the state the server shares
	// with its replicas (redis://user:password@host:6379/0, rediss:// for
	// TLS, unix:///path/to/socket): the SSE event log, the tasks, and the
	// keys that seal requestState, the legacy sessions and the bus (see
	// SharedStores). The program must link package
	// store/redisstore/redisurl (import _
	// "github.com/fastmcp-go/fastmcp/store/redisstore/redisurl"); without it, or
	// when Redis cannot be reached, the server does not start. Empty: the
	// in-memory stores.
	RedisURL string

	// Limits on what HTTP clients may hold open. A negative value means no
	// limit (sessions that never expire), as for the time limits above.

	// SessionIdleTimeout ends a legacy HTTP session that has had no request
	// and no open stream for this long.
	SessionIdleTimeout time.Duration
	// MaxSessions bounds the legacy HTTP sessions open at once (Streamable
	// HTTP, and separately HTTP+SSE); past it an initialize gets 503.
	MaxSessions int
	// MaxStreamsPerSession bounds the responses one legacy session has open
	// at once (POST answers and GET streams); past it a request gets 429.
	MaxStreamsPerSession int
	// MaxListens bounds the subscriptions/listen streams open at once;
	// past it a listen gets 503.
	MaxListens int
}

// Defaults of the HTTP server settings.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadBodyTimeout   = transport.DefaultReadBodyTimeout
	DefaultWriteTimeout      = transport.DefaultWriteTimeout
	DefaultJSONWindow        = transport.DefaultJSONWindow
	DefaultIdleConnTimeout   = 2 * time.Minute
	DefaultMaxHeaderBytes    = 64 << 10
	DefaultMaxBodyBytes      = transport.DefaultMaxMessageSize
)

// settingsSet records which settings were given explicitly.
type settingsSet struct {
	transport, addr, path, logLevel, stateless, jsonResponse, hosts, origins, shutdown bool
	readHeader, readBody, write, jsonWindow, idleConn, maxHeader, maxBody, redisURL    bool
	idleTimeout, maxSessions, maxStreams, maxListens                                   bool
}

// Transport chooses the transport Run serves on: "stdio" or "http".
func Transport(name string) Option {
	return serverOption(func(c *serverConfig) { c.settings.Transport, c.set.transport = name, true })
}

// Addr sets the address Run serves HTTP on; it implies the http transport.
func Addr(addr string) Option {
	return serverOption(func(c *serverConfig) { c.settings.Addr, c.set.addr = addr, true })
}

// HTTPPath sets the path of the MCP endpoint. Default /mcp.
func HTTPPath(path string) Option {
	return serverOption(func(c *serverConfig) { c.settings.Path, c.set.path = path, true })
}

// LogLevel sets the least severe level the server's default logger
// writes (to stderr). Default info. It does not apply to a logger given
// with Logger.
func LogLevel(l slog.Level) Option {
	return serverOption(func(c *serverConfig) { c.settings.LogLevel, c.set.logLevel = l, true })
}

// Stateless makes the HTTP transport serve each request on its own, without
// sessions (no server-to-client requests on legacy revisions; 2026-07-28
// requests are always served this way).
func Stateless(b bool) Option {
	return serverOption(func(c *serverConfig) { c.settings.Stateless, c.set.stateless = b, true })
}

// JSONResponse makes the HTTP transport answer requests with single JSON
// bodies instead of SSE streams.
func JSONResponse(b bool) Option {
	return serverOption(func(c *serverConfig) { c.settings.JSONResponse, c.set.jsonResponse = b, true })
}

// AllowedHosts sets the Host names the HTTP transport accepts (DNS-rebinding
// protection): hostnames (any port) or host:port, or "*" for any Host.
// Default: the localhost names when listening on a loopback address; the
// address itself when listening on another specific IP address; the name
// in the Addr setting (and the address it resolved to) when it names a
// host. Listening on every interface (":8000", "0.0.0.0:8000") requires
// this setting: Run, ListenAndServe and ServeListener fail with
// ErrAllowedHostsRequired without it.
func AllowedHosts(hosts ...string) Option {
	return serverOption(func(c *serverConfig) { c.settings.AllowedHosts, c.set.hosts = hosts, true })
}

// AllowedOrigins sets the browser origins the HTTP transport accepts, as
// scheme://host[:port], or "*" for any. Default: the request's own host
// once it passed the Host check, and localhost origins on loopback.
func AllowedOrigins(origins ...string) Option {
	return serverOption(func(c *serverConfig) { c.settings.AllowedOrigins, c.set.origins = origins, true })
}

// ShutdownTimeout bounds how long in-flight requests may take to finish at
// shutdown, and after the client ended its input (closed stdin): requests
// read before end of input are answered within it. Default 10 seconds.
func ShutdownTimeout(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.settings.ShutdownTimeout, c.set.shutdown = d, true })
}

// ReadHeaderTimeout bounds how long an HTTP client may take to send a
// request's headers. Default 10 seconds; a negative d means no limit, 0
// leaves the setting to the flag, the environment or the default.
func ReadHeaderTimeout(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.settings.ReadHeaderTimeout, c.set.readHeader = d, d != 0 })
}

// ReadBodyTimeout bounds how long an HTTP client may take to send a POST
// body, counted from the start of the request; a slower client gets 408
// Request Timeout and its connection closed, so it cannot hold the
// connection, or delay a graceful shutdown, for longer. The answer's
// stream is not limited. Default 30 seconds; a negative d means no limit,
// 0 leaves the setting to the flag, the environment or the default.
func ReadBodyTimeout(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.settings.ReadBodyTimeout, c.set.readBody = d, d != 0 })
}

// WriteTimeout bounds how long an HTTP client may take none of an answer's
// bytes: a response stream whose writes make no progress for this long is
// dropped, and the memory its unread answers held with it (a client that
// stops reading cannot pin them); its stored events keep it resumable with
// Last-Event-ID. A slow reader that keeps taking bytes is never cut.
// Default 30 seconds; a negative d means no limit, 0 leaves the setting to
// the flag, the environment or the default.
func WriteTimeout(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.settings.WriteTimeout, c.set.write = d, d != 0 })
}

// JSONWindow is how long the answer to a POSTed request of a legacy HTTP
// session may take and still be sent as one JSON body instead of an SSE
// stream (see Settings.JSONWindow). Default 2 ms; a negative d sends every
// answer as an SSE stream, 0 leaves the setting to the flag, the
// environment or the default.
func JSONWindow(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.settings.JSONWindow, c.set.jsonWindow = d, d != 0 })
}

// IdleConnTimeout is how long a keep-alive HTTP connection may wait for
// its next request before the server closes it. Default 2 minutes; a
// negative d means no limit, 0 leaves the setting to the flag, the
// environment or the default.
func IdleConnTimeout(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.settings.IdleConnTimeout, c.set.idleConn = d, d != 0 })
}

// MaxHeaderBytes bounds the size of an HTTP request's headers (the request
// line included); a larger request gets 431. Default 64 KiB; n <= 0
// leaves the setting to the flag, the environment or the default.
func MaxHeaderBytes(n int) Option {
	return serverOption(func(c *serverConfig) { c.settings.MaxHeaderBytes, c.set.maxHeader = n, n > 0 })
}

// MaxBodyBytes bounds the size of a POST body; a larger body gets 413.
// Default 4 MiB; n <= 0 leaves the setting to the flag, the environment or
// the default.
func MaxBodyBytes(n int64) Option {
	return serverOption(func(c *serverConfig) { c.settings.MaxBodyBytes, c.set.maxBody = n, n > 0 })
}

// RedisURL makes the server keep the state it shares with its replicas
// in the Redis the URL names (see Settings.RedisURL); the program must
// link package store/redisstore/redisurl. An empty url leaves the setting to the
// flag or the environment.
func RedisURL(url string) Option {
	return serverOption(func(c *serverConfig) { c.settings.RedisURL, c.set.redisURL = url, url != "" })
}

// SessionIdleTimeout sets how long a legacy HTTP session may stay idle (no
// request, no open stream) before it ends; its client then gets 404 and
// must initialize again. Default 30 minutes; a negative d means sessions
// never expire, 0 leaves the setting to the flag, the environment or the
// default.
func SessionIdleTimeout(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.settings.SessionIdleTimeout, c.set.idleTimeout = d, d != 0 })
}

// MaxSessions bounds the legacy HTTP sessions open at once (Streamable
// HTTP and HTTP+SSE each); past it a new session is refused with 503.
// Default transport.DefaultMaxSessions (1000); a negative n means no
// limit, 0 leaves the setting to the flag, the environment or the default.
func MaxSessions(n int) Option {
	return serverOption(func(c *serverConfig) { c.settings.MaxSessions, c.set.maxSessions = n, n != 0 })
}

// MaxStreamsPerSession bounds the responses one legacy HTTP session has
// open at once (answers to requests, GET streams); past it a request is
// refused with 429. Default transport.DefaultMaxStreamsPerSession (64); a
// negative n means no limit, 0 leaves the setting to the flag, the
// environment or the default.
func MaxStreamsPerSession(n int) Option {
	return serverOption(func(c *serverConfig) { c.settings.MaxStreamsPerSession, c.set.maxStreams = n, n != 0 })
}

// MaxListens bounds the subscriptions/listen streams (protocol 2026-07-28)
// open at once; past it a listen is refused with 503. Default
// transport.DefaultMaxListens (1000); a negative n means no limit, 0 leaves
// the setting to the flag, the environment or the default.
func MaxListens(n int) Option {
	return serverOption(func(c *serverConfig) { c.settings.MaxListens, c.set.maxListens = n, n != 0 })
}

// Flags registers the settings as flags on fs (flag.CommandLine in most
// programs), so that -addr, -transport and the others override the
// environment. Call it before fs.Parse.
func (s *Server) Flags(fs *flag.FlagSet) {
	s.cfg.flags = fs
	fs.String("transport", "", "transport: stdio or http (env FASTMCP_TRANSPORT)")
	fs.String("addr", "", "HTTP listen address, e.g. localhost:8000; implies -transport=http (env FASTMCP_ADDR)")
	fs.String("path", "", "MCP endpoint path (env FASTMCP_PATH, default /mcp)")
	fs.String("log-level", "", "log level: debug, info, warn or error (env FASTMCP_LOG_LEVEL, default info)")
	fs.String("stateless", "", "serve HTTP without sessions: true or false (env FASTMCP_STATELESS)")
	fs.String("json-response", "", "answer HTTP requests with JSON instead of SSE: true or false (env FASTMCP_JSON_RESPONSE)")
	fs.String("allowed-hosts", "", "comma-separated Host names accepted over HTTP (env FASTMCP_ALLOWED_HOSTS)")
	fs.String("allowed-origins", "", "comma-separated browser origins accepted over HTTP (env FASTMCP_ALLOWED_ORIGINS)")
	fs.String("shutdown-timeout", "", "how long in-flight requests may take at shutdown, e.g. 10s (env FASTMCP_SHUTDOWN_TIMEOUT)")
	fs.String("read-header-timeout", "", "how long an HTTP client may take to send its headers; or none (env FASTMCP_READ_HEADER_TIMEOUT, default 10s)")
	fs.String("read-body-timeout", "", "how long an HTTP client may take to send a POST body; or none (env FASTMCP_READ_BODY_TIMEOUT, default 30s)")
	fs.String("write-timeout", "", "how long an HTTP client may take none of an answer's bytes before its stream is dropped; or none (env FASTMCP_WRITE_TIMEOUT, default 30s)")
	fs.String("json-window", "", "how long a POST's answer may take and still be one JSON body, not an SSE stream; or none for SSE always (env FASTMCP_JSON_WINDOW, default 2ms)")
	fs.String("idle-conn-timeout", "", "how long an idle keep-alive HTTP connection stays open; or none (env FASTMCP_IDLE_CONN_TIMEOUT, default 2m)")
	fs.String("max-header-bytes", "", "largest HTTP request headers accepted, in bytes (env FASTMCP_MAX_HEADER_BYTES, default 65536)")
	fs.String("max-body-bytes", "", "largest POST body accepted, in bytes (env FASTMCP_MAX_BODY_BYTES, default 4194304)")
	fs.String("redis-url", "", "Redis keeping the state shared with other replicas, e.g. redis://host:6379/0 (env FASTMCP_REDIS_URL)")

	fs.String("session-idle-timeout", "", "how long an idle HTTP session lives, e.g. 30m, or none (env FASTMCP_SESSION_IDLE_TIMEOUT)")
	fs.String("max-sessions", "", "most HTTP sessions open at once, or none (env FASTMCP_MAX_SESSIONS, default 1000)")
	fs.String("max-streams-per-session", "", "most responses one HTTP session has open at once, or none (env FASTMCP_MAX_STREAMS_PER_SESSION, default 64)")
	fs.String("max-listens", "", "most subscriptions/listen streams open at once, or none (env FASTMCP_MAX_LISTENS, default 1000)")
}

// noLimit is the value the limit flags and FASTMCP_* variables take for
// "no limit" (-max-sessions=none, FASTMCP_READ_BODY_TIMEOUT=none); the
// options take a negative value for it.
const noLimit = "none"

// resolveLimit resolves one limit setting into dst: the option when given
// (non-zero), else the flag or environment value (a positive value parsed
// by parse, or noLimit, which resolves to -1), else def. example is a valid
// value for the error message.
func resolveLimit[T int | time.Duration](value func(string) (string, string, bool), bad func(from, v, want string), name string, dst *T, given bool, def T, example string, parse func(string) (T, error)) {
	if given && *dst != 0 {
		if *dst < 0 {
			*dst = -1
		}
		return
	}
	*dst = def
	v, from, ok := value(name)
	if !ok {
		return
	}
	if v == noLimit {
		*dst = -1
		return
	}
	n, err := parse(v)
	if err != nil || n <= 0 {
		bad(from, v, "use a positive value such as "+example+", or "+noLimit+" for no limit")
		return
	}
	*dst = n
}

// settingSource is one setting's name in each source.
type settingSource struct{ flag, env string }

var settingNames = map[string]settingSource{
	"transport":        {"transport", "FASTMCP_TRANSPORT"},
	"addr":             {"addr", "FASTMCP_ADDR"},
	"path":             {"path", "FASTMCP_PATH"},
	"log-level":        {"log-level", "FASTMCP_LOG_LEVEL"},
	"stateless":        {"stateless", "FASTMCP_STATELESS"},
	"json-response":    {"json-response", "FASTMCP_JSON_RESPONSE"},
	"allowed-hosts":    {"allowed-hosts", "FASTMCP_ALLOWED_HOSTS"},
	"allowed-origins":  {"allowed-origins", "FASTMCP_ALLOWED_ORIGINS"},
	"shutdown-timeout": {"shutdown-timeout", "FASTMCP_SHUTDOWN_TIMEOUT"},

	"read-header-timeout":     {"read-header-timeout", "FASTMCP_READ_HEADER_TIMEOUT"},
	"read-body-timeout":       {"read-body-timeout", "FASTMCP_READ_BODY_TIMEOUT"},
	"write-timeout":           {"write-timeout", "FASTMCP_WRITE_TIMEOUT"},
	"json-window":             {"json-window", "FASTMCP_JSON_WINDOW"},
	"idle-conn-timeout":       {"idle-conn-timeout", "FASTMCP_IDLE_CONN_TIMEOUT"},
	"max-header-bytes":        {"max-header-bytes", "FASTMCP_MAX_HEADER_BYTES"},
	"max-body-bytes":          {"max-body-bytes", "FASTMCP_MAX_BODY_BYTES"},
	"redis-url":               {"redis-url", "FASTMCP_REDIS_URL"},
	"session-idle-timeout":    {"session-idle-timeout", "FASTMCP_SESSION_IDLE_TIMEOUT"},
	"max-sessions":            {"max-sessions", "FASTMCP_MAX_SESSIONS"},
	"max-streams-per-session": {"max-streams-per-session", "FASTMCP_MAX_STREAMS_PER_SESSION"},
	"max-listens":             {"max-listens", "FASTMCP_MAX_LISTENS"},
}

// Settings resolves the server's settings from its options, the flags (if
// registered and parsed) and the environment, as Run does. The error names
// every invalid setting.
func (s *Server) Settings() (Settings, error) {
	return resolveSettings(s.cfg.settings, s.cfg.set, s.cfg.flags, os.LookupEnv)
}

func resolveSettings(opt Settings, set settingsSet, fs *flag.FlagSet, lookup func(string) (string, bool)) (Settings, error) {
	flagSet := map[string]string{}
	if fs != nil && fs.Parsed() {
		fs.Visit(func(f *flag.Flag) { flagSet[f.Name] = f.Value.String() })
	}
	// value returns the raw text of a setting from a flag or the
	// environment, and where it came from.
	value := func(name string) (string, string, bool) {
		src := settingNames[name]
		if v, ok := flagSet[src.flag]; ok {
			return v, "flag -" + src.flag, true
		}
		if v, ok := lookup(src.env); ok && v != "" {
			return v, src.env, true
		}
		return "", "", false
	}
	out := opt
	var errs []error
	bad := func(from, v, accepted string) {
		errs = append(errs, fmt.Errorf("fastmcp: setting %s=%q is invalid: %s", from, v, accepted))
	}
	str := func(name string, dst *string, given bool) {
		if !given {
			if v, _, ok := value(name); ok {
				*dst = v
			}
		}
	}
	boolean := func(name string, dst *bool, given bool) {
		if given {
			return
		}
		if v, from, ok := value(name); ok {
			b, err := strconv.ParseBool(v)
			if err != nil {
				bad(from, v, "use true or false")
				return
			}
			*dst = b
		}
	}
	list := func(name string, dst *[]string, given bool) {
		if given {
			return
		}
		if v, _, ok := value(name); ok {
			var items []string
			for item := range strings.SplitSeq(v, ",") {
				if item = strings.TrimSpace(item); item != "" {
					items = append(items, item)
				}
			}
			*dst = items
		}
	}
	str("transport", &out.Transport, set.transport)
	str("addr", &out.Addr, set.addr)
	str("path", &out.Path, set.path)
	boolean("stateless", &out.Stateless, set.stateless)
	boolean("json-response", &out.JSONResponse, set.jsonResponse)
	list("allowed-hosts", &out.AllowedHosts, set.hosts)
	str("redis-url", &out.RedisURL, set.redisURL)
	if out.RedisURL != "" {
		if why := checkStoreURL(out.RedisURL); why != "" {
			from := "option RedisURL"
			if !set.redisURL {
				_, from, _ = value("redis-url")
			}
			// The value is not repeated: it may hold a password.
			errs = append(errs, fmt.Errorf("fastmcp: setting %s is invalid: %s; use a URL such as redis://user:password@host:6379/0 (rediss:// for TLS, unix:///path/to/socket)", from, why))
		}
	}
	list("allowed-origins", &out.AllowedOrigins, set.origins)
	if !set.logLevel {
		if v, from, ok := value("log-level"); ok {
			if err := out.LogLevel.UnmarshalText([]byte(v)); err != nil {
				bad(from, v, "use debug, info, warn or error")
			}
		}
	}
	if !set.shutdown {
		if v, from, ok := value("shutdown-timeout"); ok {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				bad(from, v, "use a non-negative duration such as 10s or 1m30s")
			} else {
				out.ShutdownTimeout = d
			}
		}
	}
	// Limits, in time and in number, follow one rule: an option of 0
	// leaves the limit to the flag, the environment or the default, and a
	// negative option means no limit; a flag or variable takes a positive
	// value or the word none. Resolved, a limit is positive, or
	// negative for none.
	duration := func(name string, dst *time.Duration, given bool, def time.Duration) {
		resolveLimit(value, bad, name, dst, given, def, "30s", func(v string) (time.Duration, error) { return time.ParseDuration(v) })
	}
	count := func(name string, dst *int, given bool, def int) {
		resolveLimit(value, bad, name, dst, given, def, "100", strconv.Atoi)
	}
	duration("read-header-timeout", &out.ReadHeaderTimeout, set.readHeader, DefaultReadHeaderTimeout)
	duration("read-body-timeout", &out.ReadBodyTimeout, set.readBody, DefaultReadBodyTimeout)
	duration("write-timeout", &out.WriteTimeout, set.write, DefaultWriteTimeout)
	duration("json-window", &out.JSONWindow, set.jsonWindow, DefaultJSONWindow)
	duration("idle-conn-timeout", &out.IdleConnTimeout, set.idleConn, DefaultIdleConnTimeout)
	duration("session-idle-timeout", &out.SessionIdleTimeout, set.idleTimeout, transport.DefaultSessionIdleTimeout)
	count("max-sessions", &out.MaxSessions, set.maxSessions, transport.DefaultMaxSessions)
	count("max-streams-per-session", &out.MaxStreamsPerSession, set.maxStreams, transport.DefaultMaxStreamsPerSession)
	count("max-listens", &out.MaxListens, set.maxListens, transport.DefaultMaxListens)
	// Sizes are always bounded (http.Server has no unbounded header size):
	// a positive number of bytes.
	size := func(name string, def int64) int64 {
		if v, from, ok := value(name); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				bad(from, v, "use a positive number of bytes, such as 65536")
				return def
			}
			return n
		}
		return def
	}
	if !set.maxHeader {
		out.MaxHeaderBytes = int(size("max-header-bytes", DefaultMaxHeaderBytes))
	}
	if !set.maxBody {
		out.MaxBodyBytes = size("max-body-bytes", DefaultMaxBodyBytes)
	}

	switch out.Transport {
	case "":
		out.Transport = "stdio"
		if out.Addr != "" {
			out.Transport = "http"
		}
	case "stdio", "http":
	default:
		from := "option Transport"
		if !set.transport {
			_, from, _ = value("transport")
		}
		bad(from, out.Transport, "use stdio or http")
	}
	if out.Transport == "http" && out.Addr == "" {
		out.Addr = "localhost:8000"
	}
	if out.Path == "" {
		out.Path = "/mcp"
	} else if !strings.HasPrefix(out.Path, "/") {
		from := "option HTTPPath"
		if !set.path {
			_, from, _ = value("path")
		}
		bad(from, out.Path, "the MCP endpoint path must start with /")
	}
	if out.ShutdownTimeout == 0 && !set.shutdown {
		out.ShutdownTimeout = 10 * time.Second
	}
	return out, errors.Join(errs...)
}
