package protocol

// Root is a directory or file the server may operate on, as listed by
// roots/list (deprecated in 2026-07-28).
type Root struct {
	// URI identifies the root; it must be a file:// URI.
	URI string `json:"uri"`
	// Name is a display name.
	Name string `json:"name,omitzero"`
	// Meta is the object's _meta (since 2025-06-18).
	Meta Meta `json:"_meta,omitzero"`
}

// ListRootsResult is the result of roots/list, answered by the client
// (in 2026-07-28 as an input response; deprecated there).
type ListRootsResult struct {
	// Meta is the result's _meta (not in the 2026-07-28 schema).
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is unused for client results; see [ResultTypeComplete].
	ResultType string `json:"resultType,omitzero"`
	// Roots are the roots; always encoded.
	Roots []Root `json:"roots"`
}
