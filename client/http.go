package client

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/fastmcp-go/fastmcp/internal/wwwauth"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// WithHTTPClient sets the *http.Client ConnectHTTP sends requests with (for
// TLS settings, proxies, or a transport that adds credentials). Default: a
// client of the connection's own.
func WithHTTPClient(c *http.Client) Option {
	return option(func(cfg *config) { cfg.httpClient = c })
}

// WithHTTPHeader adds headers to every HTTP request ConnectHTTP sends, such as
// Authorization.
func WithHTTPHeader(h http.Header) Option {
	return option(func(cfg *config) { cfg.httpHeader = h })
}

// WithMaxMessageSize bounds each message the client reads from the server,
// over ConnectHTTP and ConnectCommand (when the Command sets no
// MaxMessageSize of its own). A message over it is skipped and fails the
// call it answers with an error matching transport.ErrMessageTooLarge; the
// connection goes on. Default: transport.DefaultClientMaxMessageSize
// (64 MiB). Connect, given a transport already made, uses that
// transport's own setting.
func WithMaxMessageSize(n int) Option {
	return option(func(cfg *config) { cfg.maxMessageSize = n })
}

// ConnectHTTP connects to the MCP server at url over HTTP. It speaks
// Streamable HTTP — the modern protocol (2026-07-28) when the server does,
// else a legacy session opened with the initialize handshake — and falls
// back to the legacy HTTP+SSE transport (2024-11-05) when the server
// answers the handshake's POST with 400, 404 or 405, as the specification's
// backwards-compatibility section describes.
func ConnectHTTP(ctx context.Context, url string, opts ...Option) (*Client, error) {
	var cfg config
	for _, o := range opts {
		o.apply(&cfg)
	}
	hc := cfg.httpClient
	var closeIdle func()
	if cfg.oauth != nil {
		var err error
		if hc, closeIdle, err = cfg.oauthHTTPClient(url); err != nil {
			return nil, err
		}
	}
	c, err := connectHTTP(ctx, url, hc, &cfg, opts)
	if closeIdle != nil {
		if err != nil {
			closeIdle()
		} else {
			c.onClose = closeIdle
		}
	}
	return c, err
}

// connectHTTP is ConnectHTTP once the HTTP client is known.
func connectHTTP(ctx context.Context, url string, hc *http.Client, cfg *config, opts []Option) (*Client, error) {
	hopts := &transport.HTTPClientOptions{HTTPClient: hc, Header: cfg.httpHeader, Logger: cfg.logger, MaxMessageSize: cfg.maxMessageSize}
	c, err := Connect(ctx, transport.NewStreamableClient(url, hopts), opts...)
	if err == nil {
		return c, nil
	}
	he, ok := errors.AsType[*transport.HTTPError](err)
	if !ok || (he.StatusCode != http.StatusBadRequest && he.StatusCode != http.StatusNotFound && he.StatusCode != http.StatusMethodNotAllowed) {
		return nil, err
	}
	if cfg.version != "" && protocol.EraOf(cfg.version).Stateless() {
		return nil, err // the legacy transport cannot speak it
	}
	// Ask for the newest legacy revision: servers on the HTTP+SSE transport
	// answer the revision they speak (often 2024-11-05, some later ones).
	legacy := append(opts[:len(opts):len(opts)], WithProtocolVersion(orDefault(cfg.version, protocol.LatestLegacyVersion)))
	c, serr := Connect(ctx, transport.NewSSEClient(url, hopts), legacy...)
	if serr != nil {
		return nil, errors.Join(err, serr)
	}
	return c, nil
}

// InsufficientScopeError reports a request the server refused with 403
// Forbidden and a WWW-Authenticate challenge error="insufficient_scope"
// (RFC 6750 §3.1), as package auth's bearer middleware answers a valid
// access token that lacks scopes the operation needs. Get it with
// errors.AsType[*client.InsufficientScopeError](err) and get a token
// granted Scopes (with WithHTTPHeader, or OAuth, which asks for them
// itself when it can).
type InsufficientScopeError struct {
	// Scopes are the scopes the server names in its challenge: every
	// scope the operation needs, not only the missing ones (RFC 6750
	// §3.1 asks for all of them, so that one new token is enough).
	Scopes []string
	// Description is the challenge's error_description, if any.
	Description string
	// ResourceMetadata is the URL of the server's protected resource
	// metadata (RFC 9728), naming its authorization servers; "" when the
	// challenge names none.
	ResourceMetadata string
	// Err is the *transport.HTTPError of the refused request.
	Err error
}

// Error names the scopes to get a token for.
func (e *InsufficientScopeError) Error() string {
	msg := "client: the server refused the access token (HTTP 403 insufficient_scope)"
	if len(e.Scopes) > 0 {
		msg += ": get a token granted the scopes " + strings.Join(e.Scopes, " ")
	}
	if e.Description != "" {
		msg += " (" + e.Description + ")"
	}
	return msg
}

// Unwrap returns Err.
func (e *InsufficientScopeError) Unwrap() error { return e.Err }

// scopeError returns err as an *InsufficientScopeError when it is a 403
// insufficient_scope answer, else err unchanged.
func scopeError(err error) error {
	he, ok := errors.AsType[*transport.HTTPError](err)
	if !ok || he.StatusCode != http.StatusForbidden {
		return err
	}
	if _, done := errors.AsType[*InsufficientScopeError](err); done {
		return err
	}
	for _, c := range wwwauth.Parse(he.Header) {
		if c.Params["error"] == "insufficient_scope" {
			return &InsufficientScopeError{Scopes: strings.Fields(c.Params["scope"]), Description: c.Params["error_description"], ResourceMetadata: c.Params["resource_metadata"], Err: err}
		}
	}
	return err
}
