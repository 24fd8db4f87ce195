// Package callopt holds the options of one outgoing request, so that
// package session, which sends it, and package fastmcp, whose Client takes
// the same options, share one option type: session.CallOption and
// client.CallOption are both [Option].
package callopt

import (
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// An Option configures one outgoing request.
type Option func(*Config)

// Config is what a request's options set. The session acts on Progress,
// Timeout, OnID and Meta; the fastmcp client also on OnTask.
type Config struct {
	// Progress receives the peer's progress notifications for the request,
	// which then carries a _meta.progressToken.
	Progress func(*protocol.ProgressParams)
	// Timeout bounds the request (0: no bound); it starts as the
	// session's.
	Timeout time.Duration
	// OnID is told the id the request is sent with.
	OnID func(protocol.ID)
	// Meta is added to the request's _meta.
	Meta protocol.Meta
	// OnTask is told the task a tools/call is answered with.
	OnTask func(*protocol.TaskCreatedResult)
}

// Apply applies opts to cfg and returns it. It takes and returns cfg by
// value so that only callers with options pay for it escaping to the heap.
func Apply(cfg Config, opts []Option) Config {
	c := &cfg
	for _, o := range opts {
		o(c)
	}
	return *c
}
