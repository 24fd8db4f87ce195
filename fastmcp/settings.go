// This file holds the settings: the Settings struct, the option of each
// setting, the flags (Server.Flags), and the table with one row per
// setting (settingsTable) that package internal/settingtable resolves.
// The options of the settings live here rather than in option.go because
// each is one row of the same table as its flag and FASTMCP_* variable: a
// setting is added, renamed or documented in this one file.

package fastmcp

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/settingtable"
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
// and the values the Auth option checks tokens against, which differ
// between deployments (staging, production):
//
//	setting       option                   flag            environment            default
//	AuthIssuer    Auth's config (auth.JWT)  -auth-issuer    FASTMCP_AUTH_ISSUER    ""
//	AuthAudience  Auth's config (auth.JWT)  -auth-audience  FASTMCP_AUTH_AUDIENCE  ""
//	AuthResource  Auth's config (Metadata)  -auth-resource  FASTMCP_AUTH_RESOURCE  the audience
//	AuthJWKSURL   Auth's config (JWKSURL)   -auth-jwks-url  FASTMCP_AUTH_JWKS_URL  "" (discovered)
//
// These fill in, when the server starts serving HTTP, what the Auth
// option's configuration leaves empty (fastmcp.Auth(auth.Protect(auth.JWT("", "")))
// leaves the issuer and the audience to them); a setting that differs
// from a value the configuration gives stops the server with an error
// naming both (auth.SettingConflictError), and so does one set for a
// server without the Auth option. Over stdio they are not used.
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

	// The values the Auth option checks tokens against (see above and
	// auth.Protection's ProtectHTTPWith), empty when not set.

	// AuthIssuer is the authorization server whose tokens are accepted.
	AuthIssuer string
	// AuthAudience is the "aud" tokens must carry.
	AuthAudience string
	// AuthResource is the URL clients reach the MCP endpoint at, as the
	// protected resource metadata publishes it; empty: the audience.
	AuthResource string
	// AuthJWKSURL is the issuer's key set; empty: found through the
	// issuer's metadata.
	AuthJWKSURL string
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

// give records whether an option gave the setting of the flag name.
func (c *serverConfig) give(name string, given bool) {
	if c.set == nil {
		c.set = settingtable.Given{}
	}
	c.set[name] = given
}

// Transport chooses the transport Run serves on: "stdio" or "http".
func Transport(name string) Option {
	return serverOption(func(c *serverConfig) { c.settings.Transport = name; c.give("transport", true) })
}

// Addr sets the address Run serves HTTP on; it implies the http transport.
func Addr(addr string) Option {
	return serverOption(func(c *serverConfig) { c.settings.Addr = addr; c.give("addr", true) })
}

// HTTPPath sets the path of the MCP endpoint. Default /mcp.
func HTTPPath(path string) Option {
	return serverOption(func(c *serverConfig) { c.settings.Path = path; c.give("path", true) })
}

// LogLevel sets the least severe level the server's default logger
// writes (to stderr). Default info. It does not apply to a logger given
// with Logger.
func LogLevel(l slog.Level) Option {
	return serverOption(func(c *serverConfig) { c.settings.LogLevel = l; c.give("log-level", true) })
}

// Stateless makes the HTTP transport serve each request on its own, without
// sessions (no server-to-client requests on legacy revisions; 2026-07-28
// requests are always served this way).
func Stateless(b bool) Option {
	return serverOption(func(c *serverConfig) { c.settings.Stateless = b; c.give("stateless", true) })
}

// JSONResponse makes the HTTP transport answer requests with single JSON
// bodies instead of SSE streams.
func JSONResponse(b bool) Option {
	return serverOption(func(c *serverConfig) { c.settings.JSONResponse = b; c.give("json-response", true) })
}

