package fastmcp

import (
	"context"
	"flag"
	"log/slog"
	"net/http"
	"reflect"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/store"
)

// An Option configures a Server in New.
type Option interface{ applyServer(*serverConfig) }

// A ToolOption configures a tool registration (Server.Tool).
type ToolOption interface{ applyTool(*toolConfig) }

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
	hideUnauth     bool // HideUnauthorized
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
	set            settingsSet // which settings were given as options
	flags          *flag.FlagSet
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
}

type toolConfig struct {
	itemConfig
	annotations  *protocol.ToolAnnotations
	outputSchema jsontext.Value
	inputSchema  jsontext.Value
	strict       *bool
	keepRefs     *bool
	task         *taskSpec
	taskRun      taskRunner // installed with task by the Task option
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

func (o schemaOption) applyTool(c *toolConfig)     { o.tool(c) }
func (o schemaOption) applyServer(c *serverConfig) { o.server(c) }

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
// slog.Default().
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
