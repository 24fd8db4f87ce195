package fastmcp_test

import (
	"bufio"
	"context"
	"io"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/proxy"
	"github.com/fastmcp-go/fastmcp/transport"
)

// ackHookConn calls onAck right after it has written a listen's
// acknowledgment.
type ackHookConn struct {
	transport.Conn
	onAck func()
}

func (c *ackHookConn) Write(ctx context.Context, m protocol.Message) error {
	err := c.Conn.Write(ctx, m)
	if r, ok := m.(*protocol.Request); ok && r.Method == protocol.NotificationSubscriptionsAcknowledged {
		c.onAck()
	}
	return err
}

// TestListenChangeRightAfterAck: a change notified as soon as a listen's
// acknowledgment is out (the client has been told it is subscribed)
// reaches the listen stream, after the acknowledgment.
func TestListenChangeRightAfterAck(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("t", func() string { return "" }) // tools, and so tools/list_changed
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	conn := &ackHookConn{Conn: transport.NewStream(inR, outW, nil), onAck: func() {
		// The change, from another goroutine, as a client reacting to the
		// acknowledgment would cause it. Waited for a moment: the
		// notification must not be lost for arriving this early, nor
		// overtake the acknowledgment.
		done := make(chan struct{})
		go func() { s.NotifyToolsChanged(); close(done) }()
		select {
		case <-done:
		case <-time.After(200 * time.Millisecond):
		}
	}}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, conn) }()
	t.Cleanup(func() { cancel(); <-served })
	lines := make(chan string, 16)
	go func() { // ends when outR is closed
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
	for _, want := range []string{protocol.NotificationSubscriptionsAcknowledged, protocol.NotificationToolsListChanged} {
		select {
		case l := <-lines:
			m, err := protocol.DecodeMessage([]byte(l))
			if n, ok := m.(*protocol.Request); err != nil || !ok || n.Method != want {
				t.Fatalf("got %s, want %s", l, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no %s within 5 s", want)
		}
	}
}

// TestProxyListenLeavesOutRefusedURIs: a listen through a Proxy following a
// resource its backend refuses to subscribe to is acknowledged without it:
// the client learns it is not followed.
func TestProxyListenLeavesOutRefusedURIs(t *testing.T) {
	t.Parallel()
	backend, _ := proxyBackendServer(t)
	s := proxy.New(connect(t, backend, legacy, client.WithRequestForwarding()), fastmcp.Logger(quietLogger))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, transport.NewStream(inR, outW, nil)) }()
	t.Cleanup(func() { cancel(); <-served })
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","id":7,"method":"subscriptions/listen","params":{"_meta":{`+
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},`+
		`"notifications":{"resourceSubscriptions":["file:///a.txt","file:///nope"]}}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(outR)
	if !sc.Scan() {
		t.Fatalf("no acknowledgment: %v", sc.Err())
	}
	var ack struct {
		Method string `json:"method"`
		Params struct {
			Notifications protocol.SubscriptionFilter `json:"notifications"`
		} `json:"params"`
	}
	if err := protocol.Unmarshal(sc.Bytes(), &ack); err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = io.Copy(io.Discard, outR) }() // the listen's end; ends when outR is closed
	if got := ack.Params.Notifications.ResourceSubscriptions; ack.Method != protocol.NotificationSubscriptionsAcknowledged ||
		len(got) != 1 || got[0] != "file:///a.txt" {
		t.Fatalf("acknowledgment = %s, want file:///a.txt alone followed", sc.Text())
	}
}
