package transport_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// waitGuard bounds how long a test waits for something that should happen at
// once; it is only ever a failure guard, never a way to synchronise.
const waitGuard = 10 * time.Second

// sampleMessages are the messages the framing tests send: small and large
// (larger than the stream's 64 KiB read buffer), with escaped newlines and
// carriage returns inside strings, and non-ASCII text.
func sampleMessages() []string {
	return []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":"a\nb\r","result":{"text":"line\nbreak\r\n é 😀"}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"big","arguments":{"pad":"` + strings.Repeat("0123456789", 10000) + `"}}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}`,
	}
}

// frame joins messages into a stream: sep ends each line, blank lines go
// between them when blanks is set, and the last line has no separator when
// open is set.
func frameLines(msgs []string, sep string, blanks, open bool) []byte {
	var b bytes.Buffer
	for i, m := range msgs {
		if blanks {
			b.WriteString(sep + "  \t" + sep)
		}
		b.WriteString(m)
		if i < len(msgs)-1 || !open {
			b.WriteString(sep)
		}
	}
	return b.Bytes()
}

// result is what one Read returned, as comparable text.
func readResult(m protocol.Message, err error) string {
	if err != nil {
		if de, ok := errors.AsType[*protocol.DecodeError](err); ok {
			return fmt.Sprintf("decode error %d", de.Err.Code)
		}
		return "error " + err.Error()
	}
	b, err := protocol.EncodeMessage(m)
	if err != nil {
		return "unencodable " + err.Error()
	}
	return string(b)
}

// readAll reads s until an error that is not a *protocol.DecodeError and
// returns each Read's result and that final error.
func readAll(t *testing.T, s transport.Conn) ([]string, error) {
	t.Helper()
	var got []string
	for range 100000 {
		m, err := s.Read(context.Background())
		if err != nil {
			if _, ok := errors.AsType[*protocol.DecodeError](err); !ok {
				return got, err
			}
		}
		got = append(got, readResult(m, err))
	}
	t.Fatal("Read never stopped")
	return nil, nil
}

// want returns the results that reading msgs should give.
func decodeEach(t *testing.T, msgs []string) []string {
	t.Helper()
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = readResult(protocol.DecodeMessage([]byte(m)))
	}
	return out
}

// chunkReader returns at most n bytes per Read.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(p) > c.n {
		p = p[:c.n]
	}
	return c.r.Read(p)
}

// lineSplitReader ends every Read right after a '\r' or a '\n', so that a
// "\r\n" always straddles two reads and no read holds two lines.
type lineSplitReader struct{ data []byte }

func (l *lineSplitReader) Read(p []byte) (int, error) {
	if len(l.data) == 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && n < len(l.data) {
		c := l.data[n]
		n++
		if c == '\r' || c == '\n' {
			break
		}
	}
	copy(p, l.data[:n])
	l.data = l.data[n:]
	return n, nil
}

// stutterReader alternates empty reads with one-byte reads.
type stutterReader struct {
	r     io.Reader
	empty bool
}

func (s *stutterReader) Read(p []byte) (int, error) {
	s.empty = !s.empty
	if s.empty {
		return 0, nil
	}
	if len(p) > 1 {
		p = p[:1]
	}
	return s.r.Read(p)
}

func TestStreamFraming(t *testing.T) {
	t.Parallel()
	readers := []struct {
		name string
		wrap func([]byte) io.Reader
	}{
		{"whole", func(b []byte) io.Reader { return bytes.NewReader(b) }},
		{"OneByteReader", func(b []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(b)) }},
		{"HalfReader", func(b []byte) io.Reader { return iotest.HalfReader(bytes.NewReader(b)) }},
		{"DataErrReader", func(b []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(b)) }},
		{"DataErrReader OneByteReader", func(b []byte) io.Reader {
			return iotest.DataErrReader(iotest.OneByteReader(bytes.NewReader(b)))
		}},
		{"chunks of 2", func(b []byte) io.Reader { return &chunkReader{bytes.NewReader(b), 2} }},
		{"chunks of 7", func(b []byte) io.Reader { return &chunkReader{bytes.NewReader(b), 7} }},
		{"chunks of 4093", func(b []byte) io.Reader { return &chunkReader{bytes.NewReader(b), 4093} }},
		{"split at line ends", func(b []byte) io.Reader { return &lineSplitReader{b} }},
		{"empty reads", func(b []byte) io.Reader { return &stutterReader{r: bytes.NewReader(b)} }},
	}
	framings := []struct {
		name          string
		sep           string
		blanks, final bool
	}{
		{"LF", "\n", false, false},
		{"CRLF", "\r\n", false, false},
		{"LF blank lines", "\n", true, false},
		{"CRLF blank lines", "\r\n", true, false},
		{"LF no final newline", "\n", false, true},
		{"CRLF no final newline", "\r\n", true, true},
	}
	msgs := sampleMessages()
	wantResults := decodeEach(t, msgs)
	for _, r := range readers {
		for _, f := range framings {
			t.Run(r.name+"/"+f.name, func(t *testing.T) {
				t.Parallel()
				s := transport.NewStream(r.wrap(frameLines(msgs, f.sep, f.blanks, f.final)), io.Discard, nil)
				got, err := readAll(t, s)
				if err != io.EOF {
					t.Errorf("final error %v, want io.EOF", err)
				}
				if !equalResults(got, wantResults) {
					t.Errorf("got %d results, want %d:\n%s", len(got), len(wantResults), diffResults(got, wantResults))
				}
			})
		}
	}
}

