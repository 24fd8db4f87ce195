package protocol

import (
	"encoding/json"
)

// Implementation describes an MCP client or server program: clientInfo and
// serverInfo.
type Implementation struct {
	// Name is the programmatic name.
	Name string `json:"name"`
	// Title is a human-readable display name (since 2025-06-18).
	Title string `json:"title,omitzero"`
	// Version is the implementation's version.
	Version string `json:"version"`
	// Description says what the implementation does (since 2025-11-25).
	Description string `json:"description,omitzero"`
	// WebsiteURL is the implementation's website (since 2025-11-25).
	WebsiteURL string `json:"websiteUrl,omitzero"`
	// Icons can be shown in a user interface (since 2025-11-25).
	Icons []Icon `json:"icons,omitzero"`
}

// Icon is an optionally sized image shown in a user interface (since 2025-11-25).
type Icon struct {
	// Src is an http(s) URL or a data: URI with base64 image data.
	Src string `json:"src"`
	// MIMEType overrides a missing or generic MIME type of Src.
	MIMEType string `json:"mimeType,omitzero"`
	// Sizes lists the sizes the icon suits, as "WxH" or "any".
	Sizes []string `json:"sizes,omitzero"`
	// Theme is the background the icon is designed for: IconThemeLight or IconThemeDark.
	Theme string `json:"theme,omitzero"`
}

// Icon themes.
const (
	IconThemeLight = "light"
	IconThemeDark  = "dark"
)

// Capability is a capability object whose presence declares support for a
// feature. Settings holds any members it carries, as raw JSON; a capability
// without settings encodes as {}.
type Capability struct {
	// Settings holds the members of the capability object.
	Settings map[string]json.RawMessage `json:",embed"`
}

// ClientCapabilities are the optional features a client supports. Before
// 2026-07-28 they are sent once in initialize; from 2026-07-28 on they are
// sent with every request in _meta (see [MetaClientCapabilities]).
type ClientCapabilities struct {
	// Experimental holds non-standard capabilities, each a JSON object.
	Experimental map[string]json.RawMessage `json:"experimental,omitzero"`
	// Roots is present if the client can list roots (deprecated in 2026-07-28).
	Roots *RootsCapability `json:"roots,omitzero"`
	// Sampling is present if the client can sample an LLM (deprecated in 2026-07-28).
	Sampling *SamplingCapability `json:"sampling,omitzero"`
	// Elicitation is present if the client can elicit input from its user
	// (since 2025-06-18).
	Elicitation *ElicitationCapability `json:"elicitation,omitzero"`
	// Tasks is present if the client supports task-augmented requests
	// (2025-11-25 only; an extension since 2026-07-28).
	Tasks *TasksCapability `json:"tasks,omitzero"`
	// Extensions lists the MCP extensions supported, by identifier, each
	// with a JSON object of settings (since 2026-07-28).
	Extensions map[string]json.RawMessage `json:"extensions,omitzero"`
}

// RootsCapability declares support for roots/list.
type RootsCapability struct {
	// ListChanged: the client sends notifications/roots/list_changed
	// (removed in 2026-07-28).
	ListChanged bool `json:"listChanged,omitzero"`
}

// SamplingCapability declares support for sampling/createMessage.
type SamplingCapability struct {
	// Context: the client supports includeContext other than "none" (since 2025-11-25).
	Context *Capability `json:"context,omitzero"`
	// Tools: the client supports tools and toolChoice (since 2025-11-25).
	Tools *Capability `json:"tools,omitzero"`
}

// ElicitationCapability declares support for elicitation/create. An empty
// object means form mode only.
type ElicitationCapability struct {
	// Form: the client supports form mode (since 2025-11-25).
	Form *Capability `json:"form,omitzero"`
	// URL: the client supports URL mode (since 2025-11-25).
	URL *Capability `json:"url,omitzero"`
}

// ServerCapabilities are the optional features a server supports, returned
// by initialize (before 2026-07-28) or server/discover (2026-07-28).
type ServerCapabilities struct {
	// Experimental holds non-standard capabilities, each a JSON object.
	Experimental map[string]json.RawMessage `json:"experimental,omitzero"`
	// Logging is present if the server sends log messages (deprecated in 2026-07-28).
	Logging *Capability `json:"logging,omitzero"`
	// Completions is present if the server offers argument completion (since 2025-03-26).
	Completions *Capability `json:"completions,omitzero"`
	// Prompts is present if the server offers prompts.
	Prompts *PromptsCapability `json:"prompts,omitzero"`
	// Resources is present if the server offers resources.
	Resources *ResourcesCapability `json:"resources,omitzero"`
	// Tools is present if the server offers tools.
	Tools *ToolsCapability `json:"tools,omitzero"`
	// Tasks is present if the server supports task-augmented requests
	// (2025-11-25 only; an extension since 2026-07-28).
	Tasks *TasksCapability `json:"tasks,omitzero"`
	// Extensions lists the MCP extensions supported, by identifier, each
	// with a JSON object of settings (since 2026-07-28).
	Extensions map[string]json.RawMessage `json:"extensions,omitzero"`
}

