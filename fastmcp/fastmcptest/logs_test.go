package fastmcptest_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
)

// recordingTB is a testing.TB whose Log calls and cleanups are its own:
// it records the lines, runs the cleanups when end is called, and notes a
// Log after that (where testing panics: "Log in goroutine after Test has
// completed").
type recordingTB struct {
	testing.TB // the real test, for Helper, Fatalf and the rest
	mu         sync.Mutex
	lines      []string
	cleanups   []func()
	ended      bool
	late       []string
}

func (r *recordingTB) Log(args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	line := fmt.Sprint(args...)
	if r.ended {
		r.late = append(r.late, line)
		return
	}
	r.lines = append(r.lines, line)
}

func (r *recordingTB) Cleanup(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cleanups = append(r.cleanups, f)
}

// end runs the cleanups, last first, as testing does, then marks the test
// as over.
func (r *recordingTB) end() {
	r.mu.Lock()
	cleanups := r.cleanups
	r.cleanups = nil
	r.mu.Unlock()
	for _, f := range slices.Backward(cleanups) {
		f()
	}
	r.mu.Lock()
	r.ended = true
	r.mu.Unlock()
}

func (r *recordingTB) logged(substr string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.ContainsFunc(r.lines, func(l string) bool { return strings.Contains(l, substr) })
}

// TestServerLogsReachTheTest: what the server logs while a test's client
// is connected — a handler's ctx.Info, the server's own logger — reaches
// that test's t.Log, over memory and HTTP, and nothing reaches it once the
// test is over. Before, the lines went to standard error, unattributed.
func TestServerLogsReachTheTest(t *testing.T) {
	for _, tc := range []struct {
		name    string
		connect func(tb testing.TB, s *fastmcp.Server) *client.Client
	}{
		{"memory", func(tb testing.TB, s *fastmcp.Server) *client.Client { return fastmcptest.NewClient(tb, s) }},
		{"http", func(tb testing.TB, s *fastmcp.Server) *client.Client { return fastmcptest.NewHTTPClient(tb, s) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := fastmcp.New("calc", "1.0.0") // the default logger
			s.Tool("add", func(ctx *fastmcp.Context, in addArgs) int {
				ctx.Info("adding", "a", in.A, "b", in.B)
				return in.A + in.B
			})
			rec := &recordingTB{TB: t}
			c := tc.connect(rec, s)
			fastmcptest.NewClient(rec, s) // a second client: the lines are not doubled
			if _, err := c.CallTool(ctxT(t), "add", addArgs{A: 2, B: 3}); err != nil {
				t.Fatal(err)
			}
			s.Logger().Info("the server's own line")
			rec.end()
			s.Logger().Info("after the test: to standard error")

			for _, want := range []string{`level=INFO msg=adding tool=add`, `a=2 b=3`, `level=INFO msg="the server's own line"`} {
				if !rec.logged(want) {
					t.Errorf("no line with %q reached t.Log; got:\n%s", want, strings.Join(rec.lines, "\n"))
				}
			}
			n := 0
			for _, l := range rec.lines {
				if !strings.HasPrefix(l, "server: ") {
					t.Errorf("line %q does not say it is the server's", l)
				}
				if strings.Contains(l, "msg=adding") {
					n++
				}
			}
			if n != 1 {
				t.Errorf("the ctx.Info line reached t.Log %d times, want 1", n)
			}
			if len(rec.late) > 0 {
				t.Errorf("t.Log called after the test ended: %q", rec.late)
			}
		})
	}
}

// TestLogger: fastmcptest.Logger writes to t.Log, and not after the test.
func TestLogger(t *testing.T) {
	rec := &recordingTB{TB: t}
	l := fastmcptest.Logger(rec)
	l.Info("hello", "n", 1)
	rec.end()
	l.Info("late")
	if !rec.logged(`level=INFO msg=hello n=1`) || len(rec.late) > 0 {
		t.Errorf("lines %q, late %q", rec.lines, rec.late)
	}
}