func equalResults(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func diffResults(got, want []string) string {
	var b strings.Builder
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			fmt.Fprintf(&b, "#%d\n  got  %.200s\n  want %.200s\n", i, g, w)
		}
	}
	return b.String()
}

// TestStreamTimeoutReader checks that a read error other than EOF reaches
// the caller as it is (not as a decode error), after every whole line read
// before it, and that EOF follows once the reader says so.
func TestStreamTimeoutReader(t *testing.T) {
	t.Parallel()
	msgs := sampleMessages()[:3]
	s := transport.NewStream(iotest.TimeoutReader(bytes.NewReader(frameLines(msgs, "\n", false, false))), io.Discard, nil)
	got, err := readAll(t, s)
	if !errors.Is(err, iotest.ErrTimeout) {
		t.Fatalf("error %v, want iotest.ErrTimeout", err)
	}
	if w := decodeEach(t, msgs); !equalResults(got, w) {
		t.Fatalf("before the timeout:\n%s", diffResults(got, w))
	}
	if _, err := s.Read(context.Background()); err != io.EOF {
		t.Fatalf("after the timeout: %v, want io.EOF", err)
	}
}

func TestStreamReaderError(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader(sampleMessages()[1]+"\n"+`{"jsonrpc":`), iotest.ErrReader(boom))
	s := transport.NewStream(r, io.Discard, nil)
	if m, err := s.Read(context.Background()); err != nil {
		t.Fatalf("first Read: %v, %v", m, err)
	}
	m, err := s.Read(context.Background())
	if !errors.Is(err, boom) {
		t.Fatalf("second Read: %v, %v; want boom", m, err)
	}
	if _, ok := errors.AsType[*protocol.DecodeError](err); ok {
		t.Fatalf("read failure reported as a decode error: %v", err)
	}
}

// lineOf returns a line of exactly n bytes: a valid message when n allows,
// else n bytes of invalid JSON.
func lineOf(n int) string {
	const head, tail = `{"jsonrpc":"2.0","method":"m","params":{"p":"`, `"}}`
	if n < len(head)+len(tail) {
		return strings.Repeat("x", n)
	}
	return head + strings.Repeat("y", n-len(head)-len(tail)) + tail
}

func TestStreamMaxMessageSize(t *testing.T) {
	t.Parallel()
	const tooBig = "decode error -32600"
	for _, limit := range []int{1, 10, 49, 50, 4096, 65535, 65536, 65537, 200_000} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			t.Parallel()
			ok := lineOf(limit)
			okResult := readResult(protocol.DecodeMessage([]byte(ok)))
			small := lineOf(min(limit, 60))
			smallResult := readResult(protocol.DecodeMessage([]byte(small)))
			in := strings.Join([]string{
				ok,                               // exactly the limit
				ok + "\r",                        // the limit, CRLF-framed
				lineOf(limit + 1),                // one byte over
				lineOf(limit+1) + "\r",           // one byte over, CRLF-framed
				small,                            // the stream goes on
				lineOf(3*limit + 70_000),         // far over, and over the read buffer
				small,                            // and goes on
				"", strings.Repeat(" ", limit+1), // a long blank line is still too long
				small,
				lineOf(limit + 1), // the final line, unterminated and over
			}, "\n")
			s := transport.NewStream(iotest.HalfReader(strings.NewReader(in)), io.Discard, &transport.StreamOptions{MaxMessageSize: limit})
			got, err := readAll(t, s)
			if err != io.EOF {
				t.Errorf("final error %v, want io.EOF", err)
			}
			w := []string{okResult, okResult, tooBig, tooBig, smallResult, tooBig, smallResult, tooBig, smallResult, tooBig}
			if !equalResults(got, w) {
				t.Errorf("limit %d:\n%s", limit, diffResults(got, w))
			}
		})
	}
}

