package fastmcp

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
)

// TestRequestStateOptions: RequestStateTTL sets how long a sealed state
// stays valid (a state opened after it is refused) and
// RequestStatePrincipal how the server names a request's client.
func TestRequestStateOptions(t *testing.T) {
	s := New("x", "1", RequestStateTTL(time.Minute), RequestStatePrincipal(func(req *session.Request) string {
		return string(req.Meta.Other["com.example/user"])
	}))
	if s.sealer.ttl != time.Minute {
		t.Fatalf("ttl = %v, want 1m", s.sealer.ttl)
	}
	t0 := time.Now()
	s.sealer.now = func() time.Time { return t0 }
	state, err := s.sealer.seal(&sealedState{Binding: "b", Principal: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.sealer.open(state, "b", "p"); err != nil {
		t.Fatalf("open within the TTL: %v", err)
	}
	s.sealer.now = func() time.Time { return t0.Add(2 * time.Minute) }
	if _, err := s.sealer.open(state, "b", "p"); err == nil {
		t.Fatal("a state opened after its TTL was accepted")
	}
	req := &session.Request{Meta: protocol.RequestMeta{Other: map[string]json.RawMessage{"com.example/user": json.RawMessage(`"ada"`)}}}
	if got := s.principal(req); got != `"ada"` {
		t.Fatalf("principal = %q, want the function's", got)
	}
}