// AllowedHosts sets the Host names the HTTP transport accepts (DNS-rebinding
// protection): hostnames (any port) or host:port, or "*" for any Host.
// Default: the localhost names when listening on a loopback address; the
// address itself when listening on another specific IP address; the name
// in the Addr setting (and the address it resolved to) when it names a
// host. Listening on every interface (":8000", "0.0.0.0:8000") requires
// this setting: Run fails with
// ErrAllowedHostsRequired without it.
func AllowedHosts(hosts ...string) Option {
	return serverOption(func(c *serverConfig) { c.settings.AllowedHosts = hosts; c.give("allowed-hosts", true) })
}

// AllowedOrigins sets the browser origins the HTTP transport accepts, as
// scheme://host[:port], or "*" for any. Default: the request's own host
// once it passed the Host check, and localhost origins on loopback.
func AllowedOrigins(origins ...string) Option {
	return serverOption(func(c *serverConfig) { c.settings.AllowedOrigins = origins; c.give("allowed-origins", true) })
}

// ShutdownTimeout bounds how long in-flight requests may take to finish at
// shutdown, and after the client ended its input (closed stdin): requests
// read before end of input are answered within it. Default 10 seconds.
func ShutdownTimeout(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.settings.ShutdownTimeout = d; c.give("shutdown-timeout", true) })
}

// ReadHeaderTimeout bounds how long an HTTP client may take to send a
// request's headers. Default 10 seconds; a negative d means no limit, 0
// leaves the setting to the flag, the environment or the default.
func ReadHeaderTimeout(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.settings.ReadHeaderTimeout = d; c.give("read-header-timeout", d != 0) })
}

// ReadBodyTimeout bounds how long an HTTP client may take to send a POST
// body, counted from the start of the request; a slower client gets 408
// Request Timeout and its connection closed, so it cannot hold the
// connection, or delay a graceful shutdown, for longer. The answer's
// stream is not limited. On the server Run builds it bounds every
// request's body, a HandleHTTP route's too (a route taking longer uploads
// extends its own with http.ResponseController's SetReadDeadline). Default 30 seconds; a negative d means no limit,
// 0 leaves the setting to the flag, the environment or the default.
func ReadBodyTimeout(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.settings.ReadBodyTimeout = d; c.give("read-body-timeout", d != 0) })
}

// WriteTimeout bounds how long an HTTP client may take none of an answer's
// bytes: a response stream whose writes make no progress for this long is
// dropped, and the memory its unread answers held with it (a client that
// stops reading cannot pin them); its stored events keep it resumable with
// Last-Event-ID. A slow reader that keeps taking bytes is never cut.
// Default 30 seconds; a negative d means no limit, 0 leaves the setting to
// the flag, the environment or the default.
func WriteTimeout(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.settings.WriteTimeout = d; c.give("write-timeout", d != 0) })
}

// JSONWindow is how long the answer to a POSTed request of a legacy HTTP
// session may take and still be sent as one JSON body instead of an SSE
// stream (see Settings.JSONWindow). Default 2 ms; a negative d sends every
// answer as an SSE stream, 0 leaves the setting to the flag, the
// environment or the default.
func JSONWindow(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.settings.JSONWindow = d; c.give("json-window", d != 0) })
}

// IdleConnTimeout is how long a keep-alive HTTP connection may wait for
// its next request before the server closes it. Default 2 minutes; a
// negative d means no limit, 0 leaves the setting to the flag, the
// environment or the default.
func IdleConnTimeout(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.settings.IdleConnTimeout = d; c.give("idle-conn-timeout", d != 0) })
}

// MaxHeaderBytes bounds the size of an HTTP request's headers (the request
// line included); a larger request gets 431. Default 64 KiB; n <= 0
// leaves the setting to the flag, the environment or the default.
func MaxHeaderBytes(n int) Option {
	return serverOption(func(c *serverConfig) { c.settings.MaxHeaderBytes = n; c.give("max-header-bytes", n > 0) })
}

// MaxBodyBytes bounds the size of a POST body; a larger body gets 413.
// Default 4 MiB; n <= 0 leaves the setting to the flag, the environment or
// the default.
func MaxBodyBytes(n int64) Option {
	return serverOption(func(c *serverConfig) { c.settings.MaxBodyBytes = n; c.give("max-body-bytes", n > 0) })
}

