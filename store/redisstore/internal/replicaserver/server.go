// Package replicaserver is the server the multi-replica test and benchmark
// run as several processes behind a load balancer: tools that stream
// progress, announce numbered resource updates and run as tasks, on the
// Redis stores and a Redis bus when FASTMCP_REDIS_URL is set, in memory
// otherwise. It also holds the round-robin proxy they put in
// front of the replicas (proxy.go).
package replicaserver

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// WorkArgs are the arguments of the work tool.
type WorkArgs struct {
	// ID is the caller's name for the call, returned in the result.
	ID string `json:"id"`
	// Steps is how many progress notifications (and log messages) the tool
	// sends, numbered 1 to Steps.
	Steps int `json:"steps" validate:"min=0,max=1000"`
	// DelayMs is the pause after each step.
	DelayMs int `json:"delayMs" validate:"min=0,max=10000"`
	// Gate, with Redis, is a key the tool waits for after step GateAfter
	// (checking every GatePoll) before it goes on: the multi-replica test
	// holds its calls amid their streams until it has killed a replica,
	// so that the kill cuts them however loaded the machine. Empty: no
	// wait.
	Gate      string `json:"gate,omitempty"`
	GateAfter int    `json:"gateAfter,omitempty" validate:"min=0,max=1000"`
}

// GatePoll is how often a work call held at its Gate checks the key.
const GatePoll = 20 * time.Millisecond

// WorkResult is the result of the work tool.
type WorkResult struct {
	ID      string `json:"id"`
	Steps   int    `json:"steps"`
	Replica string `json:"replica"`
}

// BumpResult is the result of the bump tool.
type BumpResult struct {
	// N numbers the update: the tool announced bump://N.
	N       int64  `json:"n"`
	Replica string `json:"replica"`
}

// AddArgs are the arguments of the add tool.
type AddArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

// BumpURI is the resource the bump numbered n announces an update of.
func BumpURI(n int64) string { return "bump://" + strconv.FormatInt(n, 10) }

// HeldBy is the status message of a hold task running on replica name.
func HeldBy(name string) string { return "held by " + name }

// CounterKey is the Redis key of the bump counter the replicas share.
const CounterKey = "replicaserver:bumps"

// New returns the server of replica name. With rdb, the bump counter is
// shared through Redis; without, it is the process's own. opts are passed
// to fastmcp.New (the Redis store options, a logger).
func New(name string, rdb redis.UniversalClient, opts ...fastmcp.Option) *fastmcp.Server {
	s := fastmcp.New("replica", "1.0.0", opts...)
	var local atomic.Int64
	next := func(ctx context.Context) (int64, error) {
		if rdb == nil {
			return local.Add(1), nil
		}
		return rdb.Incr(ctx, CounterKey).Result()
	}
	s.Tool("work", func(ctx *fastmcp.Context, in WorkArgs) (WorkResult, error) {
		for i := 1; i <= in.Steps; i++ {
			if err := ctx.Progress(float64(i), float64(in.Steps), ""); err != nil {
				return WorkResult{}, err
			}
			ctx.Info("step", "id", in.ID, "step", i)
			if i == in.GateAfter && in.Gate != "" && rdb != nil {
				if err := awaitKey(ctx, rdb, in.Gate); err != nil {
					return WorkResult{}, err
				}
			}
			if in.DelayMs > 0 {
				select {
				case <-time.After(time.Duration(in.DelayMs) * time.Millisecond):
				case <-ctx.Done():
					return WorkResult{}, ctx.Err()
				}
			}
		}
		return WorkResult{ID: in.ID, Steps: in.Steps, Replica: name}, nil
	}, fastmcp.Description("Sends steps numbered progress notifications and log messages, then returns its id"))
	s.Tool("bump", func(ctx *fastmcp.Context) (BumpResult, error) {
		n, err := next(ctx)
		if err != nil {
			return BumpResult{}, fmt.Errorf("counting: %w", err)
		}
		if err := s.NotifyResourceUpdated(ctx, BumpURI(n)); err != nil {
			ctx.Logger().Debug("resources/updated not delivered to every session", "error", err)
		}
		return BumpResult{N: n, Replica: name}, nil
	}, fastmcp.Description("Announces an update of bump://N, N the next number of a counter the replicas share"))
	s.Tool("report", func(ctx *fastmcp.Context, in struct {
		ID string `json:"id"`
	}) (string, error) {
		if in.ID == "" {
			return "", errors.New("id is required")
		}
		return "report " + in.ID + " by " + name, nil
	}, fastmcp.TaskSupport(fastmcp.TaskRequired), fastmcp.Description("Returns a report, as a task (2026-07-28 tasks extension)"))
	s.Tool("hold", func(ctx *fastmcp.Context) (string, error) {
		if err := ctx.Progress(0, 0, HeldBy(name)); err != nil {
			return "", err
		}
		<-ctx.Done()
		return "", ctx.Err()
	}, fastmcp.TaskSupport(fastmcp.TaskRequired), fastmcp.Description("Runs as a task until cancelled, its status message naming the replica running it"))
	s.Tool("add", func(in AddArgs) int { return in.A + in.B }, fastmcp.Description("Adds a and b"))
	s.Resource("bump://{n}", func(in struct {
		N string `json:"n"`
	}) string {
		return in.N
	}, fastmcp.Description("The resource the bump tool announces updates of"))
	return s
}

// awaitKey waits until key exists in Redis, or ctx is done.
func awaitKey(ctx context.Context, rdb redis.UniversalClient, key string) error {
	t := time.NewTicker(GatePoll)
	defer t.Stop()
	for {
		n, err := rdb.Exists(ctx, key).Result()
		if err == nil && n > 0 {
			return nil
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
