package redisstore_test

import (
	"context"
	"flag"
	"log"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	_ "github.com/fastmcp-go/fastmcp/store/redisstore/redisurl" // the Redis stores, for FASTMCP_REDIS_URL
)

// A program that links the Redis stores lets FASTMCP_REDIS_URL (or the
// -redis-url flag) choose where its shared state lives: in that Redis
// when set, in memory otherwise. (Compiled, not run.)
func Example_redisURL() {
	s := fastmcp.New("reports", "1.0.0")
	s.Flags(flag.CommandLine)
	flag.Parse()
	if err := s.Run(context.Background()); err != nil {
		log.Fatal(err) // among others: Redis is unreachable
	}
}
