package replicaserver_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/store/redisstore/internal/replicaserver"
	"github.com/fastmcp-go/fastmcp/transport"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// deadURL returns the URL of a loopback port nothing listens on.
func deadURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + l.Addr().String() + "/mcp"
	l.Close()
	return u
}

// TestProxy: requests go round-robin to the replicas that are up, a
// replica that refuses connections is marked down and its requests go to
// the next, a sticky session stays on its replica, and the streams being
// answered are counted.
func TestProxy(t *testing.T) {
	var backends []*httptest.Server
	for i := range 2 {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get(transport.HeaderSessionID) == "" {
				w.Header().Set(transport.HeaderSessionID, fmt.Sprintf("s%d", i))
			}
			fmt.Fprintf(w, "r%d %s", i, r.URL.Path)
		}))
		defer ts.Close()
		backends = append(backends, ts)
	}
	p, err := replicaserver.NewProxy(backends[0].URL+"/mcp", deadURL(t), backends[1].URL+"/mcp")
	if err != nil {
		t.Fatal(err)
	}
	p.Sticky = true
	front := httptest.NewServer(p)
	defer front.Close()
	get := func(session string) string {
		t.Helper()
		req, _ := http.NewRequest("POST", front.URL+"/anything", nil)
		if session != "" {
			req.Header.Set(transport.HeaderSessionID, session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("HTTP %d: %s", resp.StatusCode, b)
		}
		return string(b)
	}
	seen := map[string]int{}
	for range 6 {
		seen[get("")]++
	}
	if seen["r0 /mcp"] != 3 || seen["r1 /mcp"] != 3 {
		t.Errorf("answers %v, want 3 from each live replica, on its /mcp", seen)
	}
	if down := p.Down(); down[0] || !down[1] || down[2] {
		t.Errorf("down %v, want the second only", down)
	}
	for range 3 {
		if got := get("s1"); got != "r1 /mcp" {
			t.Errorf("session s1 answered by %q, want r1", got)
		}
	}
	if l, g := p.Streams(); l != 0 || g != 0 {
		t.Errorf("streams %d, %d after every answer ended", l, g)
	}
	if err := p.WaitStreams(context.Background(), func(l, g int) bool { return l == 0 && g == 0 }); err != nil {
		t.Error(err)
	}
}
