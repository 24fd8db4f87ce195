package transport_test

import (
	"context"
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store"
	"github.com/fastmcp-go/fastmcp/transport"
)

// colorServer is a test server whose sessions keep a state the transport
// knows nothing of: a color, set by the custom method color/set and read
// by color/get, kept through transport.Shared. color/watch starts
// watching the changes other replicas make; they arrive on watched.
func colorServer(watched chan<- string) *lowlevel.Server {
	srv := newTestServer(nil, nil)
	shared := func(req *lowlevel.Request) (transport.SharedSession, error) {
		sh, ok := transport.Shared(req.Session.Conn())
		if !ok {
			return nil, errors.New("not a shared session")
		}
		return sh, nil
	}
	srv.HandleFunc("color/set", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		sh, err := shared(req)
		if err != nil {
			return nil, err
		}
		err = sh.SetState(ctx, "color", req.Params)
		if errors.Is(err, store.ErrSessionUnknown) {
			return nil, protocol.NewError(protocol.CodeInvalidRequest, "the session's record is gone")
		}
		return struct{}{}, err
	})
	srv.HandleFunc("color/invalid", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		sh, err := shared(req)
		if err != nil {
			return nil, err
		}
		if sh.SetState(ctx, "", json.RawMessage(`"x"`)) == nil || sh.SetState(ctx, "color", json.RawMessage(`{`)) == nil {
			return nil, errors.New("SetState took a member without a name, or a value that is not JSON")
		}
		return struct{}{}, nil
	})
	srv.HandleFunc("color/get", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		sh, err := shared(req)
		if err != nil {
			return nil, err
		}
		return map[string]json.RawMessage{"color": sh.State("color")}, nil
	})
	srv.HandleFunc("color/watch", func(ctx context.Context, req *lowlevel.Request) (any, error) {
		sh, err := shared(req)
		if err != nil {
			return nil, err
		}
		sh.Watch(func(name string, v json.RawMessage) { watched <- name + "=" + string(v) })
		return struct{}{}, nil
	})
	return srv
}

// TestSharedSessionState: state the server side keeps through
// transport.Shared, with a method the transport has never heard of, lives
// with the session: the replica setting it has it, another replica
// serving the session is told (its watchers get it, once), a replica
// adopting the session later reads it from the record, and the record
// holds it.
func TestSharedSessionState(t *testing.T) {
	t.Parallel()
	watched := make(chan string, 16)
	c := newCluster(t, 3, &clusterOptions{server: func() *lowlevel.Server { return colorServer(watched) }})
	a, b, third := c.replicas[0], c.replicas[1], c.replicas[2]
	sid := rawSession(t, a.url)
	hdr := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	call := func(rep *replica, id int, method, params string) string {
		t.Helper()
		body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method + `"`
		if params != "" {
			body += `,"params":` + params
		}
		resp, out := rawPost(t, rep.url, body+`}`, hdr)
		if resp.StatusCode != http.StatusOK || strings.Contains(out, `"error"`) {
			t.Fatalf("%s: %d %s", method, resp.StatusCode, out)
		}
		return out
	}
	call(b, 2, "color/watch", "") // B adopts the session and watches it
	call(a, 3, "color/set", `{"hue":"blue"}`)
	call(a, 9, "color/invalid", "")
	if got := call(a, 4, "color/get", ""); !strings.Contains(got, `"color":{"hue":"blue"}`) {
		t.Errorf("A: %s", got)
	}
	select {
	case got := <-watched:
		if got != `color={"hue":"blue"}` {
			t.Errorf("B's watcher got %s", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("B's watcher was not told of the new color")
	}
	if got := call(b, 5, "color/get", ""); !strings.Contains(got, `"color":{"hue":"blue"}`) {
		t.Errorf("B: %s", got)
	}
	if got := call(third, 6, "color/get", ""); !strings.Contains(got, `"color":{"hue":"blue"}`) {
		t.Errorf("C (adopting later): %s", got)
	}
	rec, err := c.sessions.Get(testCtx(t), sid)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(rec.State["color"]); got != `{"hue":"blue"}` {
		t.Errorf("the record's state: %q", got)
	}
	// A watcher of C, watching after the color was set, gets it at once.
	call(third, 7, "color/watch", "")
	select {
	case got := <-watched:
		if got != `color={"hue":"blue"}` {
			t.Errorf("C's watcher got %s", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("C's watcher was not given the color known")
	}
	select {
	case got := <-watched:
		t.Errorf("a watcher was called once more: %s", got)
	default:
	}
	// Once the record is gone (the session ended everywhere), SetState
	// fails (with an error matching store.ErrSessionUnknown).
	if err := c.sessions.Delete(testCtx(t), sid); err != nil {
		t.Fatal(err)
	}
	resp, out := rawPost(t, a.url, `{"jsonrpc":"2.0","id":8,"method":"color/set","params":{"hue":"red"}}`, hdr)
	if !strings.Contains(out, "the session's record is gone") {
		t.Errorf("color/set after the record is gone: %d %s", resp.StatusCode, out)
	}
}

// TestSharedOnlyForSharedSessions: Shared reports false for a Conn that is
// not a shared session, so that the server keeps the state itself.
func TestSharedOnlyForSharedSessions(t *testing.T) {
	a, b := transport.NewPipe()
	defer a.Close()
	defer b.Close()
	if sh, ok := transport.Shared(a); ok || sh != nil {
		t.Errorf("Shared(a memory Conn) = %v, %v", sh, ok)
	}
}

// TestTransportKeepsNoSessionState: package transport does not name the
// MCP methods whose state lives with the session (the server side records
// it through Shared): no logging/setLevel, no resources/subscribe or
// unsubscribe, in its code (comments aside), and it does not read or write
// the session store's subscriptions (MemorySessionStore implements them,
// as any store does, but nothing in the transport calls them).
func TestTransportKeepsNoSessionState(t *testing.T) {
	banned := map[string]string{
		"MethodLoggingSetLevel":        protocol.MethodLoggingSetLevel,
		"MethodResourcesSubscribe":     protocol.MethodResourcesSubscribe,
		"MethodResourcesUnsubscribe":   protocol.MethodResourcesUnsubscribe,
		"SetLevelParams":               "",
		"SubscribeParams":              "",
		"NotificationResourcesUpdated": protocol.NotificationResourcesUpdated,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		// The code without its comments.
		code := src
		for _, cg := range f.Comments {
			for i := fset.Position(cg.Pos()).Offset; i < fset.Position(cg.End()).Offset; i++ {
				code[i] = ' '
			}
		}
		// Nor does it keep the session store's index of subscriptions.
		for _, call := range []string{"store.Subscribe(", "store.Unsubscribe(", "store.Subscribers("} {
			if strings.Contains(string(code), call) {
				t.Errorf("%s calls %s..): the transport keeps no resource subscriptions", name, call)
			}
		}
		for ident, method := range banned {
			if strings.Contains(string(code), "protocol."+ident) {
				t.Errorf("%s uses protocol.%s: the transport keeps no state of that method", name, ident)
			}
			if method != "" && strings.Contains(string(code), strconv.Quote(method)) {
				t.Errorf("%s names %q: the transport keeps no state of that method", name, method)
			}
		}
	}
}
