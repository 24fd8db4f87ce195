package protocol

// Resource is a resource the server can read, as listed by resources/list.
type Resource struct {
	// URI identifies the resource.
	URI string `json:"uri"`
	// Name is the programmatic name.
	Name string `json:"name"`
	// Title is a human-readable display name (since 2025-06-18).
	Title string `json:"title,omitzero"`
	// Description says what the resource represents.
	Description string `json:"description,omitzero"`
	// MIMEType is the resource's MIME type, if known.
	MIMEType string `json:"mimeType,omitzero"`
	// Annotations are optional hints for the client.
	Annotations *Annotations `json:"annotations,omitzero"`
	// Size is the raw size in bytes, before any encoding, if known.
	Size *int64 `json:"size,omitzero"`
	// Icons can be shown in a user interface (since 2025-11-25).
	Icons []Icon `json:"icons,omitzero"`
	// Meta is the object's _meta (since 2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
}

// ResourceTemplate describes a family of resources by an RFC 6570 URI
// template, as listed by resources/templates/list.
type ResourceTemplate struct {
	// URITemplate builds the URIs of the resources.
	URITemplate string `json:"uriTemplate"`
	// Name is the programmatic name.
	Name string `json:"name"`
	// Title is a human-readable display name (since 2025-06-18).
	Title string `json:"title,omitzero"`
	// Description says what the template is for.
	Description string `json:"description,omitzero"`
	// MIMEType is the MIME type of every matching resource, if they share one.
	MIMEType string `json:"mimeType,omitzero"`
	// Annotations are optional hints for the client.
	Annotations *Annotations `json:"annotations,omitzero"`
	// Icons can be shown in a user interface (since 2025-11-25).
	Icons []Icon `json:"icons,omitzero"`
	// Meta is the object's _meta (since 2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
}

// ListResourcesResult is the result of resources/list.
type ListResourcesResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" (required in 2026-07-28).
	ResultType string `json:"resultType,omitzero"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (required in 2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope says who may cache the result (required in 2026-07-28).
	CacheScope CacheScope `json:"cacheScope,omitzero"`
	// Resources is one page of resources; always encoded.
	Resources []*Resource `json:"resources"`
	// NextCursor, when not empty, fetches the next page.
	NextCursor string `json:"nextCursor,omitzero"`
}

// ListResourceTemplatesResult is the result of resources/templates/list.
type ListResourceTemplatesResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" (required in 2026-07-28).
	ResultType string `json:"resultType,omitzero"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (required in 2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope says who may cache the result (required in 2026-07-28).
	CacheScope CacheScope `json:"cacheScope,omitzero"`
	// ResourceTemplates is one page of templates; always encoded.
	ResourceTemplates []*ResourceTemplate `json:"resourceTemplates"`
	// NextCursor, when not empty, fetches the next page.
	NextCursor string `json:"nextCursor,omitzero"`
}

// ReadResourceParams are the params of resources/read.
type ReadResourceParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// URI is the resource to read.
	URI string `json:"uri"`
	// InputResponses answer the InputRequests of a previous
	// [InputRequiredResult] (2026-07-28).
	InputResponses InputResponses `json:"inputResponses,omitzero"`
	// RequestState echoes the RequestState of a previous
	// [InputRequiredResult] (2026-07-28).
	RequestState string `json:"requestState,omitzero"`
}

// ReadResourceResult is the result of resources/read.
type ReadResourceResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" (required in 2026-07-28).
	ResultType string `json:"resultType,omitzero"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (required in 2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope says who may cache the result (required in 2026-07-28).
	CacheScope CacheScope `json:"cacheScope,omitzero"`
	// Contents holds the resource and any sub-resources; always encoded.
	Contents []ResourceContents `json:"contents"`
}

// SubscribeParams are the params of resources/subscribe
// (2024-11-05 to 2025-11-25; replaced by subscriptions/listen).
type SubscribeParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// URI is the resource to watch.
	URI string `json:"uri"`
}

// UnsubscribeParams are the params of resources/unsubscribe
// (2024-11-05 to 2025-11-25; replaced by subscriptions/listen).
type UnsubscribeParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// URI is the resource to stop watching.
	URI string `json:"uri"`
}
