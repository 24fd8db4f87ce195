package redisstore_test

import (
	"context"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/pubsub"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// Every replica of a server runs this: the SSE event log, the legacy
// sessions, the tasks, the requestState keys and the bus are kept in one
// Redis. (Compiled, not run: it needs a Redis on localhost:6379.
// TestOptionsTwoReplicas runs the same against a redis-server of its own.)
func ExampleNewStores() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379", ContextTimeoutEnabled: true})
	defer rdb.Close()
	st, err := redisstore.NewStores(ctx, rdb, nil)
	if err != nil {
		log.Fatal(err) // Redis is unreachable
	}
	s := fastmcp.New("reports", "1.0.0", fastmcp.SharedStores(st),
		fastmcp.Tasks(fastmcp.TaskSettings{TTL: 24 * time.Hour}), fastmcp.Addr(":8000"))
	if err := s.Run(ctx); err != nil {
		log.Fatal(err)
	}
}

// Every replica runs this to share the legacy (2025-11-25) sessions: any
// replica serves any request of a session, without sticky routing.
// (Compiled, not run: it needs a Redis on localhost:6379.
// TestSessionsOnRedis runs the same against a redis-server of its own.)
func ExampleNewSessionStore() {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379", ContextTimeoutEnabled: true})
	defer rdb.Close()
	// Within one process; replicas in several processes need a bus
	// between them, on Redis.
	var bus store.Bus = pubsub.NewMemory(nil)
	s := fastmcp.New("reports", "1.0.0", fastmcp.SharedStores(&store.Stores{
		// Who the sessions are.
		Sessions: redisstore.NewSessionStore(rdb, nil),
		// Their SSE events, numbered in Redis.
		Events: redisstore.NewEventStore(rdb, nil),
		// How the replicas talk: a store.Bus every replica shares.
		Bus: bus,
	}))
	if err := s.Run(ctx); err != nil {
		log.Fatal(err)
	}
}

// A program that takes the Redis URL from its own configuration opens the
// stores itself; their Close, which the server calls at Shutdown, closes
// the client Open made. (Compiled, not run. Programs configured by
// FASTMCP_REDIS_URL need only link package redisurl: see the RedisURL
// example.)
func ExampleOpen() {
	ctx := context.Background()
	st, err := redisstore.Open(ctx, os.Getenv("REPORTS_REDIS"), nil)
	if err != nil {
		log.Fatal(err) // an invalid URL, or Redis is unreachable
	}
	s := fastmcp.New("reports", "1.0.0", fastmcp.SharedStores(st))
	if err := s.Run(ctx); err != nil {
		log.Fatal(err)
	}
}

// Replicas that announce to each other's clients: a list change, a
// resource update or a task's status on one replica reaches the clients
// of all, and a task's input and cancellation reach the replica running
// it. (Compiled, not run. TestBusReplicas runs the same against a
// redis-server of its own.)
func ExampleNewBus() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379", ContextTimeoutEnabled: true})
	defer rdb.Close()
	bus := redisstore.NewBus(rdb, nil)
	defer bus.Close() // runs before rdb.Close, after the server stopped
	st, err := redisstore.NewStores(ctx, rdb, &redisstore.Config{Bus: bus})
	if err != nil {
		log.Fatal(err) // Redis is unreachable
	}
	s := fastmcp.New("reports", "1.0.0", fastmcp.SharedStores(st), fastmcp.Addr(":8000"))
	s.Tool("reindex", func(ctx *fastmcp.Context) (string, error) {
		// ... the tool list depends on the index ...
		s.NotifyToolsChanged() // every replica's clients list the tools again
		return "reindexed", nil
	})
	if err := s.Run(ctx); err != nil {
		log.Fatal(err)
	}
}