func TestStreamMaxMessageSizeError(t *testing.T) {
	t.Parallel()
	s := transport.NewStream(strings.NewReader(lineOf(200)+"\n"), io.Discard, &transport.StreamOptions{MaxMessageSize: 100})
	_, err := s.Read(context.Background())
	de, ok := errors.AsType[*protocol.DecodeError](err)
	if !ok {
		t.Fatalf("error %T %v, want *protocol.DecodeError", err, err)
	}
	if de.Err.Code != protocol.CodeInvalidRequest || !strings.Contains(de.Err.Message, "100-byte limit") || de.ID.IsValid() {
		t.Fatalf("error %+v", de)
	}
}

// trickleWriter appends each Write to a shared buffer a few bytes at a
// time, yielding in between, so unsynchronised writers would interleave.
type trickleWriter struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *trickleWriter) Write(p []byte) (int, error) {
	for i := 0; i < len(p); i += 8 {
		w.mu.Lock()
		w.buf.Write(p[i:min(i+8, len(p))])
		w.mu.Unlock()
		runtime.Gosched()
	}
	return len(p), nil
}

func TestStreamConcurrentWrites(t *testing.T) {
	t.Parallel()
	const writers, each = 16, 100
	w := &trickleWriter{}
	s := transport.NewStream(strings.NewReader(""), w, nil)
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range each {
				id := protocol.StringID(fmt.Sprintf("%d-%d", g, i))
				params := json.RawMessage(fmt.Sprintf(`{"writer":%d,"n":%d,"pad":%q}`, g, i, strings.Repeat("z", 10*i)))
				if err := s.Write(context.Background(), &protocol.Request{ID: id, Method: "m", Params: params}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(w.buf.String(), "\n"), "\n")
	if len(lines) != writers*each {
		t.Fatalf("%d lines, want %d", len(lines), writers*each)
	}
	seen := map[protocol.ID]bool{}
	for _, line := range lines {
		m, err := protocol.DecodeMessage([]byte(line))
		if err != nil {
			t.Fatalf("line %.100q does not decode: %v", line, err)
		}
		r := m.(*protocol.Request)
		var p struct {
			Writer int    `json:"writer"`
			N      int    `json:"n"`
			Pad    string `json:"pad"`
		}
		if err := protocol.Unmarshal(r.Params, &p); err != nil || r.ID != protocol.StringID(fmt.Sprintf("%d-%d", p.Writer, p.N)) || len(p.Pad) != 10*p.N {
			t.Fatalf("garbled line %.100q (%v)", line, err)
		}
		if seen[r.ID] {
			t.Fatalf("id %v twice", r.ID)
		}
		seen[r.ID] = true
	}
}

// closeCounter records how often Close is called.
type closeCounter struct {
	io.Reader
	io.Writer
	mu     sync.Mutex
	closes int
}

func (c *closeCounter) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closes++
	return nil
}

func TestStreamCloseUnblocksRead(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pw.Close()
	s := transport.NewStream(pr, io.Discard, nil)
	// A first message proves the reader is running; the second Read then
	// waits on the pipe until Close.
	go io.WriteString(pw, sampleMessages()[1]+"\n")
	if _, err := s.Read(context.Background()); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := s.Read(context.Background())
		errc <- err
	}()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, transport.ErrClosed) {
			t.Fatalf("pending Read returned %v, want transport.ErrClosed", err)
		}
	case <-time.After(waitGuard):
		t.Fatal("Close did not unblock the pending Read")
	}
	if _, err := s.Read(context.Background()); !errors.Is(err, transport.ErrClosed) {
		t.Fatalf("Read after Close: %v, want transport.ErrClosed", err)
	}
	if _, err := io.WriteString(pw, "x\n"); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("the reader was not closed: write = %v", err)
	}
}

