package redisstore

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
)

// GoRedisLogger carries go-redis's own log lines (a pool that cannot dial,
// a broken subscription) to a *slog.Logger, at Warn, with the attribute
// component=go-redis, instead of go-redis's default: lines of its own on
// the process's stderr. go-redis has one logger for the whole process (it
// has no per-client setting), so install it once, with the program's main
// logger:
//
//	redis.SetLogger(redisstore.NewGoRedisLogger(logger))
//
// A server whose stores come from its RedisURL setting (package redisurl)
// gets this done for it, with the server's logger.
type GoRedisLogger struct{ l *slog.Logger }

// NewGoRedisLogger returns the GoRedisLogger writing to l; nil means
// slog.Default().
func NewGoRedisLogger(l *slog.Logger) *GoRedisLogger {
	if l == nil {
		l = slog.Default()
	}
	return &GoRedisLogger{l: l.With("component", "go-redis")}
}

// Printf logs one go-redis line at Warn (go-redis logs only what went
// wrong), without its "redis: " prefix.
func (g *GoRedisLogger) Printf(ctx context.Context, format string, v ...any) {
	g.l.WarnContext(ctx, strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: "))
}
