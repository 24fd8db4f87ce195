package client

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/fastmcp-go/fastmcp/transport"
)

// DefaultReissueLimit is how many times a 2026-07-28 request whose answer
// was lost in transit is re-issued by default (see WithReissueLimit).
const DefaultReissueLimit = 2

// WithReissueLimit bounds how many times a 2026-07-28 request whose answer
// was lost in transit is sent again as a new request. That revision has no
// stream resumption: a broken response stream loses the request, and the
// client must re-issue it with a new id (its changelog, item 9). The client
// does so when the POST could not be delivered, when its answer stream broke
// before the response, and when a gateway answered 502, 503 or 504 (a proxy
// in front of server replicas, one of which went away). The tool may then
// run twice on the server; a tool that must not should be idempotent (a
// client-chosen id in its arguments). Each re-issue waits a little longer
// (50 ms, 100 ms, ... up to 2 s). Legacy revisions resume the stream with
// Last-Event-ID instead and are not re-issued. A request the OAuth
// option could not authorize is not re-issued either: the failure is
// final. Default DefaultReissueLimit; 0 turns re-issuing off.
func WithReissueLimit(n int) Option {
	return option(func(c *config) { c.reissues = max(n, 0) })
}

// noReissueKey in a context marks a request the caller re-issues itself
// (subscriptions/listen).
type noReissueKey struct{}

// lostInTransit reports whether err says that a request's answer was lost
// on the way (and the request may be sent again), rather than given by the
// server or ended by the client. An authorization failure is not: it is
// final for the call (see authFailed).
func lostInTransit(err error) bool {
	if authFailed(err) {
		return false
	}
	if errors.Is(err, transport.ErrClosed) || errors.Is(err, transport.ErrSessionExpired) ||
		errors.Is(err, transport.ErrMessageTooLarge) {
		return false
	}
	if errors.Is(err, transport.ErrTransport) {
		return true
	}
	if he, ok := errors.AsType[*transport.HTTPError](err); ok {
		switch he.StatusCode {
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
	}
	return false
}

// DefaultStartingWait bounds how long Connect keeps asking a server that
// answers its handshake with 503 Service Unavailable and a Retry-After
// header (a server, or a replica behind a load balancer, that is starting
// or stopping): each wait is the one Retry-After names, at most
// maxStartingWait, and the sum of the waits at most DefaultStartingWait.
// A 503 without Retry-After fails the handshake at once.
const DefaultStartingWait = 10 * time.Second

// maxStartingWait caps one Retry-After wait while connecting.
const maxStartingWait = 2 * time.Second

// startingWait reports whether err is a 503 answer with a Retry-After
// header, and how long to wait before asking again: the header's delay
// (seconds or an HTTP date), at least 50 ms and at most maxStartingWait.
func startingWait(err error) (time.Duration, bool) {
	he, ok := errors.AsType[*transport.HTTPError](err)
	if !ok || he.StatusCode != http.StatusServiceUnavailable {
		return 0, false
	}
	v := strings.TrimSpace(he.Header.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	var d time.Duration
	if secs, err := strconv.Atoi(v); err == nil {
		d = time.Duration(secs) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = time.Until(t)
	} else {
		return 0, false
	}
	return min(max(d, 50*time.Millisecond), maxStartingWait), true
}

// reissueDelay is the wait before re-issue n (1, 2, ...).
func reissueDelay(n int) time.Duration {
	return min(50*time.Millisecond<<min(n-1, 8), 2*time.Second)
}

// sleepCtx waits d or until ctx is done, returning ctx's error then.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
