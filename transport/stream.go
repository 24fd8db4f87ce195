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
// Stream starts no goroutines.
type Stream struct {
	r    *bufio.Reader
	rc   io.Closer // the reader, when it can be closed
	max  int
	line []byte // read buffer, reused

	wmu  sync.Mutex
	w    io.Writer
	wc   io.Closer
	wbuf []byte

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
}

// NewStream returns a Stream reading from r and writing to w. Close closes r
// and w when they implement io.Closer. opts may be nil.
func NewStream(r io.Reader, w io.Writer, opts *StreamOptions) *Stream {
	s := &Stream{
		r:      bufio.NewReaderSize(r, 64<<10),
		w:      w,
		max:    DefaultMaxMessageSize,
		closed: make(chan struct{}),
	}
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
				return nil, &protocol.DecodeError{Err: protocol.Errorf(protocol.CodeInvalidRequest,
					"Invalid Request: message exceeds the %d-byte limit", s.max)}
			}
			select {
			case <-s.closed:
				return nil, ErrClosed
			default:
			}
			return nil, err
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
// reused by the next call. A line longer than the limit is consumed up to its
// newline and reported as errTooLong. At EOF, a final unterminated line is
// returned; then io.EOF.
func (s *Stream) readLine() ([]byte, error) {
	s.line = s.line[:0]
	tooLong := false
	for {
		chunk, err := s.r.ReadSlice('\n')
		if !tooLong {
			if len(s.line)+len(chunk) > s.max+1 { // +1: the newline
				tooLong = true
				s.line = s.line[:0]
			} else {
				s.line = append(s.line, chunk...)
			}
		}
		switch {
		case err == nil:
			if tooLong {
				return nil, errTooLong
			}
			return s.line[:len(s.line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if tooLong {
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

// Write writes msg as one line.
func (s *Stream) Write(ctx context.Context, msg protocol.Message) error {
	select {
	case <-s.closed:
		return ErrClosed
	default:
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	b, err := protocol.AppendMessage(s.wbuf[:0], msg)
	if err != nil {
		return fmt.Errorf("transport: encoding message: %w", err)
	}
	b = append(b, '\n')
	if cap(b) <= 64<<10 {
		s.wbuf = b // keep moderate buffers for reuse
	}
	if _, err := s.w.Write(b); err != nil {
		select {
		case <-s.closed:
			return ErrClosed
		default:
		}
		return fmt.Errorf("transport: write: %w", err)
	}
	return nil
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
	})
	return s.closeErr
}
