package transport

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// StreamOptions configures a newline-delimited JSON stream. The zero value
// is ready to use.
type StreamOptions struct {
	// MaxMessageSize is the largest line, in bytes, accepted on read. A longer
	// line is skipped and reported as a *protocol.DecodeError; the stream goes
	// on. Zero means DefaultMaxMessageSize.
	MaxMessageSize int
}

// Stream is a Conn that reads and writes newline-delimited JSON-RPC messages
// (one JSON object per line, as the MCP stdio transport specifies) over any
// reader and writer. Blank lines are ignored and a trailing carriage return is
// dropped. A malformed or oversized line yields a *protocol.DecodeError and
// does not end the stream.
//
// Writes are batched: while the goroutine reading the stream still has
// input buffered that Read has not returned yet (the peer sent several
// messages at once), Write adds its message to the output held back and
// returns; when Read next waits for input, the held output is written in
// one call on a short-lived goroutine of the Stream (never on the reading
// goroutine, which must not wait on the peer to read), or once it reaches
// 32 KiB, or by Flush. So a reader must keep calling Read (as the session
// engine does) or call Flush, which is also how to know that everything
// written so far has reached the writer; Close discards output still held
// back and waits for such a write to end. Writes at any other time are written at
// once, on the writer's goroutine.
//
// (Why not plain mutex-guarded writes, issue 14: with them, 16 tools/call
// in flight over OS pipes took 1.13x the whole-process wall time, 1.15x
// the CPU; one at a time was even.)
type Stream struct {
	r    *bufio.Reader
	rc   io.Closer // the reader, when it can be closed
	max  int
	line []byte // read buffer, reused
	// scan follows a line over the limit as readLine skips it.
	scan topScan

	// Writes are group-committed: a writer appends its message to pending;
	// if no write is in progress it becomes the flusher and writes pending
	// (its own message and any queued meanwhile) in one call, repeatedly,
	// until pending is empty. Every Write returns once its own bytes were
	// written, so concurrent writers share write system calls.
	//
	// Buffer ownership: pending, spare and the buffer a flusher is
	// writing are always distinct backing arrays (or nil). pending belongs
	// to writers appending under wmu; the flusher takes pending for itself
	// (leaving spare, or nil, in its place) and owns it exclusively, without
	// wmu, while it writes; it hands it back as spare when it is done, if it
	// is small enough to keep. spare is referenced by nothing else.
	wmu      sync.Mutex
	wcond    sync.Cond // signalled after every flush
	w        io.Writer
	wc       io.Closer
	pending  []byte // encoded messages not yet written; appended to under wmu
	spare    []byte // an empty buffer for pending's next turn, owned by nobody
	flushing bool
	held     bool           // the reader has input buffered: Write holds output back
	queued   uint64         // messages appended to pending, ever
	written  uint64         // messages written, ever
	werr     error          // the first write error; every later Write fails with it
	rheld    bool           // the reader's copy of held, read without wmu
	flushers sync.WaitGroup // goroutines writing held output (see flushReader)

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
}

// NewStream returns a Stream reading from r and writing to w. Close closes r
// and w when they implement io.Closer. opts may be nil.
func NewStream(r io.Reader, w io.Writer, opts *StreamOptions) *Stream {
	s := &Stream{
		w:      w,
		max:    DefaultMaxMessageSize,
		closed: make(chan struct{}),
	}
	s.wcond.L = &s.wmu
	s.r = bufio.NewReaderSize(flushReader{s, r}, 64<<10)
	if opts != nil && opts.MaxMessageSize > 0 {
		s.max = opts.MaxMessageSize
	}
	if c, ok := r.(io.Closer); ok {
		s.rc = c
	}
	if c, ok := w.(io.Closer); ok {
		s.wc = c
	}
	return s
}

