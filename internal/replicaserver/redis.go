package replicaserver

import (
	"context"
	"fmt"
	"os"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// redisOptions returns the server options on the Redis named by
// FASTMCP_REDIS_URL — the stores and a bus — with the client (nil when
// the variable is unset: no options, the in-memory defaults) and the
// function that closes them once the server has stopped.
func redisOptions(ctx context.Context) ([]fastmcp.Option, redis.UniversalClient, func(), error) {
	url := os.Getenv(redisstore.EnvURL)
	if url == "" {
		return nil, nil, func() {}, nil
	}
	ro, err := redis.ParseURL(url)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", redisstore.EnvURL, err)
	}
	ro.ContextTimeoutEnabled = true
	rdb := redis.NewClient(ro)
	bus := redisstore.NewBus(rdb, nil)
	closeAll := func() {
		_ = bus.Close()
		_ = rdb.Close()
	}
	opts, err := redisstore.Options(ctx, rdb, &redisstore.Config{Bus: bus})
	if err != nil {
		closeAll()
		return nil, nil, nil, err
	}
	return opts, rdb, closeAll, nil
}
