package protocol

import (
	"encoding/json"
)

// InputRequest is a request the server needs the client to fulfil before
// it retries the original request (2026-07-28): elicitation/create with
// [ElicitParams], sampling/createMessage with [CreateMessageParams], or
// roots/list with [RequestParams]. Params stay raw until the method is known.
type InputRequest struct {
	// Method is MethodElicitationCreate, MethodSamplingCreateMessage or MethodRootsList.
	Method string `json:"method"`
	// Params are the request's params; nil omits them.
	Params json.RawMessage `json:"params,omitzero"`
}

// InputRequests maps server-chosen keys to the requests the client must
// fulfil (2026-07-28).
type InputRequests map[string]InputRequest

// InputResponses maps the keys of an [InputRequests] to the client's
// results: an [ElicitResult], a [CreateMessageResult] or a
// [ListRootsResult], kept raw because the type follows from the request
// with the same key (2026-07-28).
type InputResponses map[string]json.RawMessage

// InputRequiredResult is the interim result of tools/call, prompts/get or
// resources/read when the server needs more input (2026-07-28). Its
// ResultType is ResultTypeInputRequired, and at least one of InputRequests
// and RequestState is set. The client fulfils the requests and retries the
// original request, with a new id, carrying InputResponses and RequestState.
type InputRequiredResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is ResultTypeInputRequired.
	ResultType string `json:"resultType,omitzero"`
	// InputRequests are the requests to fulfil before retrying.
	InputRequests InputRequests `json:"inputRequests,omitzero"`
	// RequestState is opaque server state the client must echo unchanged on
	// the retry. The server must treat it as attacker-controlled.
	RequestState string `json:"requestState,omitzero"`
}

// InputResponseParams are the members that any retried request may carry
// under the multi round-trip pattern (2026-07-28). Decoding a request's
// params into it extracts them whatever the method.
type InputResponseParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// InputResponses answer the InputRequests of the previous
	// [InputRequiredResult].
	InputResponses InputResponses `json:"inputResponses,omitzero"`
	// RequestState echoes the RequestState of the previous [InputRequiredResult].
	RequestState string `json:"requestState,omitzero"`
}
