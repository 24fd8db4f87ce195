// Package logsink is the writer under a fastmcp Server's default logger:
// it writes to standard error, or, while a test has attached itself
// (package fastmcptest does, for the test that connects a client), to
// that test's log instead. Package fastmcp uses it only for the logger it
// builds when the Logger option is absent; a logger the user chose is left
// alone.
package logsink

import (
	"io"
	"log/slog"
	"strings"
	"sync"
)

// Writer writes each record to its base writer, or, while sinks are
// attached, to every attached sink instead. slog's handlers write one
// record per Write call, so a sink receives whole lines.
type Writer struct {
	base  io.Writer
	mu    sync.RWMutex // held for reading while a sink runs: Attach's detach waits for it
	sinks []*sink
}

type sink struct {
	key  any
	refs int
	fn   func(line string)
}

// NewWriter returns a Writer that writes to base while nothing is attached.
func NewWriter(base io.Writer) *Writer { return &Writer{base: base} }

// Write sends p, one log record, to the attached sinks without its final
// newline, or to the base writer when none is attached.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if len(w.sinks) == 0 {
		return w.base.Write(p)
	}
	line := strings.TrimSuffix(string(p), "\n")
	for _, s := range w.sinks {
		s.fn(line)
	}
	return len(p), nil
}

// Attach sends the records to fn, under key, until detach is called:
// attaching the same key again only counts (fn is called once per record
// per key), and the key stays attached until each detach has been called.
// When detach returns, fn is not running and is not called again, so fn
// may be a test's Log that must not run after the test ended.
func (w *Writer) Attach(key any, fn func(line string)) (detach func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range w.sinks {
		if s.key == key {
			s.refs++
			return sync.OnceFunc(func() { w.detach(s) })
		}
	}
	s := &sink{key: key, refs: 1, fn: fn}
	w.sinks = append(w.sinks, s)
	return sync.OnceFunc(func() { w.detach(s) })
}

func (w *Writer) detach(s *sink) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if s.refs--; s.refs > 0 {
		return
	}
	for i, t := range w.sinks {
		if t == s {
			w.sinks = append(w.sinks[:i:i], w.sinks[i+1:]...)
			return
		}
	}
}

// Handler is a slog.TextHandler on a Writer; Writer returns the Writer, to
// attach to. Handlers derived with WithAttrs and WithGroup write to the
// same Writer.
type Handler struct {
	slog.Handler
	w *Writer
}

// NewHandler returns a text handler on a new Writer whose base is base.
func NewHandler(base io.Writer, opts *slog.HandlerOptions) *Handler {
	w := NewWriter(base)
	return &Handler{Handler: slog.NewTextHandler(w, opts), w: w}
}

// Writer returns the Writer h writes to.
func (h *Handler) Writer() *Writer { return h.w }
