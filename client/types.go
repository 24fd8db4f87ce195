package client

import "github.com/fastmcp-go/fastmcp/protocol"

// The names below are aliases of the protocol package's wire types, so a
// client program needs no protocol import and code that spells them
// protocol.X keeps compiling. Where package fastmcp names the same idea
// (ToolResult, Content, Root, SamplingRequest...), the spelling is the same.

// Tools and their results.
type (
	// Tool is one tool a server offers: its name, description and input
	// and output schemas (from ListTools and Tools).
	Tool = protocol.Tool
	// ListToolsResult is one page of tools/list.
	ListToolsResult = protocol.ListToolsResult
	// ToolResult is a tool call's result. Read it with res.Text() and
	// res.Structured(&v); IsError says the tool failed.
	ToolResult = protocol.CallToolResult
	// Content is one block of a tool result, prompt message or sampling
	// message: *TextContent, *ImageContent, *AudioContent, *ResourceLink or
	// *EmbeddedResource.
	Content = protocol.Content
	// TextContent is a text block.
	TextContent = protocol.TextContent
	// ImageContent is an image block; Data is the decoded bytes.
	ImageContent = protocol.ImageContent
	// AudioContent is an audio block; Data is the decoded bytes.
	AudioContent = protocol.AudioContent
	// ResourceLink is a block that points at a resource by URI.
	ResourceLink = protocol.ResourceLink
	// EmbeddedResource is a block that carries a resource's contents.
	EmbeddedResource = protocol.EmbeddedResource
	// ResourceContents is the contents of one resource: text or blob.
	ResourceContents = protocol.ResourceContents
	// Progress is one progress report of a call (see WithProgress).
	Progress = protocol.ProgressParams
	// Meta is a request's or result's _meta object (see WithMeta).
	Meta = protocol.Meta
)

// Prompts, resources and completion.
type (
	// Prompt is one prompt a server offers (from ListPrompts and Prompts).
	Prompt = protocol.Prompt
	// ListPromptsResult is one page of prompts/list.
	ListPromptsResult = protocol.ListPromptsResult
	// PromptResult is a prompt's messages (from GetPrompt).
	PromptResult = protocol.GetPromptResult
	// PromptMessage is one message of a PromptResult.
	PromptMessage = protocol.PromptMessage
	// Resource is one resource a server lists.
	Resource = protocol.Resource
	// ListResourcesResult is one page of resources/list.
	ListResourcesResult = protocol.ListResourcesResult
	// ResourceTemplate is a family of resources named by a URI template.
	ResourceTemplate = protocol.ResourceTemplate
	// ListResourceTemplatesResult is one page of resources/templates/list.
	ListResourceTemplatesResult = protocol.ListResourceTemplatesResult
	// ReadResourceResult is a resource's contents (from ReadResource).
	ReadResourceResult = protocol.ReadResourceResult
	// CompleteReference names the prompt or resource template whose
	// argument Complete completes; build one with PromptRef or ResourceRef.
	CompleteReference = protocol.CompleteReference
	// CompleteResult holds Complete's suggestions in Completion.Values.
	CompleteResult = protocol.CompleteResult
)

// PromptRef refers Complete to an argument of the named prompt.
func PromptRef(name string) CompleteReference {
	return CompleteReference{Type: protocol.RefPrompt, Name: name}
}

// ResourceRef refers Complete to a variable of the resource template with
// this URI template.
func ResourceRef(uriTemplate string) CompleteReference {
	return CompleteReference{Type: protocol.RefResource, URI: uriTemplate}
}

// The server's identity and the revision spoken.
type (
	// Implementation names a server or client and its version (see
	// ServerInfo).
	Implementation = protocol.Implementation
	// ServerCapabilities is what the server declared it offers.
	ServerCapabilities = protocol.ServerCapabilities
	// Era is the shape of the protocol a connection speaks: Legacy or
	// Modern (see Client.Era).
	Era = protocol.Era
)

// The eras a client speaks.
const (
	// Legacy is the initialize handshake (revisions up to 2025-11-25).
	Legacy = protocol.Legacy
	// Modern is 2026-07-28: no handshake, the client's details on every
	// request.
	Modern = protocol.Modern
)

