// Package serverlink is the narrow bridge between package fastmcp and
// package proxy: the server internals a proxy drives, beyond fastmcp's
// exported API. Package fastmcp fills a Server for each *fastmcp.Server a
// proxy opens (Open); package proxy gives back a Backend, which the server's
// own code (mounts, subscriptions, subscriptions/listen) calls. Package
// fastmcp does not import package proxy: a server that builds no proxy
// links none of it, nor of the client, nor fastmcp's side of this bridge,
// which Open reaches by name (go:linkname) rather than through a
// registration every server would run.
//
// What crosses the bridge: from fastmcp to the proxy, the nine fields of
// Server; from the proxy to fastmcp, the seven methods of Backend. The
// rest the proxy uses is fastmcp's exported API (New, Server.Lowlevel,
// Server.Logger, Server.NotifyResourceUpdated, the methods of Context,
// CapabilityError, ErrInputRequired).
package serverlink

import (
	"context"
	_ "unsafe" // go:linkname

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/schema"
	"github.com/fastmcp-go/fastmcp/session"
)

// Backend is a proxy as the server's own code reaches it: the handlers a
// server it is mounted on calls, and the subscriptions it passes on.
// Its methods may be called concurrently.
type Backend interface {
	// CallTool, GetPrompt, ReadResource and Complete forward the request.
	CallTool(ctx context.Context, req *session.Request) (any, error)
	GetPrompt(ctx context.Context, req *session.Request) (any, error)
	ReadResource(ctx context.Context, req *session.Request) (any, error)
	Complete(ctx context.Context, req *session.Request) (any, error)
	// Subscribe subscribes the backend to uri for sub; added reports
	// whether sub was not subscribed to uri yet. Unsubscribe undoes it
	// for the subscriber key.
	Subscribe(ctx context.Context, sub Subscriber, uri string) (added bool, err error)
	Unsubscribe(ctx context.Context, key any, uri string) error
	// WaitReady waits until the backend's lists were fetched once.
	WaitReady(ctx context.Context) error
}

// Subscriber is who holds a subscription a proxy passes on to its
// backend.
type Subscriber struct {
	Key  any             // comparable: the same for each subscription of one subscriber
	Life context.Context // ends when the subscriber does
}

// Tool is a tool the backend lists, as the proxy lists it.
type Tool struct {
	Def     *protocol.Tool
	Raw     jsontext.Value  // Def as the backend wrote it
	Plain   jsontext.Value  // MCP Apps: the definition without _meta.ui; nil when it has none
	AppOnly bool            // MCP Apps: only views may call it
	Headers []schema.Header // the arguments mirrored in Mcp-Param headers
}

// Prompt is a prompt the backend lists.
type Prompt struct {
	Def *protocol.Prompt
	Raw jsontext.Value
}

// Resource is a resource the backend lists.
type Resource struct {
	Def  *protocol.Resource
	Raw  jsontext.Value
	View bool // an MCP Apps view: not listed to callers that render none
}

// Template is a resource template the backend lists.
type Template struct {
	Def *protocol.ResourceTemplate
	Raw jsontext.Value
}

// Lists are the backend's lists, fetched. A nil list is kept as it was
// (it could not be fetched); an empty one empties the server's.
type Lists struct {
	Tools     []Tool
	Prompts   []Prompt
	Resources []Resource
	Templates []Template
	// Told: the backend said they changed, so the proxy's clients are told
	// even when nothing a list shows changed.
	Told bool
	// First: no client has seen a list yet (they wait for the first
	// fetch): only the servers the proxy is mounted on are told.
	First bool
	// RendersViews, when a tool is an MCP Apps tool, reports whether a
	// client renders views.
	RendersViews func(*protocol.ClientCapabilities) bool
}

// Call is a request the proxy forwards, as Server.Start began it.
type Call struct {
	// Context is the call's *fastmcp.Context.
	Context context.Context
	// Name and Arguments are those of tools/call and prompts/get, URI that
	// of resources/read.
	Name, URI string
	Arguments jsontext.Value
	// Served: the server answered the request itself, with Result (a
	// server mounted on the proxy has what it names, or the caller may not
	// call it); it is not forwarded.
	Served bool
	Result any
}

// Server is what a proxy uses of a *fastmcp.Server beyond its exported
// methods. The functions may be called concurrently.
type Server struct {
	// SetBackend makes b the server's backend: what it forwards to.
	SetBackend func(b Backend)
	// InstallLists installs the server's list handlers for what caps
	// declares (tools, prompts, resources, completions).
	InstallLists func(caps *protocol.ServerCapabilities)
	// SetLists puts the backend's lists in the server's registries (the
	// entries of servers mounted on it stay) and tells of each change.
	SetLists func(l *Lists)
	// Start begins serving req, a request to forward: its Context, and for
	// tools/call, prompts/get and resources/read its target, the input
	// round of a multi round-trip call, and what the server answers
	// itself (Call.Served).
	Start func(ctx context.Context, req *session.Request) (*Call, error)
	// InputRequired returns the input_required result the call of c (a
	// *fastmcp.Context) ends with, if it asked its caller for input.
	InputRequired func(c context.Context) (any, error)
	// Ask asks the caller of c for input (kind: "sample", "elicit",
	// "roots"; key the backend's key of the request, if any) and decodes
	// the answer into result.
	Ask func(c context.Context, kind, key, method string, params, result any) error
	// Refusal returns the MissingRequiredClientCapability error for err,
	// when it is a *fastmcp.CapabilityError.
	Refusal func(err error) (*protocol.Error, bool)
	// CacheAttrs returns the cache members (`"ttlMs":…,"cacheScope":…`)
	// of the server's results.
	CacheAttrs func() string
	// Principal returns who makes req, as the server binds tasks to it.
	Principal func(req *session.Request) string
}

// Open returns the internals of s, a *fastmcp.Server.
func Open(s any) *Server { return open(s) }

// open is package fastmcp's serverLink. It is reached by name, not
// registered from fastmcp's init, so that only a program that builds a
// proxy links it, and what it reaches.
//
//go:linkname open github.com/fastmcp-go/fastmcp/fastmcp.serverLink
func open(s any) *Server
