package transport

import (
	"net/http"
	"time"
)

// DefaultReadBodyTimeout is how long the HTTP handlers give a POST body to
// arrive when HTTPOptions.ReadBodyTimeout (or SSEOptions.ReadBodyTimeout)
// is zero: at the default 4 MiB body limit, a client must send at least
// 140 KB/s.
const DefaultReadBodyTimeout = 30 * time.Second

// limitBodyTime puts a read deadline d from now on r's body (on its
// connection, or its HTTP/2 stream). A read past the deadline fails with
// an error matching os.ErrDeadlineExceeded, which readMessage answers with
// 408 and Connection: close. The deadline does not reach the answer:
// net/http lifts it once the body has been read (HTTP/1 clears the
// connection's deadline when it starts watching for the client going
// away; an HTTP/2 stream's deadline only ends its body), so an SSE answer
// may last as long as it needs. d <= 0, a request without a body, or a
// ResponseWriter that cannot set deadlines leaves the body unlimited.
func limitBodyTime(w http.ResponseWriter, r *http.Request, d time.Duration) {
	if d <= 0 || r.Body == nil || r.Body == http.NoBody {
		return
	}
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
}
