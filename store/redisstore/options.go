package redisstore

import (
	"context"
	"fmt"
	"os"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// EnvURL names the environment variable FromEnv reads: a Redis URL such
// as redis://user:password@host:6379/0 or rediss://... for TLS.
const EnvURL = "FASTMCP_REDIS_URL"

// Config configures Options. The zero value takes every default.
type Config struct {
	// Prefix starts every key written, so that several servers can share
	// one Redis. Default DefaultPrefix.
	Prefix string
	// Events bounds the SSE event log (its Prefix is replaced by Prefix).
	Events EventStoreOptions
	// Tasks sets the tasks' TTL and poll interval; its Store is replaced
	// by the Redis TaskStore. Give them here rather than with another
	// fastmcp.Tasks option, which would replace the Redis store.
	Tasks fastmcp.TaskSettings
	// Keys configures the requestState key ring (its Prefix is replaced
	// by Prefix). Keep Keys.StateTTL at the server's RequestStateTTL
	// when you change that.
	Keys KeyRingOptions
	// Bus, when set, is the bus the replicas share, created by the caller
	// with NewBus and the same Prefix, and closed by the caller after the
	// server shut down. Nil: Options makes one on rdb, which the server
	// closes at Shutdown.
	Bus *Bus
}

// Options returns the server options that keep a server's shared state in
// Redis through rdb (fastmcp.SharedStores): the SSE event log of resumable
// streams, the records of legacy sessions (so that any replica serves any
// session), the task store, the requestState key ring (NewKeyRing) and a
// bus (NewBus, or cfg.Bus when set), each unless another option chose its
// own. Pass them to fastmcp.New; the server stops the ring's polling and
// closes the bus it made at Shutdown, and the caller closes rdb after it.
// Options reads the ring from Redis, and fails with an error matching
// ErrRedis when it cannot. cfg may be nil.
//
// The client should be created with ContextTimeoutEnabled so that each
// store operation is bounded by the request's context as well as by the
// client's read and write timeouts.
func Options(ctx context.Context, rdb redis.UniversalClient, cfg *Config) ([]fastmcp.Option, error) {
	var c Config
	if cfg != nil {
		c = *cfg
	}
	if c.Prefix == "" {
		c.Prefix = DefaultPrefix
	}
	if c.Bus != nil && c.Bus.prefix != c.Prefix {
		return nil, fmt.Errorf("redisstore: Config.Bus uses the prefix %q and Config.Prefix is %q: create the bus with NewBus(rdb, &BusOptions{Prefix: %q})", c.Bus.prefix, c.Prefix, c.Prefix)
	}
	st, err := newStores(ctx, rdb, &c)
	if err != nil {
		return nil, err
	}
	tasks := c.Tasks
	tasks.Store = nil // SharedStores gives it, unless another option did
	return []fastmcp.Option{fastmcp.Tasks(tasks), fastmcp.SharedStores(st)}, nil
}

// FromEnv connects to the Redis named by FASTMCP_REDIS_URL and returns its
// Options. When the variable is unset or empty it returns no options and a
// nil client: the server keeps its in-memory defaults. Otherwise the
// caller closes the client when the server has stopped. The client is
// created with ContextTimeoutEnabled; an unreachable Redis fails here.
func FromEnv(ctx context.Context, cfg *Config) ([]fastmcp.Option, *redis.Client, error) {
	url := os.Getenv(EnvURL)
	if url == "" {
		return nil, nil, nil
	}
	ro, err := redis.ParseURL(url)
	if err != nil {
		return nil, nil, fmt.Errorf("redisstore: %s: %w", EnvURL, err)
	}
	ro.ContextTimeoutEnabled = true
	rdb := redis.NewClient(ro)
	opts, err := Options(ctx, rdb, cfg)
	if err != nil {
		_ = rdb.Close()
		return nil, nil, fmt.Errorf("redisstore: %s: %w", EnvURL, err)
	}
	return opts, rdb, nil
}
