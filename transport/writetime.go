package transport

import (
	"net/http"
	"time"
)

// DefaultWriteTimeout is how long the HTTP handlers wait for a client to
// take any of an answer's bytes when HTTPOptions.WriteTimeout (or
// SSEOptions.WriteTimeout) is zero: a client that stops reading loses its
// response stream after this long without progress, and with it the
// memory the stream's unread answers held.
const DefaultWriteTimeout = 30 * time.Second

// writeChunk is how much of one Write goes to the connection under one
// renewal of the write deadline: a large answer taken slowly but steadily
// is never cut; one not taken at all is cut after the timeout.
const writeChunk = 64 << 10

// progressWriter is a response writer whose writes and flushes must make
// progress: each chunk of a write, and each flush, must reach the
// connection within d of the previous one, or it fails (with an error
// matching os.ErrDeadlineExceeded) and the handler drops the stream;
// stored events keep a resumable stream resumable. It passes
// http.ResponseController calls through (Unwrap).
type progressWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController // of the wrapped writer
	d     time.Duration
	armed bool // a deadline was set: end clears it
}

// withWriteTimeout returns w wrapped in a progressWriter with timeout d,
// and the function that ends it (call it when the handler returns: the
// connection may serve another request). d <= 0 leaves w as it is.
func withWriteTimeout(w http.ResponseWriter, d time.Duration) (http.ResponseWriter, func()) {
	if d <= 0 {
		return w, func() {}
	}
	p := &progressWriter{ResponseWriter: w, rc: http.NewResponseController(w), d: d}
	return p, p.end
}

// renew moves the deadline d from now.
func (p *progressWriter) renew() {
	if p.rc.SetWriteDeadline(time.Now().Add(p.d)) == nil {
		p.armed = true
	}
}

func (p *progressWriter) Write(b []byte) (int, error) {
	n := 0
	for len(b) > 0 {
		p.renew()
		m, err := p.ResponseWriter.Write(b[:min(len(b), writeChunk)])
		n += m
		if err != nil {
			return n, err
		}
		b = b[m:]
	}
	return n, nil
}

// FlushError flushes within the deadline (http.ResponseController.Flush
// calls it).
func (p *progressWriter) FlushError() error {
	p.renew()
	return p.rc.Flush()
}

// Unwrap gives http.ResponseController the wrapped writer.
func (p *progressWriter) Unwrap() http.ResponseWriter { return p.ResponseWriter }

// end clears the deadline: over HTTP/1 it belongs to the connection,
// which may go on to serve another request.
func (p *progressWriter) end() {
	if p.armed {
		_ = p.rc.SetWriteDeadline(time.Time{})
	}
}
