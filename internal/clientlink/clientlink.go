// Package clientlink is the narrow bridge between package client and
// package proxy: the client internals a proxy drives, the context keys
// both sides read, and the sentinel error they share with package fastmcp
// (which imports this package, not package client): a server that builds
// no proxy links none of the client.
package clientlink

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
)

// ErrInputRequired is fastmcp.ErrInputRequired: a handler (or a proxy
// forwarding a backend's request) waits for its caller's input.
var ErrInputRequired = errors.New("fastmcp: waiting for the client's input (the request will be retried)")

// Context keys the proxy sets on the calls it forwards and the client reads.
type (
	// CallMetaKey carries _meta entries (a protocol.Meta) that replace the
	// client's own in one modern request: a proxy's caller's capabilities
	// and log level.
	CallMetaKey struct{}
	// RawTaskKey marks a modern request whose task result is returned as
	// it came (a proxy passes it on).
	RawTaskKey struct{}
	// InputKey carries the key (a string) of the 2026-07-28 input request
	// a client is answering.
	InputKey struct{}
)

// Backend is a proxy built on a client: the client hands it what its
// server sends. Its methods run on the client's reading goroutine (or
// that of the call being answered) and must not block for long.
type Backend interface {
	// ForwardNotification passes on a log message or an
	// elicitation-complete notification.
	ForwardNotification(method string, params []byte)
	// ListChanged says one of the server's lists changed.
	ListChanged(method string)
	// ServeRequest answers a server-to-client request, when ok.
	ServeRequest(ctx context.Context, method string, params []byte) (res any, err error, ok bool)
}

// Client is what a proxy uses of a client beyond its exported methods.
type Client struct {
	// Attach makes b the client's backend; false when it has one.
	Attach func(b Backend) bool
	// Forwarding reports WithRequestForwarding.
	Forwarding bool
	// Era is the shape of the protocol the client speaks.
	Era protocol.Era
	// Context is the client session's context: done when it closed.
	Context func() context.Context
	// Call sends a request the way the protocol in use wants it.
	Call func(ctx context.Context, method string, params, result any, opts ...session.CallOption) error
	// CallTool sends tools/call with params, naming tool name with rawArgs.
	CallTool func(ctx context.Context, name string, params jsontext.Value, rawArgs json.RawMessage, result any, opts []session.CallOption) error
	// InvalidateTools marks the cached tool definitions stale.
	InvalidateTools func()
	// WithoutProtocolMembers drops the members of a result that the
	// protocol, not the method, defines.
	WithoutProtocolMembers func(json.RawMessage) json.RawMessage
}

var open atomic.Pointer[func(c any) *Client]

// Register sets how Open reaches a client's internals. Package client
// calls it when a client connects, so that a server without a proxy
// links none of it.
func Register(fn func(c any) *Client) {
	if open.Load() == nil {
		open.Store(&fn)
	}
}

// Open returns the internals of c, a *client.Client that has connected.
func Open(c any) *Client {
	fn := open.Load()
	if fn == nil {
		panic("proxy: New: the client has not connected")
	}
	return (*fn)(c)
}
