// This file holds the options: the Option, ToolOption, ResourceOption,
// PromptOption and CommonOption types, every Option constructor of the
// server (identity, logging, limits on calls, schemas, requestState,
// Lifespan, Auth, HideUnauthorized, the HTTP endpoints and http.Server,
// Listener) and the options common to tools, resources and prompts. Two
// kinds live elsewhere, each in one place: the options of the settings
// (Transport, Addr, ... MaxListens) in settings.go, beside the Settings
// struct and its table of flags and FASTMCP_* variables, which must change
// with them; and the options of the stores shared with
// replicas (SharedStores, Bus, Tasks), beside the stores.
// Options of one kind of registration only (resource_options.go, TaskSupport,
// CompleteArg, CacheHint, InputKey) stay with that registration.

package fastmcp

import (
	"context"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"reflect"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/settingtable"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/store"
)

// An Option configures a Server in New.
type Option interface{ applyServer(*serverConfig) }

// A ToolOption configures a tool registration (Server.Tool). Those that
// make sense for a derived tool also configure TransformTool.
type ToolOption interface {
	applyTool(*toolConfig)
	TransformOption
}

// A ResourceOption configures a resource or resource template registration
// (Server.Resource).
type ResourceOption interface{ applyResource(*resourceConfig) }

// A PromptOption configures a prompt registration (Server.Prompt).
type PromptOption interface{ applyPrompt(*promptConfig) }

// A CommonOption works for tools, resources and prompts alike.
type CommonOption interface {
	ToolOption
	ResourceOption
	PromptOption
}

type serverConfig struct {
	instructions   string
	logger         *slog.Logger
	pageSize       int
	hideUnauth     bool                                   // HideUnauthorized
	visibility     func(*session.Request, Component) bool // Visibility
	maxConcurrency int
	callTimeout    time.Duration
	title          string
	description    string
	websiteURL     string
	icons          []protocol.Icon
	strict         bool
	keepRefs       bool
	stateSecret    []byte
	stateKeys      store.KeyRing
	stores         *store.Stores
	stateTTL       time.Duration
	principal      func(*session.Request) string
	httpPrincipal  func(*http.Request) string
	lifespan       func(context.Context) (any, func(context.Context) error, error)
	lifespanType   reflect.Type
	settings       Settings
	set            settingtable.Given // which settings were given as options, by flag name, and "listener" for the Listener option (it implies http)
	flags          *flag.FlagSet
	listener       net.Listener // Listener
	http           httpConfig
	cache          *cacheHint
	auth           *authOption
	tasks          TaskSettings
	taskRun        taskRunner // installed by Tasks
	busRun         busRunner  // installed by SharedStores
}

type itemConfig struct {
	title       string
	description string
	icons       []protocol.Icon
	meta        protocol.Meta
	scopes      []string // from RequireScopes; checked at registration
	scopesSet   bool     // RequireScopes was given (perhaps with no scope)
	tags        []string // Tags
}

type toolConfig struct {
	itemConfig
	annotations  *protocol.ToolAnnotations
	outputSchema jsontext.Value
	inputSchema  jsontext.Value
	strict       *bool
	keepRefs     *bool
	task         *taskSpec
	taskRun      taskRunner // installed with task by the TaskSupport option
	app          appConfig  // WithToolUI
}

type serverOption func(*serverConfig)

func (f serverOption) applyServer(c *serverConfig) { f(c) }

type commonOption func(*itemConfig)

func (f commonOption) applyTool(c *toolConfig)         { f(&c.itemConfig) }
func (f commonOption) applyResource(c *resourceConfig) { f(&c.itemConfig) }
func (f commonOption) applyPrompt(c *promptConfig)     { f(&c.itemConfig) }

type toolOption func(*toolConfig)

func (f toolOption) applyTool(c *toolConfig) { f(c) }

// Description sets the human- and model-readable description of a tool,
// resource or prompt. Models choose tools by their descriptions: say what the
// tool does and when to use it.
func Description(text string) CommonOption {
	return commonOption(func(c *itemConfig) { c.description = text })
}

// Title sets a display name for a tool, resource or prompt (the name stays
// the identifier).
func Title(title string) CommonOption {
	return commonOption(func(c *itemConfig) { c.title = title })
}

// Icons sets icons a client may show for a tool, resource or prompt
// (protocol 2025-11-25 and later).
func Icons(icons ...protocol.Icon) CommonOption {
	return commonOption(func(c *itemConfig) { c.icons = append(c.icons, icons...) })
}

// Meta sets the _meta object published with a tool, resource or prompt.
func Meta(meta protocol.Meta) CommonOption {
	return commonOption(func(c *itemConfig) { c.meta = meta })
}

