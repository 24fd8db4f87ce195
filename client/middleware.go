package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
)

// An OutgoingRequest is a request the client is about to send, as client
// middleware (WithMiddleware) sees it.
type OutgoingRequest struct {
	// Method is the JSON-RPC method.
	Method string
	// Params is the encoded params object, nil for none. On 2026-07-28 it
	// already holds the client's _meta. Middleware may replace it, for
	// example with protocol.SetMeta to add a _meta entry.
	Params json.RawMessage
	// Version is the protocol revision the request is sent under.
	Version string
	// Session is the client's session; Session.Conn() is its transport.
	Session *session.Session
	// ID is the JSON-RPC id the request was sent with, set by the session
	// as it sends the request: valid once the next SendFunc has returned
	// (unless the request could not be sent at all).
	ID protocol.ID

	opts []session.CallOption // the call's options (progress), applied by the innermost sender
}

// A SendFunc sends a request and returns its raw result (a JSON object), or
// the error the request ended with: a *Error when the server
// answered with one, a transport or context error otherwise.
type SendFunc func(ctx context.Context, req *OutgoingRequest) (json.RawMessage, error)

// Middleware wraps the sending of the client's requests: it sees each
// request's method and params before they leave and the raw result or error
// that came back, as lowlevel.Middleware does for a server's incoming
// requests. Tracing, metrics and request logging are written as client
// middleware.
type Middleware func(next SendFunc) SendFunc

// WithMiddleware adds middleware around every request the client
// sends (initialize or server/discover, tools/call, the input_required
// retries, tasks/get polls, ...). The first
// middleware given runs outermost. Notifications and JSON-RPC batches
// (Client.Batch) do not pass through it.
func WithMiddleware(mw ...Middleware) Option {
	return option(func(c *config) { c.middleware = append(c.middleware, mw...) })
}

// buildSender composes the client's middleware around the session's Call;
// nil when there is none, so that a client without middleware pays nothing.
func (c *Client) buildSender() SendFunc {
	if len(c.cfg.middleware) == 0 {
		return nil
	}
	send := SendFunc(func(ctx context.Context, req *OutgoingRequest) (json.RawMessage, error) {
		var res json.RawMessage
		opts := append(req.opts[:len(req.opts):len(req.opts)], session.WithIDReport(func(id protocol.ID) { req.ID = id }))
		if err := c.sess.Call(ctx, req.Method, req.Params, &res, opts...); err != nil {
			return nil, err
		}
		return res, nil
	})
	for i := len(c.cfg.middleware) - 1; i >= 0; i-- {
		send = c.cfg.middleware[i](send)
	}
	return send
}

// send sends one request through the client's middleware (straight to the
// session without any) and decodes its result into result.
func (c *Client) send(ctx context.Context, method string, params, result any, opts ...session.CallOption) error {
	return c.sendAt(ctx, c.version(""), method, params, result, opts...)
}

// sendAt is send for a request sent at revision version (initialize, at
// the revision it asks for).
func (c *Client) sendAt(ctx context.Context, version, method string, params, result any, opts ...session.CallOption) error {
	if c.sender == nil {
		return scopeError(c.sess.Call(ctx, method, params, result, opts...))
	}
	raw, err := session.EncodeParams(params)
	if err != nil {
		return fmt.Errorf("client: encoding %s params: %w", method, err)
	}
	res, err := c.sender(ctx, &OutgoingRequest{Method: method, Params: raw, Version: version, Session: c.sess, opts: opts})
	if err != nil {
		return scopeError(err)
	}
	return session.DecodeResult(method, res, result)
}
