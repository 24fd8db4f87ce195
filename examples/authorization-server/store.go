package main

import (
	"context"
	"errors"

	"github.com/fastmcp-go/fastmcp/store"
)

// openStore returns the KV at redisURL, or nil (the server's memory) when
// it is empty.
func openStore(ctx context.Context, redisURL string) (store.KV, func(), error) {
	if redisURL == "" {
		return nil, func() {}, nil
	}
	return nil, nil, errors.New("-redis-url: not available yet (redisstore.NewKV)") // TODO(h32kv)
}
