package main

import (
	"context"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// serveHTTP serves Streamable HTTP at /mcp (both protocol eras on the one
// endpoint) and the legacy HTTP+SSE transport at /sse, until ctx is done.
func serveHTTP(ctx context.Context, s *fastmcp.Server, addr string) error {
	return s.ListenAndServe(ctx, addr)
}
