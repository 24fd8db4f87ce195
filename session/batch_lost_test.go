package session_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// streamClient starts a client session at protocol.BatchVersion over a
// Stream whose peer is the test: it returns the reader of what the client
// writes and the writer of what it reads.
func streamClient(t *testing.T, maxMessage int, h session.Handler) (*session.Session, *bufio.Reader, *io.PipeWriter) {
	t.Helper()
	s2cR, s2cW := io.Pipe()
	c2sR, c2sW := io.Pipe()
	conn := transport.NewStream(s2cR, c2sW, &transport.StreamOptions{MaxMessageSize: maxMessage})
	cli := session.New(conn, session.Options{Role: session.RoleClient, Logger: quiet, Version: protocol.BatchVersion, Handler: h})
	t.Cleanup(func() {
		s2cW.Close()
		c2sR.Close()
		cli.Close()
	})
	return cli, bufio.NewReader(c2sR), s2cW
}

// readBatchIDs reads the batch the client sent and returns its ids.
func readBatchIDs(t *testing.T, r *bufio.Reader) []protocol.ID {
	t.Helper()
	line, err := r.ReadBytes('\n')
	if err != nil {
		t.Errorf("reading the batch: %v", err)
		return nil
	}
	m, err := protocol.DecodeMessage(line[:len(line)-1])
	if err != nil {
		t.Errorf("decoding the batch: %v", err)
		return nil
	}
	b, ok := m.(*protocol.Batch)
	if !ok {
		t.Errorf("sent %#v, want a batch", m)
		return nil
	}
	var ids []protocol.ID
	for _, e := range b.Messages {
		ids = append(ids, e.(*protocol.Request).ID)
	}
	return ids
}

// TestBatchAnswerOverLimit checks that a call of a batch whose answer the
// transport lost (over the client's size limit) fails with the transport's
// error while the others get their results; the session and Batch go on.
func TestBatchAnswerOverLimit(t *testing.T) {
	t.Parallel()
	cli, r, w := streamClient(t, 1024, nil)
	calls := []*session.BatchCall{{Method: "a"}, {Method: "b"}}
	done := make(chan error, 1)
	go func() { done <- cli.Batch(context.Background(), calls) }()
	ids := readBatchIDs(t, r)
	if len(ids) != 2 {
		t.Fatalf("batch ids %v", ids)
	}
	big := `{"jsonrpc":"2.0","id":` + ids[1].Raw() + `,"result":{"text":"` + strings.Repeat("x", 4096) + `"}}`
	if _, err := io.WriteString(w, `{"jsonrpc":"2.0","id":`+ids[0].Raw()+`,"result":{}}`+"\n"+big+"\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Batch: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Batch did not return within 5 s")
	}
	if calls[0].Err != nil {
		t.Errorf("call a: %v, want nil", calls[0].Err)
	}
	if err := calls[1].Err; !errors.Is(err, transport.ErrMessageTooLarge) || !errors.Is(err, transport.ErrTransport) {
		t.Errorf("call b: %v, want ErrMessageTooLarge and ErrTransport", err)
	}
}

// TestBatchFailsAtEndOfInput checks that a batch waiting for its answers
// fails as soon as the peer's output ends (no answer can come any more),
// as Call does, not once the session's drain is over (here a request of
// the server's is still being handled, which holds the drain up to its
// timeout).
func TestBatchFailsAtEndOfInput(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	block := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	cli, r, w := streamClient(t, 0, block)
	if _, err := io.WriteString(w, `{"jsonrpc":"2.0","id":"s1","method":"roots/list"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	<-started
	calls := []*session.BatchCall{{Method: "a"}, {Method: "b"}}
	done := make(chan error, 1)
	go func() { done <- cli.Batch(context.Background(), calls) }()
	readBatchIDs(t, r)
	w.Close() // the server's output ends without an answer
	select {
	case err := <-done:
		if !errors.Is(err, session.ErrClosed) {
			t.Fatalf("Batch: %v, want ErrClosed", err)
		}
		for _, c := range calls {
			if !errors.Is(c.Err, session.ErrClosed) {
				t.Errorf("call %s: %v, want ErrClosed", c.Method, c.Err)
			}
		}
	case <-time.After(5 * time.Second): // the drain timeout is 10 s
		t.Fatal("Batch still waiting 5 s after the end of input")
	}
}
