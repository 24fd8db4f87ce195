package main

import (
	"context"
	"fmt"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// openStore opens the Redis at redisURL: its KV keeps the authorization
// server's state, and the MCP server shares its sessions, tasks and keys
// there too (fastmcp.SharedStores), so that processes on one Redis act as
// one. With redisURL empty both keep their state in memory.
func openStore(ctx context.Context, redisURL string) (store.KV, []fastmcp.Option, func(), error) {
	if redisURL == "" {
		return nil, nil, func() {}, nil
	}
	st, err := redisstore.Open(ctx, redisURL, nil)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("-redis-url: %w", err)
	}
	// The server closes the stores at its shutdown.
	return st.KV, []fastmcp.Option{fastmcp.SharedStores(st)}, func() {}, nil
}