// Stdio returns a Stream over the process's standard input and output: the
// server side of the MCP stdio transport. Nothing else may write to
// os.Stdout while it is in use; log to os.Stderr instead.
func Stdio(opts *StreamOptions) *Stream { return NewStream(os.Stdin, os.Stdout, opts) }

// Read returns the next message. It blocks until a full line arrives; ctx is
// checked before reading (an io.Reader cannot be interrupted; Close the
// stream to unblock a pending Read).
func (s *Stream) Read(ctx context.Context) (protocol.Message, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		line, err := s.readLine()
		if err != nil {
			if errors.Is(err, errTooLong) {
				return nil, s.scan.tooLarge(s.max)
			}
			select {
			case <-s.closed:
				return nil, ErrClosed
			default:
			}
			return nil, err
		}
		if more := s.r.Buffered() > 0; more != s.rheld {
			s.rheld = more
			s.wmu.Lock()
			s.held = more
			s.wmu.Unlock()
		}
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			continue // blank lines carry no message
		}
		return protocol.DecodeMessage(line)
	}
}

var errTooLong = errors.New("transport: line too long")

// readLine returns the next line without its newline. The returned slice is
// reused by the next call. A line longer than the limit (not counting its
// "\n" or "\r\n") is consumed up to its newline, without being kept: s.scan
// follows it to recover its id, and it is reported as errTooLong.
// At EOF, a final unterminated line is returned; then io.EOF.
func (s *Stream) readLine() ([]byte, error) {
	s.line = s.line[:0]
	tooLong := false
	for {
		chunk, err := s.r.ReadSlice('\n')
		switch {
		case tooLong:
			s.scan.write(chunk)
		case len(s.line)+len(chunk) > s.max+2: // +2: room for "\r\n"
			tooLong = true
			s.scan.reset()
			s.scan.write(s.line)
			s.scan.write(chunk)
			s.line = s.line[:0]
		default:
			s.line = append(s.line, chunk...)
		}
		switch {
		case err == nil:
			if tooLong || s.exceeds(s.line[:len(s.line)-1]) {
				return nil, errTooLong
			}
			return s.line[:len(s.line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if tooLong || s.exceeds(s.line) {
				return nil, errTooLong
			}
			if len(s.line) > 0 {
				return s.line, nil
			}
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}

// exceeds reports whether line, less one trailing carriage return, is longer
// than the limit; if so, s.scan has followed it.
func (s *Stream) exceeds(line []byte) bool {
	n := len(line)
	if n > 0 && line[n-1] == '\r' {
		n--
	}
	if n <= s.max {
		return false
	}
	s.scan.reset()
	s.scan.write(line)
	return true
}

// Write writes msg as one line.
func (s *Stream) Write(ctx context.Context, msg protocol.Message) error {
	select {
	case <-s.closed:
		return ErrClosed
	default:
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.werr != nil {
		return s.werr
	}
	n := len(s.pending)
	b, err := protocol.AppendMessage(s.pending, msg)
	if err != nil {
		s.pending = b[:n]
		return fmt.Errorf("transport: encoding message: %w", err)
	}
	if len(b) == n {
		return nil // an empty batch: nothing to write
	}
	s.pending = append(b, '\n')
	s.queued++
	if s.held && len(s.pending) < maxHeld {
		return nil // written with the rest of the batch
	}
	mine := s.queued
	for s.flushing {
		// Another writer is writing; it (or the next flusher) writes ours.
		s.wcond.Wait()
		if s.written >= mine {
			return s.werr
		}
		if s.werr != nil {
			return s.werr
		}
	}
	s.flushLocked()
	return s.werr
}

// maxHeld bounds the output held back while the reader has input
// buffered.
//
// 512 B instead (performance-2.md E9: writing early so that the peer works
// while the server still serves the burst; +12% with 16 calls in flight on
// a quiet machine) was measured again on top of the deferred read hand-off
// (session/pool.go) and lost (issue 30; bench/compare's server, 16 calls in
// flight over OS pipes, interleaved A/B against 32 KiB with an identical
// binary as control, 11-15 rounds, median paired calls/s ratio: 0.75, 0.75,
// 0.91, 0.88, control 0.95, 0.88, 1.04; server CPU a call 1.07-1.29x;
// write calls 0.07 -> 0.24 a call; 2 KiB 0.99, 8 KiB 1.06; load average
// 11-19 on 2 cores). With no idle core the earlier writes are only more
// system calls and wake-ups, so 32 KiB stays until a quieter measurement
// shows otherwise.
const maxHeld = 32 << 10

// maxSpare is the largest flush buffer kept for reuse; a larger one (left
// by a large message) is dropped after its write.
const maxSpare = 1 << 20

// flushLocked writes pending, and whatever is added to it meanwhile, as
// the flusher; s.wmu held, and no flush in progress.
func (s *Stream) flushLocked() {
	s.flushing = true
	for len(s.pending) > 0 && s.werr == nil {
		// Take pending: from here until it is handed back, buf is the
		// flusher's alone. spare moves into pending, so that no two of
		// them share an array.
		buf, upto := s.pending, s.queued
		s.pending, s.spare = s.spare[:0], nil
		s.wmu.Unlock()
		_, err := s.w.Write(buf)
		s.wmu.Lock()
		if cap(buf) <= maxSpare {
			s.spare = buf[:0] // handed back: nothing else refers to it
		}
		if err != nil {
			select {
			case <-s.closed:
				s.werr = ErrClosed
			default:
				s.werr = fmt.Errorf("transport: write: %w", err)
			}
			break
		}
		s.written = upto
		s.wcond.Broadcast()
	}
	s.flushing = false
	s.wcond.Broadcast()
}

// Flush writes the output held back, if any, and returns once it is
// written (or with the first write error).
func (s *Stream) Flush() error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	mine := s.queued
	for s.flushing {
		s.wcond.Wait()
	}
	if s.werr == nil && s.written < mine {
		s.flushLocked()
	}
	return s.werr
}

// flushReader is the reader under the Stream's buffer: before it waits
// for input it ends the batch, writing the output held back.
type flushReader struct {
	s *Stream
	r io.Reader
}

func (f flushReader) Read(p []byte) (int, error) {
	s := f.s
	s.wmu.Lock()
	s.held, s.rheld = false, false
	if len(s.pending) > 0 && !s.flushing {
		// The held output is written on a goroutine of its own: the
		// reading goroutine must never wait on a write, or two peers
		// whose readers both write (over unbuffered or full pipes) would
		// each wait for the other to read.
		select {
		case <-s.closed: // Close is waiting for flushers, or has: none may start
		default:
			s.flushing = true // claimed: writers meanwhile wait for this flush
			s.flushers.Add(1)
			go s.flushHeld()
		}
	}
	s.wmu.Unlock()
	return f.r.Read(p)
}

// flushHeld writes the output held back and whatever is queued meanwhile.
// It returns once written, or once the write fails (Close unblocks it by
// closing the writer).
func (s *Stream) flushHeld() {
	defer s.flushers.Done()
	s.wmu.Lock()
	s.flushLocked()
	s.wmu.Unlock()
}

// Close closes the underlying reader and writer when they can be closed.
func (s *Stream) Close() error {
	s.closeOnce.Do(func() {
		close(s.closed)
		var errs []error
		if s.wc != nil {
			errs = append(errs, s.wc.Close())
		}
		if s.rc != nil {
			errs = append(errs, s.rc.Close())
		}
		s.closeErr = errors.Join(errs...)
		// Closing the writer ended any write of held output in progress
		// (a writer that is no io.Closer must not block forever). Taking
		// wmu orders every flusher started before closed was closed
		// before Wait.
		s.wmu.Lock()
		//lint:ignore SA2001 an empty critical section is the barrier meant here
		s.wmu.Unlock()
		s.flushers.Wait()
	})
	return s.closeErr
}
