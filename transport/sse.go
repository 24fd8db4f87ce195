package transport

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// This file holds the Server-Sent Events wire format
// (https://html.spec.whatwg.org/multipage/server-sent-events.html): the
// framing written by the server handlers and the parser used by the clients.

// sseEvent is one event read from a stream.
type sseEvent struct {
	// Type is the event field ("" means "message").
	Type string
	// Data is the data buffer without its final newline. It is valid until
	// the next call to next.
	Data []byte
	// ID is the stream's last event id after this event (ids persist from
	// event to event, as the standard says).
	ID string
	// HasID reports whether this event's own block carried an id field.
	HasID bool
	// Retry is the reconnection time set in this event's block, or 0.
	Retry time.Duration
	// TooLarge is set, and Data empty, when the event's data was over the
	// size limit: the event was skipped, and TooLarge says what its message
	// was (its id, whether it was a response), as far as a scan could tell.
	TooLarge *protocol.DecodeError
}

// message decodes the JSON-RPC message the event carries, for a client to
// hand to Read. It reports false for an event that carries none: one with
// no data (a priming event, or one over the size limit), one of another
// type than "message", or one whose data is not a JSON-RPC message, which
// is logged to logger and skipped.
func (ev *sseEvent) message(logger *slog.Logger) (protocol.Message, bool) {
	if len(ev.Data) == 0 || (ev.Type != "" && ev.Type != "message") {
		return nil, false
	}
	msg, err := protocol.DecodeMessage(ev.Data)
	if err != nil {
		logger.Warn("ignoring malformed message from MCP server", "error", err)
		return nil, false
	}
	return msg, true
}

// errLineSkipped is readLine's report of a line over the limit, which is
// not kept (a data line goes to the event's scan).
var errLineSkipped = errors.New("transport: SSE line over the size limit")

// sseReader parses an event stream. Unlike a browser it also returns
// events whose data is empty (the priming events of SEP-1699), so that the
// caller sees their id and retry fields; such events must not be handed to
// the application.
type sseReader struct {
	r      *bufio.Reader
	max    int
	line   []byte
	data   []byte
	lastID string
	skipLF bool // the previous line ended with CR: a following LF belongs to it
	bom    bool // the byte order mark has been dealt with

	// An event whose data goes over the limit is not kept: over is set and
	// scan follows its data, to tell the event's message id.
	over bool
	scan topScan
}

func newSSEReader(r io.Reader, max int) *sseReader {
	if max <= 0 {
		max = DefaultMaxMessageSize
	}
	return &sseReader{r: bufio.NewReaderSize(r, 16<<10), max: max}
}

// readLine returns the next line without its terminator (CRLF, LF or CR).
// The slice is reused by the next call. A line longer than the limit is not
// kept: it is consumed, a data line's value going to s.scan (see overflow),
// and errLineSkipped is returned. At EOF an unterminated final line is
// dropped, as the standard says, and io.EOF is returned.
func (s *sseReader) readLine() ([]byte, error) {
	s.line = s.line[:0]
	if s.skipLF {
		s.skipLF = false
		b, err := s.r.Peek(1)
		if err != nil {
			return nil, err
		}
		if b[0] == '\n' {
			_, _ = s.r.Discard(1)
		}
	}
	if !s.bom {
		s.bom = true
		if b, err := s.r.Peek(1); err == nil && b[0] == 0xef {
			if b, err := s.r.Peek(3); err == nil && string(b) == "\xef\xbb\xbf" {
				_, _ = s.r.Discard(3)
			}
		}
	}
	long := false // the line is over the limit
	data := false // ... and is a data line
	for {
		n := s.r.Buffered()
		if n == 0 {
			if _, err := s.r.Peek(1); err != nil {
				return nil, err
			}
			n = s.r.Buffered()
		}
		buf, _ := s.r.Peek(n)
		i := bytes.IndexAny(buf, "\r\n")
		chunk := buf
		if i >= 0 {
			chunk = buf[:i]
		}
		switch {
		case long:
			if data {
				s.scan.write(chunk)
			}
		case len(s.line)+len(chunk) > s.max:
			long = true
			s.line = append(s.line, chunk...)
			if field, value := splitField(s.line); string(field) == "data" {
				data = true
				s.overflow(value)
			}
			s.line = s.line[:0]
		default:
			s.line = append(s.line, chunk...)
		}
		if i < 0 {
			_, _ = s.r.Discard(len(buf))
			continue
		}
		s.skipLF = buf[i] == '\r'
		_, _ = s.r.Discard(i + 1)
		if long {
			if data {
				s.scan.write(newline)
			}
			return nil, errLineSkipped
		}
		return s.line, nil
	}
}

var newline = []byte{'\n'}

// splitField splits a line into its field name and value.
func splitField(line []byte) (field, value []byte) {
	field = line
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		field, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	return field, value
}