// Annotations sets behaviour hints for a tool (read-only, destructive,
// idempotent, open-world) all at once. The options ReadOnly, Idempotent,
// NonDestructive and ClosedWorld each set one hint.
func Annotations(a protocol.ToolAnnotations) ToolOption {
	return toolOption(func(c *toolConfig) { c.annotations = &a })
}

// ReadOnly marks a tool as not modifying its environment (readOnlyHint).
// Clients assume a tool may modify it unless told otherwise.
func ReadOnly() ToolOption {
	return hint(func(a *protocol.ToolAnnotations) { a.ReadOnlyHint = ptr(true) })
}

// NonDestructive marks a (not read-only) tool whose updates only add: it
// destroys no data (destructiveHint false). Clients assume a tool may
// destroy data unless told otherwise.
func NonDestructive() ToolOption {
	return hint(func(a *protocol.ToolAnnotations) { a.DestructiveHint = ptr(false) })
}

// Idempotent marks a tool whose repeated calls with the same arguments have
// no further effect (idempotentHint).
func Idempotent() ToolOption {
	return hint(func(a *protocol.ToolAnnotations) { a.IdempotentHint = ptr(true) })
}

// ClosedWorld marks a tool that works in a closed domain (its own store, a
// calculation) rather than an open world of external entities such as the
// web (openWorldHint false). Clients assume an open world unless told
// otherwise.
func ClosedWorld() ToolOption {
	return hint(func(a *protocol.ToolAnnotations) { a.OpenWorldHint = ptr(false) })
}

func hint(fn func(*protocol.ToolAnnotations)) ToolOption {
	return toolOption(func(c *toolConfig) {
		if c.annotations == nil {
			c.annotations = &protocol.ToolAnnotations{}
		}
		fn(c.annotations)
	})
}

func ptr[T any](v T) *T { return &v }

// OutputSchema publishes schema (a JSON Schema object) as the tool's
// outputSchema instead of the one derived from its result type.
func OutputSchema(schema []byte) ToolOption {
	return toolOption(func(c *toolConfig) { c.outputSchema = jsontext.Value(schema) })
}

// InputSchema publishes schema (a JSON Schema object, kept byte for byte) as
// the tool's inputSchema, and validates arguments against it. The handler's
// argument type must then be map[string]any (or the handler takes none).
// The arguments are checked by a full JSON Schema engine, which the program
// links by importing it:
//
//	import _ "github.com/fastmcp-go/fastmcp/schema/jsonvalidate"
//
// Without that import the tool's registration fails with an error that
// says so (see schema.FromJSON).
func InputSchema(schema []byte) ToolOption {
	return toolOption(func(c *toolConfig) { c.inputSchema = jsontext.Value(schema) })
}

// A SchemaOption sets how a tool's argument schema is built and checked. Given
// to New it sets the default for every tool of the server; given to Tool it
// sets it for that tool.
type SchemaOption interface {
	ToolOption
	Option
}

type schemaOption struct {
	tool   func(*toolConfig)
	server func(*serverConfig)
}

func (o schemaOption) applyTool(c *toolConfig)           { o.tool(c) }
func (o schemaOption) applyTransform(c *transformConfig) { o.tool(&c.tool) }
func (o schemaOption) applyServer(c *serverConfig)       { o.server(c) }

// Strict makes unknown argument fields an error (the schema gets
// "additionalProperties": false): for one tool, or given to New for every
// tool that does not set it itself. Default false: unknown fields are
// ignored.
func Strict(strict bool) SchemaOption {
	return schemaOption{
		tool:   func(c *toolConfig) { c.strict = &strict },
		server: func(c *serverConfig) { c.strict = strict },
	}
}

// KeepRefs keeps $ref/$defs in generated schemas instead of inlining them
// (recursive types always keep them): for one tool, or given to New for
// every tool that does not set it itself. Default false: many hosts
// mishandle $ref, so named types are inlined.
func KeepRefs(keep bool) SchemaOption {
	return schemaOption{
		tool:   func(c *toolConfig) { c.keepRefs = &keep },
		server: func(c *serverConfig) { c.keepRefs = keep },
	}
}

// Instructions sets the guidance sent to clients with the server's
// identity: how the model should use the server's tools.
func Instructions(text string) Option {
	return serverOption(func(c *serverConfig) { c.instructions = text })
}

// Logger sets the *slog.Logger every layer of the server logs to. Default:
// a text logger on standard error at the LogLevel setting, which package
// fastmcptest routes to the test's log (t.Log) while a test's client is
// connected; a logger set here is left alone.
func Logger(l *slog.Logger) Option {
	return serverOption(func(c *serverConfig) { c.logger = l })
}

