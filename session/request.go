package session

import (
	"context"
	"encoding/json"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// Request is an incoming request or notification as a Handler sees it. It
// is valid only while the handler runs; handlers must not modify it.
type Request struct {
	// Session is the session the request arrived on.
	Session *Session
	// ID is the request id; the zero ID for a notification.
	ID protocol.ID
	// Method is the JSON-RPC method.
	Method string
	// Params is the raw params object (nil when absent).
	Params json.RawMessage
	// Meta is the parsed params._meta.
	Meta protocol.RequestMeta
	// Version is the protocol revision the request is served under: the
	// revision named in _meta for a modern request, else the session's
	// negotiated revision ("" before initialize).
	Version string
	// HTTP is what the HTTP transports know about the HTTP request that
	// carried the message: its headers, remote address, host, session id
	// and the caller's principal. It is nil for requests that did not come
	// over HTTP (stdio, in-memory and command transports).
	HTTP *transport.HTTPRequestInfo
	// Era is the shape of the protocol the request is served under:
	// protocol.Modern for a self-describing 2026-07-28 (or later) request,
	// served without the initialize handshake; protocol.Legacy for a request
	// on an initialized session (and before initialize). Ask it what differs
	// between the two (Era.Stateless, Era.Dropped, ...).
	Era protocol.Era
}

// IsNotification reports whether the request expects no response.
func (r *Request) IsNotification() bool { return !r.ID.IsValid() }

// ClientCapabilities returns the capabilities the client declared for this
// request: those in _meta for a modern request, else those from initialize.
// It never returns nil.
func (r *Request) ClientCapabilities() *protocol.ClientCapabilities {
	if r.Era.Stateless() {
		if r.Meta.ClientCapabilities != nil {
			return r.Meta.ClientCapabilities
		}
		return &protocol.ClientCapabilities{}
	}
	return r.Session.ClientCapabilities()
}

// ClientInfo returns the client's self-description: from _meta for a modern
// request, else from initialize. It never returns nil.
func (r *Request) ClientInfo() *protocol.Implementation {
	if r.Era.Stateless() {
		if r.Meta.ClientInfo != nil {
			return r.Meta.ClientInfo
		}
		return &protocol.Implementation{}
	}
	return r.Session.ClientInfo()
}

// LogLevel returns the least severe level of log notifications the client
// wants for this request, and false when it wants none. A modern request
// opts in with _meta's logLevel; on a legacy session the level set with
// logging/setLevel applies, and before any is set every level is sent.
func (r *Request) LogLevel() (protocol.LoggingLevel, bool) {
	if r.Era.Stateless() {
		return r.Meta.LogLevel, r.Meta.LogLevel != ""
	}
	if l := r.Session.LogLevel(); l != "" {
		return l, true
	}
	return protocol.LevelDebug, true
}

// ProgressToken returns the request's progress token, if the client asked
// for progress notifications.
func (r *Request) ProgressToken() (protocol.ProgressToken, bool) {
	return r.Meta.ProgressToken, r.Meta.ProgressToken.IsValid()
}

// A Handler serves incoming requests and notifications.
//
// For a request, the returned result is encoded as the response's result
// (nil encodes as {}, a json.RawMessage is sent as is); a returned error
// becomes an error response (see protocol.ToWire: an error wrapping a
// *protocol.Error keeps its code, anything else is an internal error). For a
// notification the return values are ignored.
//
// Requests are served concurrently, each on its own goroutine, with a ctx
// that is cancelled when the peer cancels the request (cause
// ErrCancelledByPeer) or the session ends (cause ErrClosed); after a
// cancellation the response is not sent. Notifications are served one at a
// time, in order, on the session's reading goroutine: a notification handler
// must not block (and must not wait for a Call). A panic in a handler is
// recovered, logged with its stack, and answered with an internal error.
type Handler interface {
	Handle(ctx context.Context, req *Request) (any, error)
}

// HandlerFunc adapts a function to a Handler.
type HandlerFunc func(ctx context.Context, req *Request) (any, error)

// Handle calls f(ctx, req).
func (f HandlerFunc) Handle(ctx context.Context, req *Request) (any, error) { return f(ctx, req) }

var _ Handler = HandlerFunc(nil)

// httpInfo returns the HTTP request information the transport attached to
// m (see protocol.Request.Extra), or nil.
func httpInfo(m *protocol.Request) *transport.HTTPRequestInfo {
	info, _ := m.Extra.(*transport.HTTPRequestInfo)
	return info
}
