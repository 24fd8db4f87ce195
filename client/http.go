package client

import (
	"context"
	"errors"
	"net/http"

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