// RedisURL makes the server keep the state it shares with its replicas
// in the Redis the URL names (see Settings.RedisURL); the program must
// link package store/redisstore/redisurl. An empty url leaves the setting to the
// flag or the environment.
func RedisURL(url string) Option {
	return serverOption(func(c *serverConfig) { c.settings.RedisURL = url; c.give("redis-url", url != "") })
}

// SessionIdleTimeout sets how long a legacy HTTP session may stay idle (no
// request, no open stream) before it ends; its client then gets 404 and
// must initialize again. Default 30 minutes; a negative d means sessions
// never expire, 0 leaves the setting to the flag, the environment or the
// default.
func SessionIdleTimeout(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.settings.SessionIdleTimeout = d; c.give("session-idle-timeout", d != 0) })
}

// MaxSessions bounds the legacy HTTP sessions open at once (Streamable
// HTTP and HTTP+SSE each); past it a new session is refused with 503.
// Default transport.DefaultMaxSessions (1000); a negative n means no
// limit, 0 leaves the setting to the flag, the environment or the default.
func MaxSessions(n int) Option {
	return serverOption(func(c *serverConfig) { c.settings.MaxSessions = n; c.give("max-sessions", n != 0) })
}

// MaxStreamsPerSession bounds the responses one legacy HTTP session has
// open at once (answers to requests, GET streams); past it a request is
// refused with 429. Default transport.DefaultMaxStreamsPerSession (64); a
// negative n means no limit, 0 leaves the setting to the flag, the
// environment or the default.
func MaxStreamsPerSession(n int) Option {
	return serverOption(func(c *serverConfig) { c.settings.MaxStreamsPerSession = n; c.give("max-streams-per-session", n != 0) })
}

// MaxListens bounds the subscriptions/listen streams (protocol 2026-07-28)
// open at once; past it a listen is refused with 503. Default
// transport.DefaultMaxListens (1000); a negative n means no limit, 0 leaves
// the setting to the flag, the environment or the default.
func MaxListens(n int) Option {
	return serverOption(func(c *serverConfig) { c.settings.MaxListens = n; c.give("max-listens", n != 0) })
}

// Flags registers the settings as flags on fs (flag.CommandLine in most
// programs), so that -addr, -transport and the others override the
// environment. Call it before fs.Parse.
func (s *Server) Flags(fs *flag.FlagSet) {
	s.cfg.flags = fs
	settingsTable.Register(fs)
}

// row is one row of the settings table (see package settingtable).
type row = settingtable.Row[*Settings]

