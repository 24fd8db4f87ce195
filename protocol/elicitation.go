package protocol

import (
	"encoding/json"
)

// Elicitation modes.
const (
	// ElicitModeForm asks for data through a form (the default).
	ElicitModeForm = "form"
	// ElicitModeURL sends the user to a URL, for sensitive interactions (since 2025-11-25).
	ElicitModeURL = "url"
)

// ElicitParams are the params of elicitation/create: the server asks the
// client for input from its user (since 2025-06-18; in 2026-07-28 the
// request travels as an input request). Form mode uses RequestedSchema; URL
// mode uses URL (and ElicitationID in 2025-11-25).
type ElicitParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// Mode is ElicitModeForm or ElicitModeURL; empty means form
	// (since 2025-11-25; absent before).
	Mode string `json:"mode,omitzero"`
	// Message tells the user what is asked and why.
	Message string `json:"message"`
	// RequestedSchema is the form's schema, a restricted JSON Schema: an
	// object with primitive properties only (form mode). Kept as raw JSON.
	RequestedSchema json.RawMessage `json:"requestedSchema,omitzero"`
	// URL is where to send the user (URL mode, since 2025-11-25).
	URL string `json:"url,omitzero"`
	// ElicitationID identifies a URL-mode elicitation, for
	// notifications/elicitation/complete (2025-11-25 only).
	ElicitationID string `json:"elicitationId,omitzero"`
	// Task asks for the request to run as a task (2025-11-25 only).
	Task *TaskMetadata `json:"task,omitzero"`
}

// Elicitation actions.
const (
	// ElicitActionAccept: the user submitted the form or confirmed.
	ElicitActionAccept = "accept"
	// ElicitActionDecline: the user explicitly declined.
	ElicitActionDecline = "decline"
	// ElicitActionCancel: the user dismissed the request without choosing.
	ElicitActionCancel = "cancel"
)

// ElicitResult is the result of elicitation/create, answered by the client
// (in 2026-07-28 as an input response).
type ElicitResult struct {
	// Meta is the result's _meta (not in the 2026-07-28 schema).
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused for client results; see [ResultTypeComplete].
	ResultType string `json:"resultType,omitzero"`
	// Action is what the user did: ElicitActionAccept, ElicitActionDecline or
	// ElicitActionCancel.
	Action string `json:"action"`
	// Content is the submitted form data, only with accept in form mode: a
	// JSON object whose members are strings, numbers, booleans or (since
	// 2025-11-25) arrays of strings. The JSON schemas admit only integer
	// numbers. It is kept as raw JSON so numbers stay exactly as sent.
	Content json.RawMessage `json:"content,omitzero"`
}

// URLElicitationRequiredData is the data of an [ErrURLElicitationRequired]
// error: the URL-mode elicitations to complete before retrying (2025-11-25 only).
type URLElicitationRequiredData struct {
	// Elicitations are the pending elicitations, each with Mode ElicitModeURL.
	Elicitations []ElicitParams `json:"elicitations"`
}
