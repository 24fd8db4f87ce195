package fastmcp_test

import (
	"bufio"
	"context"
	"io"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestServeShutdownEndsListenPromptly: when Serve's ctx ends (SIGTERM under
// Run on stdio), an open listen ends at once with its final result instead
// of holding the drain until the ShutdownTimeout.
func TestServeShutdownEndsListenPromptly(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.ShutdownTimeout(30 * time.Second))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, transport.NewStream(inR, outW, nil)) }()
	lines := make(chan string, 16)
	go func() { // owned by the test: ends when outR is closed
		defer close(lines)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"_meta":{`+
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},`+
		`"notifications":{"toolsListChanged":true}}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	read := func() protocol.Message {
		t.Helper()
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("output ended")
			}
			m, err := protocol.DecodeMessage([]byte(l))
			if err != nil {
				t.Fatalf("decoding %q: %v", l, err)
			}
			return m
		case <-time.After(5 * time.Second):
			t.Fatal("no message within 5s")
		}
		return nil
	}
	if n, ok := read().(*protocol.Request); !ok || n.Method != protocol.NotificationSubscriptionsAcknowledged {
		t.Fatalf("first message = %#v, want the acknowledgment", n)
	}
	began := time.Now()
	cancel()
	last, ok := read().(*protocol.Response)
	if !ok || last.Error != nil || last.ID.String() != "7" {
		t.Fatalf("after shutdown: %#v, want the result of request 7", last)
	}
	var res protocol.SubscriptionsListenResult
	if err := protocol.Unmarshal(last.Result, &res); err != nil || res.ResultType != protocol.ResultTypeComplete {
		t.Fatalf("final result %s (%v), want resultType complete", last.Result, err)
	}
	select {
	case err := <-done:
		t.Logf("Serve returned %v after shutdown with an open listen", time.Since(began))
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return within 5s of shutdown")
	}
}