// PageSize sets how many items list results carry per page. Default 1000.
func PageSize(n int) Option {
	return serverOption(func(c *serverConfig) { c.pageSize = n })
}

// MaxConcurrency bounds how many requests one session serves at once.
// Default 64.
func MaxConcurrency(n int) Option {
	return serverOption(func(c *serverConfig) { c.maxConcurrency = n })
}

// CallTimeout bounds the requests the server sends to clients (sampling,
// elicitation, roots). Default: none beyond the handler's context.
func CallTimeout(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.callTimeout = d })
}

// ServerTitle sets the server's display name.
func ServerTitle(title string) Option {
	return serverOption(func(c *serverConfig) { c.title = title })
}

// ServerDescription sets what the server says about itself to clients.
func ServerDescription(text string) Option {
	return serverOption(func(c *serverConfig) { c.description = text })
}

// ServerWebsiteURL sets the server's website.
func ServerWebsiteURL(url string) Option {
	return serverOption(func(c *serverConfig) { c.websiteURL = url })
}

// ServerIcons sets icons for the server.
func ServerIcons(icons ...protocol.Icon) Option {
	return serverOption(func(c *serverConfig) { c.icons = append(c.icons, icons...) })
}

// RequestStateSecret sets the secret that seals the requestState of multi
// round-trip requests (protocol 2026-07-28). Servers behind a load balancer
// must share one secret so that any instance can open a state another one
// sealed. Default: a random secret per process. Keys derived from it rotate
// hourly, and a state opens for as long as its RequestStateTTL. The secret
// itself never rotates: for a secret that does, use RequestStateKeys. It
// replaces RequestStateKeys.
func RequestStateSecret(secret []byte) Option {
	return serverOption(func(c *serverConfig) { c.stateSecret, c.stateKeys = secret, nil })
}

// RequestStateKeys sets the key ring that seals the requestState of multi
// round-trip requests (protocol 2026-07-28): store.StaticKeys for keys
// given in the configuration, redisstore.NewKeyRing for keys that rotate
// through Redis. It replaces RequestStateSecret. Default: a random secret
// per process.
func RequestStateKeys(ring store.KeyRing) Option {
	return serverOption(func(c *serverConfig) { c.stateKeys, c.stateSecret = ring, nil })
}

// RequestStateTTL bounds how long a client may take to answer an
// input_required result. Default 10 minutes.
func RequestStateTTL(d time.Duration) Option {
	return serverOption(func(c *serverConfig) { c.stateTTL = d })
}

// RequestStatePrincipal sets how the server identifies the client of a
// modern request, so that a requestState issued to one client is refused
// from another. Default: the principal the HTTP transport computed (see
// HTTPPrincipal; by default a digest of the Authorization header, empty
// when there is none, and then any client may present the state).
func RequestStatePrincipal(fn func(*session.Request) string) Option {
	return serverOption(func(c *serverConfig) { c.principal = fn })
}

// Listener makes Run serve HTTP on ln, a listener the program opened (a
// test's 127.0.0.1:0, a socket handed over by systemd), instead of
// listening on the Addr setting; it implies the http transport (a
// transport setting of stdio is then an error). Run closes ln when it
// returns. A Server mounted as an http.Handler does not use it.
func Listener(ln net.Listener) Option {
	return serverOption(func(c *serverConfig) { c.listener = ln; c.give("listener", ln != nil) })
}

// Auth protects the server's MCP endpoints over HTTP with a, usually
// package auth's Protect:
//
//	s := fastmcp.New("files", "1.0.0",
//		fastmcp.Auth(auth.Protect(auth.JWT("https://idp.example.com", "https://mcp.example.com/mcp"))))
//
// Every request to the Streamable HTTP endpoint and to the legacy
// HTTP+SSE endpoints, which move under it (/mcp/sse and /mcp/message, see
// HTTPConfig), passes a's middleware (auth.RequireBearerToken: requests
// without a valid token get 401 with a WWW-Authenticate challenge). a's
// public documents (the protected resource metadata, at its well-known
// paths) are served without a token and to any origin; a HandleHTTP route
// on the same path wins, with a log line. /healthz and HandleHTTP routes
// are not protected. Handlers read the verified token with Context.Auth.
//
// Sessions and requestState are bound to the token's principal (issuer,
// subject and client: authinfo.PrincipalFromRequest) unless HTTPPrincipal
// says otherwise, so another user's token cannot use them, and a client
// that refreshes its token keeps its session.
//
// The issuer, audience, resource and JWKS URL a's configuration leaves
// empty (auth.JWT("", "") leaves the first two) come from the auth
// settings (Settings.AuthIssuer and the others: -auth-issuer,
// FASTMCP_AUTH_ISSUER...), resolved when the server starts serving HTTP,
// so they can come from a flag or the environment; a setting that
// differs from a value the configuration gives is an error naming both.
// a is built then (HTTPAuth.ProtectHTTP), not by New. A configuration
// error (an invalid issuer, a missing resource, a conflicting setting) is
// returned by Run over HTTP; a mounted Server (ServeHTTP) logs it once
// and answers 503. Over stdio authorization does not apply: the option is
// ignored there, with one log line.
func Auth(a HTTPAuth) Option {
	return serverOption(func(c *serverConfig) {
		c.auth = &authOption{auth: a, build: newAuthState}
	})
}

