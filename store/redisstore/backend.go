package redisstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// Linking the package registers the "redis" store backend, which serves
// the server's RedisURL setting (FASTMCP_REDIS_URL, -redis-url).
func init() { fastmcp.RegisterStoreBackend("redis", openBackend) }

// openBackend connects to the Redis the setting names and returns its
// stores; their Close closes the client too.
func openBackend(ctx context.Context, p fastmcp.StoreParams) (*fastmcp.Stores, error) {
	ro, err := redis.ParseURL(p.URL)
	if err != nil {
		return nil, fmt.Errorf("redisstore: the Redis URL is invalid: %w", err)
	}
	ro.ContextTimeoutEnabled = true
	rdb := redis.NewClient(ro)
	st, err := newStores(ctx, rdb, &Config{Prefix: DefaultPrefix, Keys: KeyRingOptions{StateTTL: p.RequestStateTTL, Logger: p.Logger}})
	if err != nil {
		_ = rdb.Close()
		return nil, err
	}
	closeRing := st.Close
	st.Close = func() error { return errors.Join(closeRing(), rdb.Close()) }
	return st, nil
}

// newStores makes the stores of c on rdb; c.Prefix is set. The ring's
// poll runs until the stores' Close.
func newStores(ctx context.Context, rdb redis.UniversalClient, c *Config) (*fastmcp.Stores, error) {
	keyOpts := c.Keys
	keyOpts.Prefix = c.Prefix
	ring, err := NewKeyRing(ctx, rdb, &keyOpts)
	if err != nil {
		return nil, err
	}
	evOpts := c.Events
	evOpts.Prefix = c.Prefix
	st := &fastmcp.Stores{
		Events:   NewEventStore(rdb, &evOpts),
		Sessions: NewSessionStore(rdb, &SessionStoreOptions{Prefix: c.Prefix}),
		Tasks:    NewTaskStore(rdb, &TaskStoreOptions{Prefix: c.Prefix}),
		Keys:     ring,
		Close:    ring.Close,
	}
	if c.Bus != nil {
		st.Bus = c.Bus // the caller's: the caller closes it
	} else {
		bus := NewBus(rdb, &BusOptions{Prefix: c.Prefix, Logger: c.Keys.Logger})
		st.Bus = bus
		st.Close = func() error { return errors.Join(bus.Close(), ring.Close()) }
	}
	return st, nil
}