// settingsTable lists every setting, in the order Settings documents
// them. The transport, path and Redis URL are checked whichever source
// gave them; Addr's default follows from the transport.
var settingsTable = settingtable.Table[*Settings]{EnvPrefix: "FASTMCP_", ErrPrefix: "fastmcp: ", Rows: []row{
	settingtable.Text("transport", "Transport", func(s *Settings) *string { return &s.Transport }).WithCheck(checkTransport).Doc("transport: stdio or http", ""),
	settingtable.Text("addr", "Addr", func(s *Settings) *string { return &s.Addr }).Doc("HTTP listen address, e.g. localhost:8000; implies -transport=http", ""),
	settingtable.Text("path", "HTTPPath", func(s *Settings) *string { return &s.Path }).WithCheck(checkPath).Doc("MCP endpoint path", "/mcp"),
	row{Name: "log-level", Option: "LogLevel", Parse: func(s *Settings, v string) string {
		if s.LogLevel.UnmarshalText([]byte(v)) != nil {
			return "use debug, info, warn or error"
		}
		return ""
	}}.Doc("log level: debug, info, warn or error", "info"),
	settingtable.Bool("stateless", "Stateless", func(s *Settings) *bool { return &s.Stateless }).Doc("serve HTTP without sessions: true or false", ""),
	settingtable.Bool("json-response", "JSONResponse", func(s *Settings) *bool { return &s.JSONResponse }).Doc("answer HTTP requests with JSON instead of SSE: true or false", ""),
	settingtable.List("allowed-hosts", "AllowedHosts", func(s *Settings) *[]string { return &s.AllowedHosts }).Doc("comma-separated Host names accepted over HTTP", ""),
	settingtable.List("allowed-origins", "AllowedOrigins", func(s *Settings) *[]string { return &s.AllowedOrigins }).Doc("comma-separated browser origins accepted over HTTP", ""),
	row{Name: "shutdown-timeout", Option: "ShutdownTimeout", Parse: func(s *Settings, v string) string {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return "use a non-negative duration such as 10s or 1m30s"
		}
		s.ShutdownTimeout = d
		return ""
	}, Def: func(s *Settings) { s.ShutdownTimeout = 10 * time.Second }}.Doc("how long in-flight requests may take at shutdown, e.g. 10s", ""),
	settingtable.Limit("read-header-timeout", "ReadHeaderTimeout", func(s *Settings) *time.Duration { return &s.ReadHeaderTimeout }, DefaultReadHeaderTimeout, "30s", settingtable.Duration).Doc("how long an HTTP client may take to send its headers; or none", "10s"),
	settingtable.Limit("read-body-timeout", "ReadBodyTimeout", func(s *Settings) *time.Duration { return &s.ReadBodyTimeout }, DefaultReadBodyTimeout, "30s", settingtable.Duration).Doc("how long an HTTP client may take to send a POST body; or none", "30s"),
	settingtable.Limit("write-timeout", "WriteTimeout", func(s *Settings) *time.Duration { return &s.WriteTimeout }, DefaultWriteTimeout, "30s", settingtable.Duration).Doc("how long an HTTP client may take none of an answer's bytes before its stream is dropped; or none", "30s"),
	settingtable.Limit("json-window", "JSONWindow", func(s *Settings) *time.Duration { return &s.JSONWindow }, DefaultJSONWindow, "30s", settingtable.Duration).Doc("how long a POST's answer may take and still be one JSON body, not an SSE stream; or none for SSE always", "2ms"),
	settingtable.Limit("idle-conn-timeout", "IdleConnTimeout", func(s *Settings) *time.Duration { return &s.IdleConnTimeout }, DefaultIdleConnTimeout, "30s", settingtable.Duration).Doc("how long an idle keep-alive HTTP connection stays open; or none", "2m"),
	settingtable.Size("max-header-bytes", "MaxHeaderBytes", func(s *Settings) *int { return &s.MaxHeaderBytes }, DefaultMaxHeaderBytes).Doc("largest HTTP request headers accepted, in bytes", "65536"),
	settingtable.Size("max-body-bytes", "MaxBodyBytes", func(s *Settings) *int64 { return &s.MaxBodyBytes }, DefaultMaxBodyBytes).Doc("largest POST body accepted, in bytes", "4194304"),
	row{Name: "redis-url", Option: "RedisURL", Secret: true, Parse: func(s *Settings, v string) string { s.RedisURL = v; return "" }, Check: checkRedisURL}.Doc("Redis keeping the state shared with other replicas, e.g. redis://host:6379/0", ""),
	settingtable.Limit("session-idle-timeout", "SessionIdleTimeout", func(s *Settings) *time.Duration { return &s.SessionIdleTimeout }, transport.DefaultSessionIdleTimeout, "30s", settingtable.Duration).Doc("how long an idle HTTP session lives, e.g. 30m, or none", ""),
	settingtable.Limit("max-sessions", "MaxSessions", func(s *Settings) *int { return &s.MaxSessions }, transport.DefaultMaxSessions, "100", strconv.Atoi).Doc("most HTTP sessions open at once, or none", "1000"),
	settingtable.Limit("max-streams-per-session", "MaxStreamsPerSession", func(s *Settings) *int { return &s.MaxStreamsPerSession }, transport.DefaultMaxStreamsPerSession, "100", strconv.Atoi).Doc("most responses one HTTP session has open at once, or none", "64"),
	settingtable.Limit("max-listens", "MaxListens", func(s *Settings) *int { return &s.MaxListens }, transport.DefaultMaxListens, "100", strconv.Atoi).Doc("most subscriptions/listen streams open at once, or none", "1000"),
	settingtable.Text("auth-issuer", "Auth", func(s *Settings) *string { return &s.AuthIssuer }).Doc("issuer of the access tokens the Auth option accepts, e.g. https://idp.example.com", ""),
	settingtable.Text("auth-audience", "Auth", func(s *Settings) *string { return &s.AuthAudience }).Doc("audience (aud) the Auth option's access tokens must carry, e.g. https://mcp.example.com/mcp", ""),
	settingtable.Text("auth-resource", "Auth", func(s *Settings) *string { return &s.AuthResource }).Doc("URL clients reach the MCP endpoint at, published in the protected resource metadata", "the audience"),
	settingtable.Text("auth-jwks-url", "Auth", func(s *Settings) *string { return &s.AuthJWKSURL }).Doc("key set of the token issuer", "found through the issuer's metadata"),
}}

