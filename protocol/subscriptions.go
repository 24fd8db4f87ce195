package protocol

// SubscriptionFilter selects the notifications sent on a
// subscriptions/listen stream (2026-07-28). Each kind is opt-in.
type SubscriptionFilter struct {
	// ToolsListChanged selects notifications/tools/list_changed.
	ToolsListChanged bool `json:"toolsListChanged,omitzero"`
	// PromptsListChanged selects notifications/prompts/list_changed.
	PromptsListChanged bool `json:"promptsListChanged,omitzero"`
	// ResourcesListChanged selects notifications/resources/list_changed.
	ResourcesListChanged bool `json:"resourcesListChanged,omitzero"`
	// ResourceSubscriptions selects notifications/resources/updated for
	// these resource URIs.
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitzero"`
	// TaskIDs selects notifications/tasks for these tasks (tasks extension).
	TaskIDs []string `json:"taskIds,omitzero"`
}

// SubscriptionsListenParams are the params of subscriptions/listen, which
// opens a long-lived stream of notifications (2026-07-28).
type SubscriptionsListenParams struct {
	// Meta is the request's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// Notifications selects the notifications wanted.
	Notifications SubscriptionFilter `json:"notifications"`
}

// SubscriptionsListenResult is the result of subscriptions/listen, sent
// only when the server ends the subscription gracefully (2026-07-28).
type SubscriptionsListenResult struct {
	// Meta is the result's _meta; it must carry [MetaSubscriptionID].
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" (required in 2026-07-28).
	ResultType string `json:"resultType,omitzero"`
}
