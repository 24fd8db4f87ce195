package protocol

import "errors"

// Era is the shape of the protocol a revision belongs to. Everything that
// differs between the two shapes, on the server, the client and a proxy
// alike, is asked of the Era rather than of a revision string or a flag:
//
//	if req.Era.Stateless() { ... }
//
// What differs per revision inside an era (HasElicitation, PrimesStreams
// and the other predicates in version.go) stays a question about the
// revision. The zero Era is [Legacy].
type Era uint8

const (
	// Legacy is the era of revisions 2024-11-05 to 2025-11-25: a client
	// opens a session with the initialize handshake, and the session keeps
	// the negotiated revision, the client's capabilities and its log level.
	Legacy Era = iota
	// Modern is the era of revision 2026-07-28 and later: there is no
	// handshake, and every request carries its revision and the client's
	// capabilities in _meta.
	Modern
)

// EraOf returns the era of revision v. A revision this package does not
// know, or "", is [Legacy] when it is older than 2026-07-28 (revisions
// compare as dates).
func EraOf(v string) Era {
	if v >= Version20260728 {
		return Modern
	}
	return Legacy
}

// Stateless reports whether requests of era e describe themselves (their
// revision, the client's capabilities, client info and log level in
// _meta), so that no session is needed to serve them. In the Legacy era
// the session keeps what initialize and logging/setLevel said.
func (e Era) Stateless() bool { return e == Modern }

// Dropped reports whether era e removed method, a request or notification
// of the era before it, without a successor, so that a server answers such
// a request with "method not found" and neither side sends such a
// notification. The Modern era dropped initialize, ping, logging/setLevel,
// resources/subscribe, resources/unsubscribe, notifications/initialized,
// notifications/roots/list_changed and notifications/elicitation/complete.
// The methods that moved elsewhere are not dropped: sampling, elicitation
// and roots/list travel as input requests (see [Era.ServerRequests]), and
// the tasks methods belong to the tasks extension. The Legacy era dropped
// nothing.
func (e Era) Dropped(method string) bool {
	if e != Modern {
		return false
	}
	switch method {
	case MethodInitialize, MethodPing, MethodLoggingSetLevel, MethodResourcesSubscribe, MethodResourcesUnsubscribe,
		NotificationInitialized, NotificationRootsListChanged, NotificationElicitationComplete:
		return true
	}
	return false
}

// ServerRequests reports whether a server of era e asks the client for
// input (sampling/createMessage, elicitation/create, roots/list) by sending
// it JSON-RPC requests on the session. In the Modern era it does not: it
// answers the call with an [InputRequiredResult] and the client retries the
// call with the answers (multi round-trip), so a client has nothing to
// serve and a server nothing to wait for outside the call.
func (e Era) ServerRequests() bool { return e != Modern }

// ResourceNotFound returns the error for a request naming a resource uri
// the server does not have, as era e spells it: -32002 in the Legacy era,
// -32602 (invalid params) in the Modern era (SEP-2164), with the URI as
// data in both. A proxy answers in its caller's era whatever the backend's.
func (e Era) ResourceNotFound(uri string) *Error {
	code := int64(CodeResourceNotFound)
	if e == Modern {
		code = CodeInvalidParams
	}
	return NewError(code, "Resource not found").WithData(struct {
		URI string `json:"uri"`
	}{uri})
}

// IsResourceNotFound reports whether err is a peer's answer that the
// resource uri does not exist, in either era's spelling (see
// ResourceNotFound): code -32002, or -32602 with {"uri": uri} as data.
// An invalid-params error about anything else is not.
func IsResourceNotFound(err error, uri string) bool {
	perr, ok := errors.AsType[*Error](err)
	if !ok {
		return false
	}
	switch perr.Code {
	case CodeResourceNotFound:
		return true
	case CodeInvalidParams:
		var data struct {
			URI string `json:"uri"`
		}
		return len(perr.Data) > 0 && Unmarshal(perr.Data, &data) == nil && data.URI == uri
	}
	return false
}

// CacheHints reports whether the results of era e carry cache hints: the
// ttlMs and cacheScope members of list results, resources/read and the
// extensions' reads (2026-07-28). Results of the Legacy era have none.
func (e Era) CacheHints() bool { return e == Modern }

// RefusesMissingCapability reports whether a request of era e that needs a
// client capability the client did not declare (sampling, elicitation,
// roots) is refused with [CodeMissingRequiredClientCapability], naming the
// capabilities in its data. In the Legacy era there is no such error: the
// call fails as it would for any other reason (a tool's isError result, a
// prompt's or resource's error).
func (e Era) RefusesMissingCapability() bool { return e == Modern }

// RoutingHeaders reports whether the HTTP requests of era e name their
// method and target in headers (Mcp-Method, Mcp-Name, and Mcp-Param-* for
// tool parameters marked x-mcp-header), which intermediaries route on and a
// server checks against the body. Legacy requests carry no such headers, so
// what they ask is only in their body.
func (e Era) RoutingHeaders() bool { return e == Modern }

// TasksExtension reports whether requests of era e may use the tasks
// extension (ExtensionTasks: task-augmented tools/call, tasks/get,
// tasks/update, tasks/cancel). The extension is declared in per-request
// capabilities and server/discover, so it belongs to the Modern era; a
// Legacy session has no tasks extension (nor does this package serve the
// core tasks methods of 2025-11-25 it replaced).
func (e Era) TasksExtension() bool { return e == Modern }

// String returns "legacy" or "modern".
func (e Era) String() string {
	if e == Modern {
		return "modern"
	}
	return "legacy"
}
