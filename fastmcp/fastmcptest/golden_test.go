package fastmcptest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
)

// TestRecordGolden records a session in each era and compares it with
// testdata/exchange_<revision>.txtar (run with -update to rewrite them).
func TestRecordGolden(t *testing.T) {
	t.Parallel()
	for _, v := range fastmcptest.Versions() {
		t.Run(v, func(t *testing.T) {
			t.Parallel()
			c, tr := fastmcptest.Record(t, newServer(), client.WithProtocolVersion(v), yes,
				client.WithLogLevel("info"))
			exercise(t, c, v)
			if strings.Contains(tr.String(), `"requestState":"AAAA`) {
				t.Errorf("requestState is not masked:\n%s", tr)
			}
			file := filepath.Join("testdata", "exchange_"+v+".txtar")
			tr.CheckGolden(t, file, *update)
			if v == fastmcptest.Legacy {
				// The recording plays back, requests to the client included
				// (a modern one would not: its requestState is masked).
				fastmcptest.Replay(t, file, newServer().Serve, nil)
			}
		})
	}
}

// fakeTB records what a helper reports instead of failing the test.
type fakeTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
	fatal  bool
}

func (f *fakeTB) Helper()             {}
func (f *fakeTB) Logf(string, ...any) {}
func (f *fakeTB) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.mu.Lock()
	f.fatal = true
	f.mu.Unlock()
	f.Errorf(format, args...)
	runtime.Goexit()
}

// report runs fn with a fakeTB, on a goroutine of its own for Fatalf.
func report(t *testing.T, fn func(tb testing.TB)) *fakeTB {
	f := &fakeTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	return f
}

// TestGoldenRoundTrip writes a golden transcript with update, checks a new
// recording against it, and replays it: a recorded transcript (without
// requests from the server to the client) is one Replay can play back.
func TestGoldenRoundTrip(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "sub", "add.txtar")
	record := func(s *fastmcp.Server) *fastmcptest.Transcript {
		c, tr := fastmcptest.Record(t, s, client.WithProtocolVersion(fastmcptest.Legacy))
		if _, err := c.CallTool(ctxT(t), "add", addArgs{A: 1, B: 2}); err != nil {
			t.Fatal(err)
		}
		return tr
	}
	if f := report(t, func(tb testing.TB) { record(newServer()).CheckGolden(tb, file, false) }); !f.fatal || !strings.Contains(f.errors[0], "run with -update to create it") {
		t.Errorf("a missing golden file without update: %q", f.errors)
	}
	record(newServer()).CheckGolden(t, file, true)
	if b, err := os.ReadFile(file); err != nil || !strings.Contains(string(b), "revision: 2025-11-25\n") {
		t.Fatalf("the golden file written: %s, %v", b, err)
	}
	record(newServer()).CheckGolden(t, file, false)
	fastmcptest.Replay(t, file, newServer().Serve, nil)

	// A server whose answer changed fails both, naming the line.
	changed := fastmcp.New("calc", "1.0.0")
	changed.Tool("add", func(in addArgs) int { return in.A + in.B + 1 }, fastmcp.Description("Add two integers"))
	f := report(t, func(tb testing.TB) { record(changed).CheckGolden(tb, file, false) })
	if len(f.errors) != 1 || !strings.Contains(f.errors[0], "line 5:") || !strings.Contains(f.errors[0], `"text":"4"`) {
		t.Errorf("CheckGolden on a changed server reported %q", f.errors)
	}
	f = report(t, func(tb testing.TB) { fastmcptest.Replay(tb, file, changed.Serve, nil) })
	if len(f.errors) != 1 || !strings.Contains(f.errors[0], "line 5:") || !strings.Contains(f.errors[0], `"text":"4"`) {
		t.Errorf("Replay on a changed server reported %q", f.errors)
	}
	// Update accepts the change.
	fastmcptest.Replay(t, file, changed.Serve, &fastmcptest.ReplayOptions{Update: true})
	record(changed).CheckGolden(t, file, false)

	// A golden file for another revision fails.
	f = report(t, func(tb testing.TB) {
		c, tr := fastmcptest.Record(t, changed)
		if _, err := c.CallTool(ctxT(t), "add", addArgs{A: 1, B: 2}); err != nil {
			t.Error(err)
		}
		tr.CheckGolden(tb, file, false)
	})
	if len(f.errors) == 0 || !strings.Contains(f.errors[0], `names revision "2025-11-25" but the client spoke 2026-07-28`) {
		t.Errorf("CheckGolden of another revision reported %q", f.errors)
	}
}

// TestReplayCheck checks that Replay waits for the server's notifications
// and its answer to each line, and hands each server line, with the method
// it answers, to the Check option.
func TestReplayCheck(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "check.txtar")
	const transcript = `A replayed transcript may send what no client would.

revision: 2025-11-25
-- wire --
> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
< {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"logging":{},"resources":{"subscribe":true,"listChanged":true},"tools":{"listChanged":true}},"serverInfo":{"name":"calc","version":"1.0.0"}}}
> {"jsonrpc":"2.0","method":"notifications/initialized"}
# Not JSON.
> {"jsonrpc":
< {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: invalid JSON"}}
> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}
< {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"add","data":"adding"}}
< {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"3"}],"structuredContent":{"result":3}}}
`
	if err := os.WriteFile(file, []byte(transcript), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	fastmcptest.Replay(t, file, newServer().Serve, &fastmcptest.ReplayOptions{
		Check: func(t testing.TB, revision, method string, line []byte) {
			got = append(got, revision+" "+method)
		},
	})
	want := []string{"2025-11-25 initialize", "2025-11-25 ", "2025-11-25 ", "2025-11-25 tools/call"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("Check saw %q, want %q", got, want)
	}
}

func TestMask(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, line, want string
		names            []string
	}{
		{"none", `{"a":1}`, `{"a":1}`, []string{"b"}},
		{"top", `{"a":1,"b":"x"}`, `{"a":1,"b":"<b>"}`, []string{"b"}},
		{"nested in arrays", `{"x":[{"b":{"c":1}},{"b":[1,2]}]}`, `{"x":[{"b":"<b>"},{"b":"<b>"}]}`, []string{"b"}},
		{"several names", `{"a":true,"b":null,"c":3}`, `{"a":"<a>","b":null,"c":"<c>"}`, []string{"a", "c"}},
		{"a value equal to a name is kept", `{"a":"b","c":["b"]}`, `{"a":"b","c":["b"]}`, []string{"b"}},
		{"escapes elsewhere kept", `{"t":"\u00e9\n","b":"x"}`, `{"t":"\u00e9\n","b":"<b>"}`, []string{"b"}},
		{"not JSON", `{"b":`, `{"b":`, []string{"b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fastmcptest.MaskLine(tc.line, tc.names...); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
