package protocol

// Completion reference types.
const (
	// RefPrompt refers to a prompt by name.
	RefPrompt = "ref/prompt"
	// RefResource refers to a resource template by URI (or URI template).
	RefResource = "ref/resource"
)

// CompleteReference names what completion/complete completes an argument
// of: a prompt (Type RefPrompt, Name) or a resource template (Type
// RefResource, URI). In 2024-11-05 and 2025-03-26 the resource form was
// called ResourceReference; since 2025-06-18 it is ResourceTemplateReference.
type CompleteReference struct {
	// Type is RefPrompt or RefResource.
	Type string `json:"type"`
	// Name is the prompt's name (RefPrompt).
	Name string `json:"name,omitzero"`
	// Title is the prompt's display name (RefPrompt, since 2025-06-18).
	Title string `json:"title,omitzero"`
	// URI is the resource URI or URI template (RefResource).
	URI string `json:"uri,omitzero"`
}

// CompleteArgument is the argument being completed.
type CompleteArgument struct {
	// Name is the argument's name.
	Name string `json:"name"`
	// Value is what has been typed so far.
	Value string `json:"value"`
}

// CompleteContext is extra context for a completion (since 2025-06-18).
type CompleteContext struct {
	// Arguments are the already-resolved arguments of the prompt or template.
	Arguments map[string]string `json:"arguments,omitzero"`
}

// CompleteParams are the params of completion/complete.
type CompleteParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// Ref is the prompt or resource template.
	Ref CompleteReference `json:"ref"`
	// Argument is the argument to complete.
	Argument CompleteArgument `json:"argument"`
	// Context holds already-resolved arguments (since 2025-06-18).
	Context *CompleteContext `json:"context,omitzero"`
}

// Completion is a set of completion values.
type Completion struct {
	// Values are the suggestions, at most 100; always encoded.
	Values []string `json:"values"`
	// Total is the number of suggestions available, which may exceed len(Values).
	Total *int `json:"total,omitzero"`
	// HasMore reports that there are more suggestions than Values.
	HasMore bool `json:"hasMore,omitzero"`
}

// CompleteResult is the result of completion/complete.
type CompleteResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" (required in 2026-07-28).
	ResultType string `json:"resultType,omitzero"`
	// Completion holds the suggestions.
	Completion Completion `json:"completion"`
}
