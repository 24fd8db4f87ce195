package fastmcp_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// TestClientThatStopsReading: calls on one session whose client never
// reads the (6 MiB) answers no longer pin them: past WriteTimeout without
// progress the server drops each response stream, and the heap falls back
// to about what the session's event store keeps. Over real sockets; not
// parallel, since it reads the process's heap.
func TestClientThatStopsReading(t *testing.T) {
	const calls, size = 10, 6 << 20
	ln := listenLoopback(t)
	s := newServer(fastmcp.WriteTimeout(300*time.Millisecond), fastmcp.Listener(ln))
	big := strings.Repeat("x", size)
	s.Tool("big", func() string { return big }, fastmcp.Description("a large answer"))
	sv := serveOn(t, s, ln)
	addr := strings.TrimPrefix(sv.base, "http://")

	// A session, set up by a client that reads.
	req, _ := http.NewRequest("POST", sv.base+"/mcp", strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`, protocol.LatestLegacyVersion)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	sid := resp.Header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatalf("initialize: %d, no session id", resp.StatusCode)
	}
	if code, _ := post(t, sv.base+"/mcp", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": protocol.LatestLegacyVersion}); code != http.StatusAccepted {
		t.Fatalf("initialized: %d", code)
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	base := heap()

	// Calls whose answers are never read, each on a connection of its own
	// with a small receive buffer.
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range calls {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.(*net.TCPConn).SetReadBuffer(4 << 10)
		conns = append(conns, c)
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"big","arguments":{}}}`, i+1)
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: %s\r\nMCP-Protocol-Version: %s\r\nContent-Length: %d\r\n\r\n%s",
			addr, sid, protocol.LatestLegacyVersion, len(body), body)
	}
	// Wait until the server dropped the streams: the heap falls back to
	// within 3 answers of where it was (the event store keeps at most
	// 8 MiB of the session's events), where it held all 10 before.
	limit := base + 3*size
	var now uint64
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if now = heap(); now < limit {
			break
		}
	}
	if now >= limit {
		t.Fatalf("heap %d MB with %d unread answers of %d MB (was %d MB before the calls): the server still holds them", now>>20, calls, size>>20, base>>20)
	}
	// The server closed the connections it gave up on: what remains to
	// read ends (no hang).
	// No response stream is left writing to those connections (polled: a
	// stream another test's server is ending may still show for a moment).
	buf := make([]byte, 4<<20)
	n, began := 0, time.Now()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if n = strings.Count(string(buf[:runtime.Stack(buf, true)]), "transport.(*StreamableHandler).pump("); n == 0 {
			break
		}
	}
	t.Logf("response streams ended %v after the heap fell", time.Since(began).Round(time.Millisecond))
	if n > 0 {
		t.Errorf("%d response streams still write to clients that stopped reading", n)
	}
}
