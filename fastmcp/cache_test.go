package fastmcp_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

func TestCacheHints(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.CacheHint(5*time.Minute, protocol.CacheScopePublic))
	s.Tool("t", func() string { return "" })
	s.Resource("x://shared", func() string { return "s" })
	s.Resource("x://mine", func() string { return "m" }, fastmcp.CacheHint(time.Second, protocol.CacheScopePrivate))
	s.Resource("x://items/{id}", func(in struct {
		ID string `json:"id"`
	}) string {
		return in.ID
	}, fastmcp.CacheHint(2*time.Second, protocol.CacheScopePublic))
	type hints struct {
		TTLMs      *int64 `json:"ttlMs"`
		CacheScope string `json:"cacheScope"`
	}
	modern := connect(t, s, client.WithProtocolVersion(protocol.Version20260728))
	for _, tc := range []struct {
		method string
		params any
		ttl    int64
		scope  string
	}{
		{"tools/list", nil, 300000, "public"},
		{"resources/list", nil, 300000, "public"},
		{"server/discover", nil, 300000, "public"},
		{"resources/read", map[string]string{"uri": "x://shared"}, 300000, "public"},
		{"resources/read", map[string]string{"uri": "x://mine"}, 1000, "private"},
		{"resources/read", map[string]string{"uri": "x://items/7"}, 2000, "public"},
	} {
		var h hints
		if err := modern.Call(ctxT(t), tc.method, tc.params, &h); err != nil {
			t.Fatalf("%s: %v", tc.method, err)
		}
		if h.TTLMs == nil || *h.TTLMs != tc.ttl || h.CacheScope != tc.scope {
			t.Errorf("%s %v: ttlMs %v cacheScope %q, want %d %q", tc.method, tc.params, h.TTLMs, h.CacheScope, tc.ttl, tc.scope)
		}
	}
	// Legacy results carry no hints.
	old := connect(t, s, legacy)
	var raw json.RawMessage
	if err := old.Call(ctxT(t), "resources/read", map[string]string{"uri": "x://mine"}, &raw); err != nil {
		t.Fatal(err)
	}
	var h hints
	if protocol.Unmarshal(raw, &h); h.TTLMs != nil || h.CacheScope != "" {
		t.Errorf("legacy read carries hints: %s", raw)
	}
}
