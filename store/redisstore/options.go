package redisstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/store"
)

// Config configures NewStores and Open. The zero value takes every
// default.
type Config struct {
	// Prefix starts every key written, so that several servers can share
	// one Redis. Default DefaultPrefix.
	Prefix string
	// Events bounds the SSE event log (its Prefix is replaced by Prefix).
	Events EventStoreOptions
	// Keys configures the requestState key ring (its Prefix is replaced
	// by Prefix). Keep Keys.StateTTL at the server's RequestStateTTL
	// when you change that.
	Keys KeyRingOptions
	// Bus, when set, is the bus the replicas share, created by the caller
	// with NewBus and the same Prefix, and closed by the caller after the
	// server shut down. Nil: NewStores makes one on rdb, which the
	// stores' Close closes.
	Bus *Bus
}

// NewStores returns the stores that keep a server's shared state in Redis
// through rdb: the SSE event log of resumable streams, the records of
// legacy sessions (so that any replica serves any session), the task
// store, the requestState key ring (NewKeyRing) and a bus (NewBus, or
// cfg.Bus when set). Give them to the server with fastmcp.SharedStores;
// the server calls their Close at Shutdown, which stops the ring's polling
// and closes the bus NewStores made, and the caller closes rdb after it.
// NewStores reads the ring from Redis, and fails with an error matching
// ErrRedis when it cannot. cfg may be nil.
//
// The client should be created with ContextTimeoutEnabled so that each
// store operation is bounded by the request's context as well as by the
// client's read and write timeouts.
func NewStores(ctx context.Context, rdb redis.UniversalClient, cfg *Config) (*store.Stores, error) {
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
	keyOpts := c.Keys
	keyOpts.Prefix = c.Prefix
	ring, err := NewKeyRing(ctx, rdb, &keyOpts)
	if err != nil {
		return nil, err
	}
	evOpts := c.Events
	evOpts.Prefix = c.Prefix
	st := &store.Stores{
		Events:   NewEventStore(rdb, &evOpts),
		Sessions: NewSessionStore(rdb, &SessionStoreOptions{Prefix: c.Prefix}),
		Tasks:    NewTaskStore(rdb, &TaskStoreOptions{Prefix: c.Prefix}),
		Keys:     ring,
		KV:       NewKV(rdb, &KVOptions{Prefix: c.Prefix}),
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

// Open connects to the Redis a URL names (redis://user:password@host:6379/0,
// rediss://... for TLS, unix://...) and returns its stores, as NewStores;
// their Close closes the client too. The client is created with
// ContextTimeoutEnabled. An invalid URL or an unreachable Redis fails
// here; the error does not repeat the URL, which may hold a password.
// Package redisurl opens the server's RedisURL setting with it.
func Open(ctx context.Context, url string, cfg *Config) (*store.Stores, error) {
	ro, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redisstore: the Redis URL is invalid: %w", err)
	}
	ro.ContextTimeoutEnabled = true
	rdb := redis.NewClient(ro)
	st, err := NewStores(ctx, rdb, cfg)
	if err != nil {
		_ = rdb.Close()
		return nil, err
	}
	closeStores := st.Close
	st.Close = func() error { return errors.Join(closeStores(), rdb.Close()) }
	return st, nil
}
