package protocol

import (
	"encoding/json"
)

// SamplingMessage is a message sent to or received from an LLM
// (deprecated with sampling in 2026-07-28).
type SamplingMessage struct {
	// Role is who says the message.
	Role Role `json:"role"`
	// Content is text, image, audio (since 2025-03-26), tool use or tool
	// result (since 2025-11-25). Several blocks are allowed since 2025-11-25.
	Content SamplingContent `json:"content"`
	// Meta is the object's _meta (since 2025-11-25).
	Meta Meta `json:"_meta,omitzero"`
}

// ModelPreferences are the server's advisory preferences for the model the
// client picks for sampling.
type ModelPreferences struct {
	// Hints are evaluated in order; the first match wins.
	Hints []ModelHint `json:"hints,omitzero"`
	// CostPriority is how much cost matters, from 0 to 1.
	CostPriority *float64 `json:"costPriority,omitzero"`
	// SpeedPriority is how much latency matters, from 0 to 1.
	SpeedPriority *float64 `json:"speedPriority,omitzero"`
	// IntelligencePriority is how much capability matters, from 0 to 1.
	IntelligencePriority *float64 `json:"intelligencePriority,omitzero"`
}

// ModelHint suggests a model.
type ModelHint struct {
	// Name is a substring of a model name, such as "sonnet".
	Name string `json:"name,omitzero"`
}

// Values of [CreateMessageParams].IncludeContext.
const (
	IncludeContextNone = "none"
	// IncludeContextThisServer is deprecated (since 2025-11-25).
	IncludeContextThisServer = "thisServer"
	// IncludeContextAllServers is deprecated (since 2025-11-25).
	IncludeContextAllServers = "allServers"
)

// ToolChoice controls whether the model uses tools (since 2025-11-25).
type ToolChoice struct {
	// Mode is ToolChoiceAuto (the default), ToolChoiceRequired or ToolChoiceNone.
	Mode string `json:"mode,omitzero"`
}

// Tool choice modes.
const (
	ToolChoiceAuto     = "auto"
	ToolChoiceRequired = "required"
	ToolChoiceNone     = "none"
)

// CreateMessageParams are the params of sampling/createMessage: the server
// asks the client to sample its LLM (deprecated in 2026-07-28, where the
// request travels as an input request).
type CreateMessageParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// Messages is the conversation; always encoded.
	Messages []SamplingMessage `json:"messages"`
	// ModelPreferences guide the choice of model.
	ModelPreferences *ModelPreferences `json:"modelPreferences,omitzero"`
	// SystemPrompt is a system prompt the client may use, change or drop.
	SystemPrompt string `json:"systemPrompt,omitzero"`
	// IncludeContext asks for context from MCP servers: IncludeContextNone
	// (the default), or the deprecated IncludeContextThisServer or
	// IncludeContextAllServers.
	IncludeContext string `json:"includeContext,omitzero"`
	// Temperature is the sampling temperature.
	Temperature *float64 `json:"temperature,omitzero"`
	// MaxTokens is the most tokens to sample.
	MaxTokens int64 `json:"maxTokens"`
	// StopSequences end sampling when produced.
	StopSequences []string `json:"stopSequences,omitzero"`
	// Metadata is a provider-specific JSON object passed to the LLM provider.
	Metadata json.RawMessage `json:"metadata,omitzero"`
	// Tools the model may use (since 2025-11-25; needs the sampling.tools capability).
	Tools []*Tool `json:"tools,omitzero"`
	// ToolChoice controls tool use (since 2025-11-25; needs the sampling.tools capability).
	ToolChoice *ToolChoice `json:"toolChoice,omitzero"`
	// Task asks for the request to run as a task (2025-11-25 only).
	Task *TaskMetadata `json:"task,omitzero"`
}

// Standard stop reasons of [CreateMessageResult]; others are allowed.
const (
	StopReasonEndTurn      = "endTurn"
	StopReasonStopSequence = "stopSequence"
	StopReasonMaxTokens    = "maxTokens"
	StopReasonToolUse      = "toolUse" // since 2025-11-25
)

// CreateMessageResult is the result of sampling/createMessage, answered by
// the client (in 2026-07-28 as an input response).
type CreateMessageResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused for client results; see [ResultTypeComplete].
	ResultType string `json:"resultType,omitzero"`
	// Role is who says the sampled message (normally RoleAssistant).
	Role Role `json:"role"`
	// Content is the sampled content: one block, or several since 2025-11-25.
	Content SamplingContent `json:"content"`
	// Model names the model used.
	Model string `json:"model"`
	// StopReason says why sampling stopped, if known (see the StopReason… constants).
	StopReason string `json:"stopReason,omitzero"`
}