// LogLevel is the severity of a server's log message (see WithLogLevel,
// SetLogLevel and WithLogHandler).
type LogLevel = protocol.LoggingLevel

// LogMessage is one log message a server sends (see WithLogHandler).
type LogMessage = protocol.LoggingMessageParams

// The log levels, least severe first.
const (
	LevelDebug     = protocol.LevelDebug
	LevelInfo      = protocol.LevelInfo
	LevelNotice    = protocol.LevelNotice
	LevelWarning   = protocol.LevelWarning
	LevelError     = protocol.LevelError
	LevelCritical  = protocol.LevelCritical
	LevelAlert     = protocol.LevelAlert
	LevelEmergency = protocol.LevelEmergency
)

// Answering the server: sampling, elicitation, roots.
type (
	// SamplingRequest is a server's request to sample the client's model.
	SamplingRequest = protocol.CreateMessageParams
	// SamplingResult is the client's answer to a SamplingRequest.
	SamplingResult = protocol.CreateMessageResult
	// SamplingMessage is one message of a SamplingRequest.
	SamplingMessage = protocol.SamplingMessage
	// SamplingContent is the content of a SamplingResult or SamplingMessage:
	// one block, or several.
	SamplingContent = protocol.SamplingContent
	// Role says who speaks a message: RoleUser or RoleAssistant.
	Role = protocol.Role
	// Root is a root the client exposes (a directory or other base URI).
	Root = protocol.Root
)

// The roles of a message.
const (
	RoleUser      = protocol.RoleUser
	RoleAssistant = protocol.RoleAssistant
)

// The actions of an ElicitResult (see also AcceptElicitation,
// DeclineElicitation and CancelElicitation).
const (
	// ElicitAccept: the user submitted the form or confirmed.
	ElicitAccept = protocol.ElicitActionAccept
	// ElicitDecline: the user explicitly declined.
	ElicitDecline = protocol.ElicitActionDecline
	// ElicitCancel: the user dismissed the request without choosing.
	ElicitCancel = protocol.ElicitActionCancel
)

// Tasks (tasks extension, protocol 2026-07-28).
type (
	// StartedTask is the task a server answered a tool call with: its id,
	// status and suggested polling interval (see StartTool and
	// WithTaskStarted).
	StartedTask = protocol.TaskCreatedResult
	// TaskState is a task's state from GetTask: its status and, by status,
	// its result (typed by its ToolResult method), error or pending input
	// requests.
	TaskState = protocol.DetailedTask
	// TaskStatus is the status of a task.
	TaskStatus = protocol.TaskStatus
	// InputResponses answers a task's input requests, by key (see
	// UpdateTask).
	InputResponses = protocol.InputResponses
)

// The statuses of a task.
const (
	TaskWorking       = protocol.TaskWorking
	TaskInputRequired = protocol.TaskInputRequired
	TaskCompleted     = protocol.TaskCompleted
	TaskFailed        = protocol.TaskFailed
	TaskCancelled     = protocol.TaskCancelled
)

// Error is a JSON-RPC error a server answered with. errors.Is matches two
// *Error values by code, so errors.Is(err, client.ErrMethodNotFound) holds
// for any error carrying code -32601.
type Error = protocol.Error

// The JSON-RPC errors a client most often checks for with errors.Is.
var (
	// ErrMethodNotFound: the server does not offer the method.
	ErrMethodNotFound = protocol.ErrMethodNotFound
	// ErrInvalidParams: the server refused the request's params (an unknown
	// tool or prompt, arguments that do not fit).
	ErrInvalidParams = protocol.ErrInvalidParams
	// ErrInvalidRequest: the server refused the request itself.
	ErrInvalidRequest = protocol.ErrInvalidRequest
	// ErrInternal: the server failed while serving the request.
	ErrInternal = protocol.ErrInternal
	// ErrToolFailed is what ToolResult.Structured returns when the result
	// has IsError set: the tool failed.
	ErrToolFailed = protocol.ErrToolFailed
	// ErrNoTaskResult is what TaskState.ToolResult returns when the task
	// has no result (yet, or it failed or was cancelled).
	ErrNoTaskResult = protocol.ErrNoTaskResult
)
