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

// waitGuard bounds waits for what should happen at once; it only ever
// turns a hang into a failure.
const waitGuard = 10 * time.Second

// TestEndOfInputAnswersRequestsRead closes the input of a stream session
// while a request it read is still running: the request is answered and
// the answer written before the session ends, while a call the handler
// makes to the peer once the input has ended fails (no answer can come)
// with an error saying why.
func TestEndOfInputAnswersRequestsRead(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	release, started := make(chan struct{}), make(chan struct{})
	callErr := make(chan error, 1)
	h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
		if req.Method == "slow" {
			close(started)
			<-release
			callErr <- req.Session.Call(ctx, "sampling/createMessage", nil, nil)
			if ctx.Err() != nil {
				return nil, context.Cause(ctx)
			}
		}
		return req.Method + " done", nil
	})
	s := session.New(transport.NewStream(inR, outW, nil), session.Options{
		Role: session.RoleServer, Handler: h, Logger: quiet, Version: protocol.LatestLegacyVersion,
	})
	lines := make(chan string, 8)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			if !strings.Contains(sc.Text(), `"method"`) { // answers only
				lines <- sc.Text()
			}
		}
	}()
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"slow"}`+"\n"+`{"jsonrpc":"2.0","id":2,"method":"quick"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	<-started
	inW.Close() // end of input, with call 1 in flight
	ended := make(chan error, 1)
	go func() { ended <- s.Wait() }()
	var got []string
	for len(got) < 1 {
		select {
		case l := <-lines:
			got = append(got, l)
		case <-time.After(waitGuard):
			t.Fatalf("no answer to call 2; got %q", got)
		}
	}
	close(release)
	select {
	case err := <-callErr:
		if !errors.Is(err, session.ErrClosed) || !errors.Is(err, io.EOF) {
			t.Errorf("call after end of input = %v, want ErrClosed and io.EOF", err)
		}
	case <-time.After(waitGuard):
		t.Fatal("the call to the peer did not fail after end of input")
	}
	for l := range lines {
		got = append(got, l)
	}
	if len(got) != 2 || !strings.Contains(strings.Join(got, "\n"), `"id":1,"result":"slow done"`) {
		t.Fatalf("output %q, want the answers to calls 1 and 2", got)
	}
	select {
	case err := <-ended:
		if err != nil {
			t.Fatalf("Wait = %v, want nil", err)
		}
	case <-time.After(waitGuard):
		t.Fatal("the session did not end after answering")
	}
	if !errors.Is(s.Err(), io.EOF) {
		t.Fatalf("Err = %v, want io.EOF", s.Err())
	}
	s.Close()
}

// TestEndOfInputDrainTimeout checks that a handler still running when the
// drain timeout after end of input elapses is cancelled and the session
// ends; a negative timeout cancels it at once.
func TestEndOfInputDrainTimeout(t *testing.T) {
	t.Parallel()
	for _, d := range []time.Duration{20 * time.Millisecond, -1} {
		inR, inW := io.Pipe()
		started, cause := make(chan struct{}), make(chan error, 1)
		h := session.HandlerFunc(func(ctx context.Context, req *session.Request) (any, error) {
			close(started)
			<-ctx.Done() // until the session gives up on it
			cause <- context.Cause(ctx)
			return nil, ctx.Err()
		})
		s := session.New(transport.NewStream(inR, io.Discard, nil), session.Options{
			Role: session.RoleServer, Handler: h, Logger: quiet, Version: protocol.LatestLegacyVersion, DrainTimeout: d,
		})
		if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"stuck"}`+"\n"); err != nil {
			t.Fatal(err)
		}
		<-started
		inW.Close()
		select {
		case err := <-cause:
			if !errors.Is(err, session.ErrClosed) || !errors.Is(err, io.EOF) {
				t.Errorf("DrainTimeout %v: handler's cause = %v, want ErrClosed and io.EOF", d, err)
			}
		case <-time.After(waitGuard):
			t.Fatalf("DrainTimeout %v: the handler was not cancelled", d)
		}
		if err := s.Wait(); err != nil {
			t.Errorf("DrainTimeout %v: Wait = %v", d, err)
		}
		s.Close()
	}
}
