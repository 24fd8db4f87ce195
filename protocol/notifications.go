package protocol

// NotificationParams are the params of a notification that carries nothing
// but _meta: notifications/initialized and the list_changed notifications.
type NotificationParams struct {
	// Meta is the notification's _meta; on a subscriptions/listen stream it
	// carries [MetaSubscriptionID] (2026-07-28).
	Meta Meta `json:"_meta,omitzero"`
}

// ProgressParams are the params of notifications/progress, an update on a
// request that asked for progress with a progress token.
type ProgressParams struct {
	// Meta is the notification's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ProgressToken is the token from the request's _meta, echoed exactly.
	ProgressToken ProgressToken `json:"progressToken"`
	// Progress is the progress so far; it increases with every notification.
	Progress float64 `json:"progress"`
	// Total is the total to reach, if known; zero omits it.
	Total float64 `json:"total,omitzero"`
	// Message describes the current progress (since 2025-03-26).
	Message string `json:"message,omitzero"`
}

// CancelledParams are the params of notifications/cancelled: the sender no
// longer wants the result of a request it sent.
type CancelledParams struct {
	// Meta is the notification's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// RequestID is the id of the request to cancel (optional only in
	// 2025-11-25, where tasks are cancelled with tasks/cancel instead).
	RequestID ID `json:"requestId,omitzero"`
	// Reason says why; it may be logged or shown.
	Reason string `json:"reason,omitzero"`
}

// ResourceUpdatedParams are the params of notifications/resources/updated:
// a subscribed resource changed.
type ResourceUpdatedParams struct {
	// Meta is the notification's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// URI is the resource that changed; it may be a sub-resource of the one
	// subscribed to.
	URI string `json:"uri"`
}

// SubscriptionsAcknowledgedParams are the params of
// notifications/subscriptions/acknowledged, the first message of a
// subscriptions/listen stream (2026-07-28).
type SubscriptionsAcknowledgedParams struct {
	// Meta is the notification's _meta; it carries [MetaSubscriptionID].
	Meta Meta `json:"_meta,omitzero"`
	// Notifications is the subset of the requested notifications the server
	// will send.
	Notifications SubscriptionFilter `json:"notifications"`
}

// ElicitationCompleteParams are the params of
// notifications/elicitation/complete: a URL-mode elicitation finished
// (2025-11-25 only).
type ElicitationCompleteParams struct {
	// Meta is the notification's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ElicitationID is the ElicitationID of the finished elicitation.
	ElicitationID string `json:"elicitationId"`
}