// authSettingNames are the rows of the auth settings, in the order of
// their fields in Settings.
var authSettingNames = [...]string{"auth-issuer", "auth-audience", "auth-resource", "auth-jwks-url"}

// authSettings returns set's auth settings in the order of
// authSettingNames.
func authSettings(set *Settings) [len(authSettingNames)]string {
	return [...]string{set.AuthIssuer, set.AuthAudience, set.AuthResource, set.AuthJWKSURL}
}

// settingFrom names where the setting of the row name came from, as the
// errors of Settings do ("flag -auth-issuer", "FASTMCP_AUTH_ISSUER").
func (s *Server) settingFrom(name string) string {
	return settingsTable.From(name, s.cfg.set, s.cfg.flags, os.LookupEnv)
}

// checkAuthSettings returns the error of an auth setting given to a server
// without the Auth option: its HTTP endpoints would not check tokens.
func (s *Server) checkAuthSettings(set *Settings) error {
	if s.cfg.auth != nil {
		return nil
	}
	for i, v := range authSettings(set) {
		if v != "" {
			return fmt.Errorf("fastmcp: setting %s=%q is set, but the server has no Auth option to check tokens with it: give New fastmcp.Auth(auth.Protect(auth.JWT(\"\", \"\"))), or unset it", s.settingFrom(authSettingNames[i]), v)
		}
	}
	return nil
}

// checkTransport derives the transport when none was given (http when an
// address or a listener is, else stdio) and the address http listens on
// by default, and checks the transport.
func checkTransport(s *Settings, set settingtable.Given) string {
	switch s.Transport {
	case "":
		s.Transport = "stdio"
		if s.Addr != "" || set["listener"] {
			s.Transport = "http"
		}
	case "stdio":
		if set["listener"] {
			return "the Listener option serves HTTP: use http, or leave the transport unset"
		}
	case "http":
	default:
		return "use stdio or http"
	}
	if s.Transport == "http" && s.Addr == "" {
		s.Addr = "localhost:8000"
	}
	return ""
}

// checkPath gives the endpoint path its default and checks it.
func checkPath(s *Settings, _ settingtable.Given) string {
	switch {
	case s.Path == "":
		s.Path = "/mcp"
	case !strings.HasPrefix(s.Path, "/"):
		return "the MCP endpoint path must start with /"
	}
	return ""
}

// checkRedisURL checks a Redis URL, when one is given.
func checkRedisURL(s *Settings, _ settingtable.Given) string {
	if s.RedisURL == "" {
		return ""
	}
	if why := checkStoreURL(s.RedisURL); why != "" {
		return why + "; use a URL such as redis://user:password@host:6379/0 (rediss:// for TLS, unix:///path/to/socket)"
	}
	return ""
}

// Settings resolves the server's settings from its options, the flags (if
// registered and parsed) and the environment, as Run does. The error names
// every invalid setting.
func (s *Server) Settings() (Settings, error) {
	out := s.cfg.settings
	err := settingsTable.Resolve(&out, s.cfg.set, s.cfg.flags, os.LookupEnv)
	return out, err
}
