package transport

import (
	"net/http"
	"sync"
	"time"
)

// DefaultReadBodyTimeout is how long the HTTP handlers give a POST body to
// arrive when HTTPOptions.ReadBodyTimeout (or SSEOptions.ReadBodyTimeout)
// is zero: at the default 4 MiB body limit, a client must send at least
// 140 KB/s.
const DefaultReadBodyTimeout = 30 * time.Second

// shutdownBodyGrace is the time a POST body that starts arriving after a
// handler began shutting down gets (a client's answer to a call in flight
// still arrives; a trickled body cannot hold the shutdown).
const shutdownBodyGrace = time.Second

// arrivals tracks the POST bodies of one handler that are still arriving,
// so that shutting down cuts them short (their request has not started:
// they get 503) instead of waiting for the slowest client.
type arrivals struct {
	mu   sync.Mutex
	cut  bool                                  // the handler is shutting down
	open map[*http.ResponseController]struct{} // bodies being read
}

// begin puts a read deadline d from now on r's body (on its connection,
// or its HTTP/2 stream), at most shutdownBodyGrace once the handler shuts
// down, and until the returned end is called lets cutAll end it. A read
// past the deadline fails with an error matching os.ErrDeadlineExceeded,
// which readMessage answers with 408 (503 when cut by a shutdown) and
// Connection: close. end must be called as soon as the body has been read:
// net/http lifts the deadline then (HTTP/1 clears the connection's
// deadline when it starts watching for the client going away; an HTTP/2
// stream's deadline only ends its body), so an SSE answer may last as
// long as it needs, and a deadline set after that would end the request.
// d <= 0 leaves the body unlimited until a shutdown; a request without a
// body, or a ResponseWriter that cannot set deadlines, is not tracked.
func (a *arrivals) begin(w http.ResponseWriter, r *http.Request, d time.Duration) (end func()) {
	if r.Body == nil || r.Body == http.NoBody {
		return func() {}
	}
	rc := http.NewResponseController(w)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cut && (d <= 0 || d > shutdownBodyGrace) {
		d = shutdownBodyGrace
	}
	if d > 0 {
		if err := rc.SetReadDeadline(time.Now().Add(d)); err != nil {
			return func() {} // cannot set deadlines: nothing to cut either
		}
	}
	if a.open == nil {
		a.open = map[*http.ResponseController]struct{}{}
	}
	a.open[rc] = struct{}{}
	return func() {
		a.mu.Lock()
		delete(a.open, rc)
		a.mu.Unlock()
	}
}

// cutAll ends the bodies still arriving now (their reads fail at once) and
// gives those that start later shutdownBodyGrace.
func (a *arrivals) cutAll() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cut = true
	now := time.Now()
	for rc := range a.open {
		_ = rc.SetReadDeadline(now)
	}
}

// shuttingDown reports whether cutAll was called.
func (a *arrivals) shuttingDown() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cut
}
