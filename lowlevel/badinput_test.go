package lowlevel_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// stdioServer serves a lowlevel server over a newline-delimited stream
// backed by pipes, as a stdio server would be, and returns the peer's ends.
func stdioServer(t *testing.T, srv *lowlevel.Server, opts *transport.StreamOptions) (in io.WriteCloser, out *bufio.Reader, done <-chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	errc := make(chan error, 1)
	stopped := make(chan struct{})
	go func() {
		errc <- srv.ServeConn(context.Background(), transport.NewStream(inR, outW, opts))
		close(stopped)
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
		select {
		case <-stopped:
		case <-time.After(5 * time.Second):
			t.Error("server did not stop after stdin closed")
		}
	})
	return inW, bufio.NewReader(outR), errc
}

func readLine(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	type res struct {
		s   string
		err error
	}
	c := make(chan res, 1)
	go func() { s, err := r.ReadString('\n'); c <- res{s, err} }()
	select {
	case r := <-c:
		if r.err != nil {
			t.Fatalf("reading response: %v", r.err)
		}
		return strings.TrimSuffix(r.s, "\n")
	case <-time.After(5 * time.Second):
		t.Fatal("no response")
		return ""
	}
}

func newServer() *lowlevel.Server {
	return lowlevel.NewServer(protocol.Implementation{Name: "t", Version: "1"}, &lowlevel.Options{Logger: slog.New(slog.DiscardHandler)})
}

func TestBadInputOverStdio(t *testing.T) {
	t.Parallel()
	const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	const ping = `{"jsonrpc":"2.0","id":"p","method":"ping"}`
	cases := []struct {
		name, line, want string // want: exact response line, "" for none
	}{
		{"invalid JSON", `{"jsonrpc":`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: invalid JSON"}}`},
		{"not an object", `1`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message must be a JSON object"}}`},
		{"batch on 2025-11-25", `[1,2]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: JSON-RPC batches are only supported on protocol revision 2025-03-26, not on 2025-11-25"}}`},
		{"string", `"hello"`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message must be a JSON object"}}`},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}}`},
		{"missing jsonrpc", `{"id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: missing \"jsonrpc\" member"}}`},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: id must be a string or a number"}}`},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: id must be a string or a number"}}`},
		{"method not a string", `{"jsonrpc":"2.0","id":2,"method":42}`, `{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: \"method\" must be a string"}}`},
		{"case variant Method", `{"jsonrpc":"2.0","id":3,"Method":"ping"}`, `{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: missing \"method\" member"}}`},
		{"duplicate member", `{"jsonrpc":"2.0","id":4,"method":"ping","method":"x"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: duplicate member name"}}`},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"p\xffing\"}", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: invalid JSON"}}`},
		{"params not structured", `{"jsonrpc":"2.0","id":6,"method":"ping","params":3}`, `{"jsonrpc":"2.0","id":6,"error":{"code":-32600,"message":"Invalid Request: \"params\" must be an object or an array"}}`},
		{"blank line", ``, ``},
		{"whitespace line", "   \t", ``},
		{"notification with unknown method", `{"jsonrpc":"2.0","method":"no/such"}`, ``},
		{"unknown method", `{"jsonrpc":"2.0","id":7,"method":"no/such"}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found: no/such"}}`},
		{"bad setLevel", `{"jsonrpc":"2.0","id":8,"method":"logging/setLevel","params":{"level":"loud"}}`, `{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"Invalid params: unknown logging level \"loud\""}}`},
		{"CRLF line", "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\r", `{"jsonrpc":"2.0","id":9,"result":{}}`},
	}
	in, out, _ := stdioServer(t, newServer(), nil)
	io.WriteString(in, initialize+"\n")
	if got := readLine(t, out); !strings.Contains(got, `"protocolVersion":"2025-11-25"`) {
		t.Fatalf("initialize answer = %s", got)
	}
	for _, tc := range cases {
		io.WriteString(in, tc.line+"\n")
		if tc.want != "" {
			if got := readLine(t, out); got != tc.want {
				t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
			}
		}
		// After each bad input the server still answers ping, and nothing
		// else was written for inputs that get no answer.
		io.WriteString(in, ping+"\n")
		if got := readLine(t, out); got != `{"jsonrpc":"2.0","id":"p","result":{}}` {
			t.Errorf("%s: ping afterwards answered %s", tc.name, got)
		}
	}
}

func TestOversizedLine(t *testing.T) {
	t.Parallel()
	in, out, _ := stdioServer(t, newServer(), &transport.StreamOptions{MaxMessageSize: 1024})
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 5000) + `"}}`
	io.WriteString(in, big+"\n")
	got := readLine(t, out)
	if !strings.Contains(got, `"code":-32600`) || !strings.Contains(got, "1024-byte limit") || !strings.Contains(got, `"id":1,`) {
		t.Fatalf("oversized line answered %s", got)
	}
	io.WriteString(in, `{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n")
	if got := readLine(t, out); got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Fatalf("ping after oversized line: %s", got)
	}
}

func TestStdinCloseStopsServer(t *testing.T) {
	t.Parallel()
	in, _, done := stdioServer(t, newServer(), nil)
	in.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ServeConn = %v, want nil after stdin closed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("server did not stop promptly after stdin closed")
	}
}
