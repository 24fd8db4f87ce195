package protocol

import (
	"encoding/json"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Tool describes a tool the client can call, as listed by tools/list.
type Tool struct {
	// Name identifies the tool in tools/call.
	Name string `json:"name"`
	// Title is a human-readable display name (since 2025-06-18).
	Title string `json:"title,omitzero"`
	// Description tells the model what the tool does.
	Description string `json:"description,omitzero"`
	// InputSchema is the JSON Schema of the arguments, an object schema with
	// "type":"object". It is kept as raw JSON; nil encodes as
	// {"type":"object"}.
	InputSchema json.RawMessage `json:"inputSchema"`
	// OutputSchema is the JSON Schema of StructuredContent in the result
	// (since 2025-06-18; an object schema before 2026-07-28).
	OutputSchema json.RawMessage `json:"outputSchema,omitzero"`
	// Annotations are hints about the tool's behaviour (since 2025-03-26).
	Annotations *ToolAnnotations `json:"annotations,omitzero"`
	// Icons can be shown in a user interface (since 2025-11-25).
	Icons []Icon `json:"icons,omitzero"`
	// Execution describes how the tool may be run (2025-11-25 only).
	Execution *ToolExecution `json:"execution,omitzero"`
	// Meta is the object's _meta (since 2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
}

type toolBody Tool

var objectSchema = json.RawMessage(`{"type":"object"}`)

// MarshalJSONTo encodes the tool, writing {"type":"object"} for a nil InputSchema.
func (t Tool) MarshalJSONTo(enc *jsontext.Encoder) error {
	if len(t.InputSchema) == 0 {
		t.InputSchema = objectSchema
	}
	return jsonv2.MarshalEncode(enc, (*toolBody)(&t))
}

// ToolAnnotations are hints about a tool's behaviour (since 2025-03-26).
// They are not guaranteed to be faithful: never trust them from an
// untrusted server. A nil hint takes its default.
type ToolAnnotations struct {
	// Title is a human-readable title.
	Title string `json:"title,omitzero"`
	// ReadOnlyHint: the tool does not modify its environment. Default false.
	ReadOnlyHint *bool `json:"readOnlyHint,omitzero"`
	// DestructiveHint: the tool may destroy data (meaningful when not read-only).
	// Default true.
	DestructiveHint *bool `json:"destructiveHint,omitzero"`
	// IdempotentHint: repeating a call with the same arguments has no further
	// effect (meaningful when not read-only). Default false.
	IdempotentHint *bool `json:"idempotentHint,omitzero"`
	// OpenWorldHint: the tool interacts with an open world of external
	// entities. Default true.
	OpenWorldHint *bool `json:"openWorldHint,omitzero"`
}

// ToolExecution describes how a tool may be run (2025-11-25 only).
type ToolExecution struct {
	// TaskSupport says whether tools/call may run as a task: TaskSupportForbidden
	// (the default), TaskSupportOptional or TaskSupportRequired.
	TaskSupport string `json:"taskSupport,omitzero"`
}

// Task support levels of [ToolExecution] (2025-11-25).
const (
	TaskSupportForbidden = "forbidden"
	TaskSupportOptional  = "optional"
	TaskSupportRequired  = "required"
)

// ListParams are the params of a paginated list request: tools/list,
// prompts/list, resources/list, resources/templates/list and (2025-11-25)
// tasks/list.
type ListParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// Cursor is the NextCursor of the previous page; empty asks for the first page.
	Cursor string `json:"cursor,omitzero"`
}

// ListToolsResult is the result of tools/list.
type ListToolsResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" (required in 2026-07-28).
	ResultType string `json:"resultType,omitzero"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (required in 2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope says who may cache the result (required in 2026-07-28).
	CacheScope CacheScope `json:"cacheScope,omitzero"`
	// Tools is one page of tools; always encoded.
	Tools []*Tool `json:"tools"`
	// NextCursor, when not empty, fetches the next page.
	NextCursor string `json:"nextCursor,omitzero"`
}

// CallToolParams are the params of tools/call.
type CallToolParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// Name is the tool to call.
	Name string `json:"name"`
	// Arguments is a JSON object of arguments, kept raw until bound.
	Arguments json.RawMessage `json:"arguments,omitzero"`
	// Task asks for the call to run as a task (2025-11-25 only).
	Task *TaskMetadata `json:"task,omitzero"`
	// InputResponses answer the InputRequests of a previous
	// [InputRequiredResult] (2026-07-28).
	InputResponses InputResponses `json:"inputResponses,omitzero"`
	// RequestState echoes the RequestState of a previous
	// [InputRequiredResult] (2026-07-28).
	RequestState string `json:"requestState,omitzero"`
}

// CallToolResult is the result of tools/call. A failure of the tool itself
// is reported here with IsError set, so the model can see it; a failure to
// find or run the tool is a protocol error instead.
type CallToolResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" (required in 2026-07-28).
	ResultType string `json:"resultType,omitzero"`
	// Content is the unstructured result; it is always encoded, [] when empty.
	Content ContentList `json:"content"`
	// StructuredContent is the structured result, conforming to the tool's
	// OutputSchema (since 2025-06-18; a JSON object before 2026-07-28, any
	// JSON value from 2026-07-28).
	StructuredContent json.RawMessage `json:"structuredContent,omitzero"`
	// IsError reports that the tool failed.
	IsError bool `json:"isError,omitzero"`
}
