package transport_test

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// recordWriter records each Write call and reports it on wrote.
type recordWriter struct {
	mu    sync.Mutex
	calls []string
	wrote chan string
}

func newRecordWriter() *recordWriter { return &recordWriter{wrote: make(chan string, 100)} }

func (w *recordWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.calls = append(w.calls, string(p))
	w.mu.Unlock()
	w.wrote <- string(p)
	return len(p), nil
}

func (w *recordWriter) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.calls)
}

func response(id int64) *protocol.Response {
	return &protocol.Response{ID: protocol.Int64ID(id), Result: []byte(`{}`)}
}

func callLine(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` + "\n"
}

// TestStreamBatchesWritesWhileInputIsBuffered checks that messages written
// while the reader has more input buffered are held back and written in
// one call when the reader is about to wait for input again.
func TestStreamBatchesWritesWhileInputIsBuffered(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	w := newRecordWriter()
	s := transport.NewStream(pr, w, nil)
	defer s.Close()
	ctx := context.Background()
	go func() { _, _ = io.WriteString(pw, callLine("1")+callLine("2")+callLine("3")) }()
	for id := int64(1); id <= 3; id++ {
		if _, err := s.Read(ctx); err != nil {
			t.Fatal(err)
		}
		if id < 3 {
			if err := s.Write(ctx, response(id)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := w.count(); n != 0 {
		t.Fatalf("%d writes while the reader had input buffered, want 0", n)
	}
	// The reader has returned the last message it had: the batch ends, and
	// a write now goes out at once, with the messages held back.
	if err := s.Write(ctx, response(3)); err != nil {
		t.Fatal(err)
	}
	got := <-w.wrote
	want := `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":3,"result":{}}` + "\n"
	if got != want {
		t.Fatalf("wrote %q, want %q", got, want)
	}
}

// TestStreamFlushesBeforeReadWaits checks that output held back is
// written before Read waits for more input, and that writes while the
// reader waits go out at once.
func TestStreamFlushesBeforeReadWaits(t *testing.T) {
	pr, pw := io.Pipe()
	w := newRecordWriter()
	s := transport.NewStream(pr, w, nil)
	ctx := context.Background()
	go func() { _, _ = io.WriteString(pw, callLine("1")+callLine("2")) }()
	if _, err := s.Read(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, response(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Read(ctx); err != nil { // the last buffered message
		t.Fatal(err)
	}
	if n := w.count(); n != 0 {
		t.Fatalf("%d writes before the reader waits, want 0", n)
	}
	read := make(chan error, 1)
	go func() {
		_, err := s.Read(ctx) // waits for input: writes what is held back first
		read <- err
	}()
	if got := <-w.wrote; !strings.Contains(got, `"id":1`) {
		t.Fatalf("wrote %q, want the response to 1", got)
	}
	if err := s.Write(ctx, response(2)); err != nil { // the reader waits: written at once
		t.Fatal(err)
	}
	if got := <-w.wrote; !strings.Contains(got, `"id":2`) {
		t.Fatalf("wrote %q, want the response to 2", got)
	}
	pw.Close()
	if err := <-read; err != io.EOF {
		t.Fatalf("Read = %v, want EOF", err)
	}
	s.Close()
}

// TestStreamFlush checks that Flush writes the output held back, and that
// the output held back is written once it grows large.
func TestStreamFlush(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	w := newRecordWriter()
	s := transport.NewStream(pr, w, nil)
	defer s.Close()
	ctx := context.Background()
	go func() { _, _ = io.WriteString(pw, callLine("1")+callLine("2")) }()
	if _, err := s.Read(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, response(1)); err != nil {
		t.Fatal(err)
	}
	if n := w.count(); n != 0 {
		t.Fatalf("%d writes before Flush, want 0", n)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := w.count(); n != 1 {
		t.Fatalf("%d writes after Flush, want 1", n)
	}
	if err := s.Flush(); err != nil { // nothing held: no write
		t.Fatal(err)
	}
	big := &protocol.Response{ID: protocol.Int64ID(9), Result: []byte(`"` + strings.Repeat("x", 40<<10) + `"`)}
	if err := s.Write(ctx, big); err != nil {
		t.Fatal(err)
	}
	if n := w.count(); n != 2 {
		t.Fatalf("%d writes after a large write, want 2 (held output is bounded)", n)
	}
}

// TestStreamReadDoesNotWaitOnHeldOutput checks that the reading goroutine
// never writes the held output itself: with an output nobody reads yet (an
// unbuffered pipe, or a full OS pipe whose reader is itself busy writing to
// us), Read must still return the next message. Two sessions over io.Pipe
// pairs deadlocked when both readers flushed before reading.
func TestStreamReadDoesNotWaitOnHeldOutput(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := transport.NewStream(inR, outW, nil)
	read := holdThenRead(t, s, inW) // must reach the input although outR is not read
	if _, err := io.WriteString(inW, callLine("3")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-read:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Read waited for the held output to be written")
	}
	// The held response is written all the same, once someone reads.
	buf := make([]byte, 4096)
	n, err := outR.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(buf[:n]); !strings.Contains(got, `"id":1`) {
		t.Errorf("held output = %q, want the response to 1", got)
	}
	inW.Close()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestStreamCloseEndsHeldWrite checks that Close returns, and leaves no
// goroutine behind, while held output is being written to a peer that
// never reads.
func TestStreamCloseEndsHeldWrite(t *testing.T) {
	inR, inW := io.Pipe()
	_, outW := io.Pipe() // never read
	s := transport.NewStream(inR, outW, nil)
	read := holdThenRead(t, s, inW) // starts the write of the held output, then waits for input
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-read; err == nil {
		t.Error("Read after Close succeeded")
	}
}

// holdThenRead feeds s two calls at once through in, reads them, writing
// the answer to the first while the second is buffered (so it is held
// back), and starts a third Read, whose error it reports on the channel
// returned.
func holdThenRead(t *testing.T, s *transport.Stream, in io.Writer) <-chan error {
	t.Helper()
	ctx := context.Background()
	go func() { _, _ = io.WriteString(in, callLine("1")+callLine("2")) }()
	if _, err := s.Read(ctx); err != nil { // line 2 is buffered: writes are held
		t.Fatal(err)
	}
	if err := s.Write(ctx, response(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Read(ctx); err != nil {
		t.Fatal(err)
	}
	read := make(chan error, 1)
	go func() {
		_, err := s.Read(ctx)
		read <- err
	}()
	return read
}
