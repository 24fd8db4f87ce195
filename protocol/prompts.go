package protocol

import (
	"errors"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Prompt is a prompt or prompt template the server offers, as listed by
// prompts/list.
type Prompt struct {
	// Name identifies the prompt in prompts/get.
	Name string `json:"name"`
	// Title is a human-readable display name (since 2025-06-18).
	Title string `json:"title,omitzero"`
	// Description says what the prompt provides.
	Description string `json:"description,omitzero"`
	// Arguments are the template's arguments.
	Arguments []PromptArgument `json:"arguments,omitzero"`
	// Icons can be shown in a user interface (since 2025-11-25).
	Icons []Icon `json:"icons,omitzero"`
	// Meta is the object's _meta (since 2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
}

// PromptArgument is an argument a prompt template accepts.
type PromptArgument struct {
	// Name is the argument's name.
	Name string `json:"name"`
	// Title is a human-readable display name (since 2025-06-18).
	Title string `json:"title,omitzero"`
	// Description says what the argument is.
	Description string `json:"description,omitzero"`
	// Required reports that the argument must be given.
	Required bool `json:"required,omitzero"`
}

// ListPromptsResult is the result of prompts/list.
type ListPromptsResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" (required in 2026-07-28).
	ResultType string `json:"resultType,omitzero"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (required in 2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope says who may cache the result (required in 2026-07-28).
	CacheScope CacheScope `json:"cacheScope,omitzero"`
	// Prompts is one page of prompts; always encoded.
	Prompts []*Prompt `json:"prompts"`
	// NextCursor, when not empty, fetches the next page.
	NextCursor string `json:"nextCursor,omitzero"`
}

// GetPromptParams are the params of prompts/get.
type GetPromptParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// Name is the prompt to get.
	Name string `json:"name"`
	// Arguments fill in the template.
	Arguments map[string]string `json:"arguments,omitzero"`
	// InputResponses answer the InputRequests of a previous
	// [InputRequiredResult] (2026-07-28).
	InputResponses InputResponses `json:"inputResponses,omitzero"`
	// RequestState echoes the RequestState of a previous
	// [InputRequiredResult] (2026-07-28).
	RequestState string `json:"requestState,omitzero"`
}

// GetPromptResult is the result of prompts/get.
type GetPromptResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" (required in 2026-07-28).
	ResultType string `json:"resultType,omitzero"`
	// Description describes the prompt.
	Description string `json:"description,omitzero"`
	// Messages are the prompt's messages; always encoded.
	Messages []PromptMessage `json:"messages"`
}

// PromptMessage is one message of a prompt. Unlike a [SamplingMessage] it
// holds exactly one block, which may be a resource.
type PromptMessage struct {
	// Role is who says the message.
	Role Role `json:"role"`
	// Content is the message's block: text, image, audio (since
	// 2025-03-26), resource link (since 2025-06-18) or embedded resource.
	Content Content `json:"content"`
}

type promptMessageBody PromptMessage

// MarshalJSONTo encodes the message; a nil Content is an error.
func (m PromptMessage) MarshalJSONTo(enc *jsontext.Encoder) error {
	if m.Content == nil {
		return errors.New(`protocol: prompt message without "content"`)
	}
	return jsonv2.MarshalEncode(enc, (*promptMessageBody)(&m))
}

// UnmarshalJSONFrom decodes the message, choosing the Go type of Content
// from its "type".
func (m *PromptMessage) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	var w struct {
		Role    Role       `json:"role"`
		Content oneContent `json:"content"`
	}
	if err := jsonv2.UnmarshalDecode(dec, &w); err != nil {
		return err
	}
	if w.Content.c == nil {
		return errors.New(`protocol: prompt message without "content"`)
	}
	*m = PromptMessage{Role: w.Role, Content: w.Content.c}
	return nil
}