// PromptsCapability declares that the server offers prompts.
type PromptsCapability struct {
	// ListChanged: the server sends notifications/prompts/list_changed.
	ListChanged bool `json:"listChanged,omitzero"`
}

// ResourcesCapability declares that the server offers resources.
type ResourcesCapability struct {
	// Subscribe: the server supports subscribing to resource updates.
	Subscribe bool `json:"subscribe,omitzero"`
	// ListChanged: the server sends notifications/resources/list_changed.
	ListChanged bool `json:"listChanged,omitzero"`
}

// ToolsCapability declares that the server offers tools.
type ToolsCapability struct {
	// ListChanged: the server sends notifications/tools/list_changed.
	ListChanged bool `json:"listChanged,omitzero"`
}

// InitializeParams are the params of initialize, the first request of a
// session (2024-11-05 to 2025-11-25; removed in 2026-07-28).
type InitializeParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ProtocolVersion is the newest revision the client supports.
	ProtocolVersion string `json:"protocolVersion"`
	// Capabilities are the client's capabilities.
	Capabilities ClientCapabilities `json:"capabilities"`
	// ClientInfo identifies the client.
	ClientInfo Implementation `json:"clientInfo"`
}

// InitializeResult is the result of initialize (2024-11-05 to 2025-11-25).
type InitializeResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused by the revisions that have initialize; see [ResultTypeComplete].
	ResultType string `json:"resultType,omitzero"`
	// ProtocolVersion is the revision the server chose; the client
	// disconnects if it cannot speak it.
	ProtocolVersion string `json:"protocolVersion"`
	// Capabilities are the server's capabilities.
	Capabilities ServerCapabilities `json:"capabilities"`
	// ServerInfo identifies the server.
	ServerInfo Implementation `json:"serverInfo"`
	// Instructions tell the client (and its model) how to use the server.
	Instructions string `json:"instructions,omitzero"`
}

// DiscoverResult is the result of server/discover (2026-07-28).
type DiscoverResult struct {
	// Meta is the result's _meta; it should carry [MetaServerInfo].
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" (required in 2026-07-28).
	ResultType string `json:"resultType,omitzero"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (required in 2026-07-28; nil omits it).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope says who may cache the result (required in 2026-07-28).
	CacheScope CacheScope `json:"cacheScope,omitzero"`
	// SupportedVersions lists the revisions the server speaks.
	SupportedVersions []string `json:"supportedVersions"`
	// Capabilities are the server's capabilities.
	Capabilities ServerCapabilities `json:"capabilities"`
	// Instructions tell the client (and its model) how to use the server.
	Instructions string `json:"instructions,omitzero"`
}

// RequestParams are the params of a request that carries nothing but _meta:
// ping, server/discover and roots/list.
type RequestParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// EmptyResult is a result that carries no data, such as the result of ping,
// resources/subscribe or logging/setLevel.
type EmptyResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" (required in 2026-07-28).
	ResultType string `json:"resultType,omitzero"`
}

// Result types (2026-07-28). A result without one, from an earlier
// revision, counts as complete.
const (
	// ResultTypeComplete marks an ordinary, final result.
	ResultTypeComplete = "complete"
	// ResultTypeInputRequired marks an [InputRequiredResult].
	ResultTypeInputRequired = "input_required"
)

// CacheScope says who may cache a cacheable result (2026-07-28).
type CacheScope string

// Cache scopes.
const (
	// CacheScopePublic: the result holds no user-specific data; shared caches may keep it.
	CacheScopePublic CacheScope = "public"
	// CacheScopePrivate: the result may only be reused within the same authorization context.
	CacheScopePrivate CacheScope = "private"
)

// UnsupportedProtocolVersionData is the data of an
// [ErrUnsupportedProtocolVersion] error (2026-07-28).
type UnsupportedProtocolVersionData struct {
	// Supported lists the revisions the server speaks.
	Supported []string `json:"supported"`
	// Requested is the revision the client asked for.
	Requested string `json:"requested"`
}

// MissingRequiredClientCapabilityData is the data of an
// [ErrMissingRequiredClientCapability] error (2026-07-28).
type MissingRequiredClientCapabilityData struct {
	// RequiredCapabilities are the capabilities the request needs.
	RequiredCapabilities ClientCapabilities `json:"requiredCapabilities"`
}