func TestStreamWriteAfterClose(t *testing.T) {
	t.Parallel()
	rc := &closeCounter{Reader: strings.NewReader("")}
	wc := &closeCounter{Writer: io.Discard}
	s := transport.NewStream(rc, wc, nil)
	msg := &protocol.Request{Method: "m"}
	if err := s.Write(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Write(context.Background(), msg); !errors.Is(err, transport.ErrClosed) {
		t.Fatalf("Write after Close = %v, want transport.ErrClosed", err)
	}
	if rc.closes != 1 || wc.closes != 1 {
		t.Fatalf("reader closed %d times, writer %d times; want once each", rc.closes, wc.closes)
	}
}

// failWriter fails every Write after the first n.
type failWriter struct {
	n   int
	buf bytes.Buffer
}

var errWrite = errors.New("disk on fire")

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errWrite
	}
	f.n--
	return f.buf.Write(p)
}

func TestStreamWriteErrors(t *testing.T) {
	t.Parallel()
	w := &failWriter{n: 2}
	s := transport.NewStream(strings.NewReader(""), w, nil)
	ctx := context.Background()
	// An unencodable message is refused before anything is written.
	if err := s.Write(ctx, &protocol.Request{Method: "bad \xff"}); err == nil || errors.Is(err, transport.ErrClosed) {
		t.Fatalf("Write of an unencodable message = %v", err)
	}
	if err := s.Write(ctx, &protocol.Response{ID: protocol.Int64ID(1)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, &protocol.Request{Method: "ok"}); err != nil {
		t.Fatal(err)
	}
	if got, want := w.buf.String(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n{\"jsonrpc\":\"2.0\",\"method\":\"ok\"}\n"; got != want {
		t.Fatalf("written %q, want %q", got, want)
	}
	if err := s.Write(ctx, &protocol.Request{Method: "ok"}); !errors.Is(err, errWrite) || errors.Is(err, transport.ErrClosed) {
		t.Fatalf("failed Write = %v, want one wrapping the writer's error", err)
	}
}

func TestStreamReadCancelledContext(t *testing.T) {
	t.Parallel()
	s := transport.NewStream(strings.NewReader(sampleMessages()[1]+"\n"), io.Discard, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Read(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Read with a cancelled ctx = %v", err)
	}
	// Nothing was consumed.
	if m, err := s.Read(context.Background()); err != nil || m.(*protocol.Request).Method != protocol.NotificationInitialized {
		t.Fatalf("Read = %v, %v", m, err)
	}
}

// FuzzStream feeds arbitrary bytes to a Stream, split into reads of
// arbitrary size, and checks that reading ends with io.EOF after at most one
// Read per line, that every other error is a *protocol.DecodeError, and that
// each result is what decoding that line on its own gives.
func FuzzStream(f *testing.F) {
	msgs := sampleMessages()
	f.Add(frameLines(msgs[:3], "\n", false, false), uint16(0), uint8(0))
	f.Add(frameLines(msgs[:3], "\r\n", true, true), uint16(40), uint8(1))
	f.Add([]byte("\n\r\n \n{\n}\n[]\nnull\n\"x\"\n"), uint16(3), uint8(3))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"x"}`+"\r\r\n"+`{"jsonrpc":"2.0","id":1,"method":"x"}`), uint16(37), uint8(5))
	f.Add([]byte("\xff\n\x00\n\r"), uint16(1), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, limit uint16, chunk uint8) {
		max := int(limit)
		if max == 0 {
			max = transport.DefaultMaxMessageSize
		}
		var r io.Reader = bytes.NewReader(data)
		if chunk > 0 {
			r = &chunkReader{r, int(chunk)}
		}
		s := transport.NewStream(r, io.Discard, &transport.StreamOptions{MaxMessageSize: int(limit)})
		wantResults := referenceRead(data, max)
		var got []string
		for range len(wantResults) + 1 {
			m, err := s.Read(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				if _, ok := err.(*protocol.DecodeError); !ok {
					t.Fatalf("Read error %T %v: want *protocol.DecodeError or io.EOF", err, err)
				}
			}
			got = append(got, readResult(m, err))
		}
		if !equalResults(got, wantResults) {
			t.Fatalf("input %q limit %d:\n%s", data, max, diffResults(got, wantResults))
		}
	})
}

// referenceRead is the framing rule stated plainly: split at '\n'; a line
// longer than max (less one trailing '\r') is an error; trailing '\r's are
// dropped; blank lines are skipped; every other line is decoded alone.
func referenceRead(data []byte, max int) []string {
	lines := bytes.Split(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1] // data ended with a newline, or was empty
	}
	var out []string
	for _, line := range lines {
		n := len(line)
		if n > 0 && line[n-1] == '\r' {
			n--
		}
		if n > max {
			out = append(out, "decode error -32600")
			continue
		}
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		out = append(out, readResult(protocol.DecodeMessage(line)))
	}
	return out
}
