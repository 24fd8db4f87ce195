package fastmcp

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/store"
)

// TestRequestStateOptions: RequestStateTTL sets how long a sealed state
// stays valid (TestSealerTTL checks that a state opened after it is
// refused) and RequestStatePrincipal how the server names a request's
// client.
func TestRequestStateOptions(t *testing.T) {
	s := New("x", "1", RequestStateTTL(time.Minute), RequestStatePrincipal(func(req *session.Request) string {
		return string(req.Meta.Other["com.example/user"])
	}))
	if got := s.sealer.TTL(); got != time.Minute {
		t.Fatalf("ttl = %v, want 1m", got)
	}
	req := &session.Request{Meta: protocol.RequestMeta{Other: map[string]json.RawMessage{"com.example/user": json.RawMessage(`"ada"`)}}}
	if got := s.principal(req); got != `"ada"` {
		t.Fatalf("principal = %q, want the function's", got)
	}
}

// TestRequestStateOptionsOrder: the later of RequestStateKeys and
// RequestStateSecret wins.
func TestRequestStateOptionsOrder(t *testing.T) {
	ring := store.StaticKeys(store.Key{ID: "a", Secret: bytes.Repeat([]byte{1}, 32)})
	if s := New("x", "1", RequestStateSecret([]byte("0123456789abcdef")), RequestStateKeys(ring)); s.sealer.Ring() != ring {
		t.Error("RequestStateKeys after RequestStateSecret: not the ring")
	}
	if s := New("x", "1", RequestStateKeys(ring), RequestStateSecret([]byte("0123456789abcdef"))); s.sealer.Ring() == ring {
		t.Error("RequestStateSecret after RequestStateKeys: still the ring")
	}
}