// HTTPEndpoints gives fn the HTTPConfig of the server's MCP endpoints,
// with the defaults filled in, before they are built: move the legacy SSE
// endpoints or leave them out, or set transport options (an event
// store, keep-alives...). Several HTTPEndpoints options run in order.
func HTTPEndpoints(fn func(*HTTPConfig)) Option {
	return serverOption(func(c *serverConfig) { c.http.endpoints = append(c.http.endpoints, fn) })
}

// HTTPServer gives fn the *http.Server that Run builds to serve HTTP,
// with the settings applied (ReadHeaderTimeout, IdleConnTimeout,
// MaxHeaderBytes), before it serves: set TLSConfig (with
// certificates or GetCertificate; the server then serves HTTPS), ErrorLog,
// ConnState, BaseContext, HTTP/2 settings, or wrap Handler in middleware.
// Leave Addr alone (use the Addr setting) and do not start or stop the
// server yourself. Several HTTPServer options run in order.
//
// To own the http.Server entirely, mount the Server in it instead (it is an
// http.Handler); the body limits and DNS-rebinding protection come with it,
// the connection timeouts are then yours to set.
func HTTPServer(fn func(*http.Server)) Option {
	return serverOption(func(c *serverConfig) { c.http.configure = append(c.http.configure, fn) })
}

// HTTPPrincipal sets how the HTTP transports identify the caller of a
// request. Legacy sessions are bound to the caller that created them: a
// request for a session with another principal gets 404, as if the session
// did not exist. The same principal seals the requestState of multi
// round-trip requests (protocol 2026-07-28), unless RequestStatePrincipal
// says otherwise. Default: with the Auth option, authinfo.PrincipalFromRequest
// (the verified token's issuer, subject and client, so a client keeps its
// session when it refreshes its token); without it,
// transport.DefaultPrincipal, a digest of the Authorization header
// (requests without one share the empty principal).
func HTTPPrincipal(fn func(*http.Request) string) Option {
	return serverOption(func(c *serverConfig) { c.httpPrincipal = fn })
}

// HideUnauthorized leaves out of tools/list, prompts/list, resources/list
// and resources/templates/list the features (see RequireScopes) the caller
// may not use, by the same rule that refuses their use. Pages then hold up
// to PageSize visible items, and cursors stay valid across callers. Lists
// served this way carry cacheScope "private" (protocol 2026-07-28), since
// they depend on the caller. Notifications that a list changed are sent
// as before, to every client. Without it, lists show every feature.
func HideUnauthorized() Option {
	return serverOption(func(c *serverConfig) { c.hideUnauth = true })
}

// Lifespan gives the server a start-up function whose result every handler
// reads, with its static type, through State:
//
//	s := fastmcp.New("app", "1.0.0", fastmcp.Lifespan(func(ctx context.Context) (*sql.DB, func(context.Context) error, error) {
//		db, err := sql.Open("pgx", dsn)
//		if err != nil {
//			return nil, nil, err
//		}
//		return db, func(context.Context) error { return db.Close() }, db.PingContext(ctx)
//	}))
//	s.Tool("count", func(ctx *fastmcp.Context) (int, error) {
//		db := fastmcp.State[*sql.DB](ctx)
//		...
//	})
//
// The lifespan runs when the server starts (Run, ServeStdio, the first
// request to ServeHTTP, Start); an error stops start-up. Its cleanup runs
// at Shutdown (also on SIGINT/SIGTERM under Run); a cleanup error is
// logged.
//
// Why a generic option and a generic accessor rather than a typed server:
// the option checks the lifespan's shape at compile time and State reads the
// value back with its static type, while Server, Context and every handler
// signature stay the same whether or not a server has state.
func Lifespan[T any](fn LifespanFunc[T]) Option {
	return serverOption(func(c *serverConfig) {
		c.lifespanType = reflect.TypeFor[T]()
		c.lifespan = func(ctx context.Context) (any, func(context.Context) error, error) {
			return fn(ctx)
		}
	})
}
