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
	// Bus, when set, is given to the server (fastmcp.Bus), so that
	// announcements and task requests reach every replica. The caller
	// creates it with NewBus, with the same Prefix, and closes it after
	// the server shut down.
	Bus *Bus
}

// Options returns the server options that keep a server's shared state in
// Redis through rdb: the SSE event log of resumable streams (unless an
// HTTPEndpoints option given before them set an event store), the task
// store, and the
// requestState secret (SharedSecret), and cfg.Bus when set. Pass them to fastmcp.New. It talks
// to Redis once, to get the secret, and fails with an error matching
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
	secret, err := SharedSecret(ctx, rdb, c.Prefix)
	if err != nil {
		return nil, err
	}
	evOpts := c.Events
	evOpts.Prefix = c.Prefix
	events := NewEventStore(rdb, &evOpts)
	tasks := c.Tasks
	tasks.Store = NewTaskStore(rdb, &TaskStoreOptions{Prefix: c.Prefix})
	opts := []fastmcp.Option{
		fastmcp.RequestStateSecret(secret),
		fastmcp.Tasks(tasks),
		fastmcp.HTTPEndpoints(func(h *fastmcp.HTTPConfig) {
			if h.Streamable.EventStore == nil {
				h.Streamable.EventStore = events
			}
		}),
	}
	if c.Bus != nil {
		opts = append(opts, fastmcp.Bus(c.Bus))
	}
	return opts, nil
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
