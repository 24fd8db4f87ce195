package replicaserver

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/store/redisstore"
)

// EnvName names the environment variable holding the replica's name,
// returned in its results.
const EnvName = "REPLICA_NAME"

// The task lease settings of the replicas Main runs.
const (
	LeasePeriod  = 200 * time.Millisecond
	LeaseTimeout = 3 * time.Second
)

// ListeningPrefix starts the line Main prints once it serves, followed by
// the MCP endpoint's URL.
const ListeningPrefix = "listening on "

// Main runs one replica as a process: the server of New on the Redis stores
// when FASTMCP_REDIS_URL is set, serving HTTP on a free loopback port. It
// prints ListeningPrefix and the endpoint's URL on stdout once it serves
// (Server.Ready), and serves until SIGINT or SIGTERM. It returns the process's
// exit code.
func Main() int {
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	setup, cancel := context.WithTimeout(ctx, 10*time.Second)
	opts, rdb, err := fromEnv(setup)
	cancel()
	if err != nil {
		logger.Error("replica: connecting to Redis", "error", err)
		return 1
	}
	var shared redis.UniversalClient // nil without Redis, not a nil *redis.Client
	if rdb != nil {
		defer rdb.Close()
		shared = rdb
	}
	name := os.Getenv(EnvName)
	// Short task leases: the tasks of a replica that died are reported
	// failed within seconds (the multi-replica test waits for it).
	opts = append(opts, fastmcp.Logger(logger), fastmcp.Tasks(fastmcp.TaskSettings{LeasePeriod: LeasePeriod, LeaseTimeout: LeaseTimeout}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		logger.Error("replica: listening", "error", err)
		return 1
	}
	s := New(name, shared, append(opts, fastmcp.Listener(ln))...)
	// The endpoint is announced once the server serves (Ready: its stores
	// open, its bus subscribed), not when the socket opens: a client that
	// connects on seeing the line would otherwise get 503.
	var announce sync.WaitGroup
	served := make(chan struct{})
	announce.Go(func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-served:
				return
			case <-tick.C:
				if s.Ready() {
					fmt.Printf("%shttp://%s/mcp\n", ListeningPrefix, ln.Addr())
					return
				}
			}
		}
	})
	err = s.Run(ctx)
	close(served)
	announce.Wait()
	if err != nil {
		logger.Error("replica: serving", "error", err)
		return 1
	}
	return 0
}

// fromEnv connects to the Redis FASTMCP_REDIS_URL names and returns the
// option that shares its stores, and the client; nothing without the
// variable.
func fromEnv(ctx context.Context) ([]fastmcp.Option, *redis.Client, error) {
	url := os.Getenv("FASTMCP_REDIS_URL")
	if url == "" {
		return nil, nil, nil
	}
	ro, err := redis.ParseURL(url)
	if err != nil {
		return nil, nil, err
	}
	ro.ContextTimeoutEnabled = true
	rdb := redis.NewClient(ro)
	st, err := redisstore.NewStores(ctx, rdb, nil)
	if err != nil {
		_ = rdb.Close()
		return nil, nil, err
	}
	return []fastmcp.Option{fastmcp.SharedStores(st)}, rdb, nil
}
