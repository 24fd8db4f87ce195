package fastmcp_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// TestHTTPHandlerShutdownEndsOnlyItsListens: a server mounted on two HTTP
// handlers (two listeners, or a handler replaced by a new one) shuts one
// down; the listen streams of the other go on, and new ones open there
// normally, instead of ending at once with their final result.
func TestHTTPHandlerShutdownEndsOnlyItsListens(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Tool("t", func() string { return "" }) // tools, and so tools/list_changed
	h1, h2 := s.HTTPHandler(), s.HTTPHandler()
	ts1, ts2 := httptest.NewServer(h1), httptest.NewServer(h2)
	t.Cleanup(func() { ts1.Close(); ts2.Close() })

	before := openListen(t, ts2.URL)
	gone := openListen(t, ts1.URL)
	if err := h1.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	gone.checkFinalResult(t)
	after := openListen(t, ts2.URL)

	// A change reaches both listens of the handler still serving: the
	// first message after the acknowledgment is the notification, not a
	// final result.
	s.NotifyToolsChanged()
	for name, ls := range map[string]*listenStream{"open before": before, "opened after": after} {
		if !ls.next(t) {
			t.Fatalf("listen %s the other handler's shutdown: stream ended", name)
		}
		if n, ok := ls.msgs[len(ls.msgs)-1].(*protocol.Request); !ok || n.Method != protocol.NotificationToolsListChanged {
			t.Errorf("listen %s the other handler's shutdown: got %T, want %s", name, ls.msgs[len(ls.msgs)-1], protocol.NotificationToolsListChanged)
		}
	}
	if err := h2.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
}
