package fastmcp_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// TestListChangedOncePerBurst: registering many components in a row tells
// a client once per list, not once per component, on both eras; the
// registries change at once.
func TestListChangedOncePerBurst(t *testing.T) {
	t.Parallel()
	const n = 50
	for _, version := range []string{protocol.Version20251125, protocol.Version20260728} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			s := newServer()
			s.Tool("first", func() string { return "" })
			s.Prompt("first", func() string { return "" })
			s.Resource("test://first", func() string { return "" })
			var mu sync.Mutex
			got := map[string]int{}
			c := connect(t, s, client.WithProtocolVersion(version), client.WithListChangedHandler(func(m string) {
				mu.Lock()
				got[m]++
				mu.Unlock()
			}))
			for i := range n {
				s.Tool(fmt.Sprintf("t%d", i), func() string { return "" })
				s.Prompt(fmt.Sprintf("p%d", i), func() string { return "" })
				s.Resource(fmt.Sprintf("test://r%d", i), func() string { return "" })
			}
			res, err := c.ListTools(ctxT(t), "")
			if err != nil || len(res.Tools) != n+1 {
				t.Fatalf("tools/list right after registering: %d tools, %v", len(res.Tools), err)
			}
			methods := []string{protocol.NotificationToolsListChanged, protocol.NotificationPromptsListChanged, protocol.NotificationResourcesListChanged}
			deadline := time.Now().Add(10 * time.Second)
			for {
				mu.Lock()
				all := got[methods[0]] > 0 && got[methods[1]] > 0 && got[methods[2]] > 0
				mu.Unlock()
				if all || time.Now().After(deadline) {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			time.Sleep(100 * time.Millisecond) // time for any notification still on its way
			mu.Lock()
			defer mu.Unlock()
			for _, m := range methods {
				// One per burst; a loaded machine may split the loop into a
				// few bursts, never into n.
				if got[m] < 1 || got[m] > n/5 {
					t.Errorf("%s sent %d times for %d registrations, want once per burst", m, got[m], n)
				}
			}
		})
	}
}