// overflow marks the event being read as over the limit: its data so far,
// then value (the start of the data line being read), go to s.scan instead
// of s.data.
func (s *sseReader) overflow(value []byte) {
	if !s.over {
		s.over = true
		s.scan.reset()
		s.scan.write(s.data)
		s.data = s.data[:0]
	}
	s.scan.write(value)
}

// next returns the next event. Comments are skipped. At the end of the
// stream it returns io.EOF (an incomplete final event is discarded).
func (s *sseReader) next() (sseEvent, error) {
	var ev sseEvent
	s.data = s.data[:0]
	s.over = false
	hasData := false
	for {
		line, err := s.readLine()
		if errors.Is(err, errLineSkipped) {
			hasData = hasData || s.over
			continue
		}
		if err != nil {
			return sseEvent{}, err
		}
		if len(line) == 0 {
			if !hasData && !ev.HasID && ev.Retry == 0 && ev.Type == "" {
				continue // a blank line with nothing pending
			}
			ev.ID = s.lastID
			if s.over {
				s.over = false
				ev.TooLarge = s.scan.tooLarge(s.max)
				return ev, nil
			}
			ev.Data = s.data
			if len(ev.Data) > 0 && ev.Data[len(ev.Data)-1] == '\n' {
				ev.Data = ev.Data[:len(ev.Data)-1]
			}
			return ev, nil
		}
		if line[0] == ':' {
			continue // comment
		}
		field, value := splitField(line)
		switch string(field) {
		case "event":
			ev.Type = string(value)
		case "data":
			switch {
			case s.over:
				s.scan.write(value)
				s.scan.write(newline)
			case len(s.data)+len(value)+1 > s.max:
				s.overflow(value)
				s.scan.write(newline)
			default:
				s.data = append(s.data, value...)
				s.data = append(s.data, '\n')
			}
			hasData = true
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				s.lastID = string(value)
				ev.HasID = true
			}
		case "retry":
			if ms, ok := parseDigits(value); ok {
				ev.Retry = time.Duration(ms) * time.Millisecond
				if ev.Retry == 0 {
					ev.Retry = time.Nanosecond // "retry: 0" still counts as set
				}
			}
		}
	}
}

// parseDigits parses ASCII digits only, as the retry field requires.
func parseDigits(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 12 {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	return n, err == nil
}

// appendSSEMessage appends an SSE event carrying one JSON-RPC message:
// an optional id line, "event: message" and the data. JSON text never
// needs a line break (whitespace is insignificant and strings cannot hold a
// raw newline), so any CR or LF in data is written as a space and the
// message stays on one data line, which some clients require.
func appendSSEMessage(b []byte, id string, data []byte) []byte {
	if id != "" {
		b = append(b, "id: "...)
		b = append(b, id...)
		b = append(b, '\n')
	}
	b = append(b, "event: message\ndata: "...)
	start := len(b)
	b = append(b, data...)
	for i := start; i < len(b); i++ {
		if b[i] == '\n' || b[i] == '\r' {
			b[i] = ' '
		}
	}
	return append(b, "\n\n"...)
}

// appendSSEEvent appends an event with the given type and text data; every
// line of data becomes its own data line.
func appendSSEEvent(b []byte, typ, data string) []byte {
	if typ != "" {
		b = append(b, "event: "...)
		b = append(b, typ...)
		b = append(b, '\n')
	}
	for {
		i := indexLineBreak(data)
		b = append(b, "data: "...)
		if i < 0 {
			b = append(b, data...)
			b = append(b, '\n')
			break
		}
		b = append(b, data[:i]...)
		b = append(b, '\n')
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	return append(b, '\n')
}

func indexLineBreak(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' || s[i] == '\r' {
			return i
		}
	}
	return -1
}

// appendSSEEventID appends the id line of event seq of a Streamable HTTP
// stream: "id: <stream>_<seq>" (see parseEventID).
func appendSSEEventID(b []byte, stream string, seq int64) []byte {
	b = append(b, "id: "...)
	b = append(b, stream...)
	b = append(b, '_')
	b = strconv.AppendInt(b, seq, 10)
	return append(b, '\n')
}

// appendSSEPriming appends the priming event of SEP-1699: the id of event
// seq of stream, the reconnection time and empty data.
func appendSSEPriming(b []byte, stream string, seq int64, retry time.Duration) []byte {
	b = appendSSEEventID(b, stream, seq)
	b = appendSSERetry(b, retry)
	return append(b, "data: \n\n"...)
}

func appendSSERetry(b []byte, retry time.Duration) []byte {
	b = append(b, "retry: "...)
	b = strconv.AppendInt(b, retry.Milliseconds(), 10)
	return append(b, '\n')
}

var sseKeepAlive = []byte(": keep-alive\n\n")
