package fastmcp

import (
	"strconv"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// cacheHint is a ttlMs/cacheScope pair (protocol 2026-07-28, SEP-2549).
type cacheHint struct {
	ttl   time.Duration
	scope protocol.CacheScope
}

// A CacheOption sets cache hints server-wide (as an Option) or for one
// resource (as a ResourceOption).
type CacheOption interface {
	Option
	ResourceOption
}

type cacheOption cacheHint

func (o cacheOption) applyServer(c *serverConfig) { h := cacheHint(o); c.cache = &h }
func (o cacheOption) applyResource(c *resourceConfig) {
	h := cacheHint(o)
	c.cache = &h
}

// CacheHint sets the cache hints that protocol 2026-07-28 results carry:
// how long a client may reuse a result (ttlMs) and who may cache it
// (cacheScope: protocol.CacheScopePublic for results without user-specific
// data, else protocol.CacheScopePrivate).
//
// Given to New it applies to server/discover, every list (tools, prompts,
// resources, templates) and every resources/read; given to Resource it
// overrides that for reads of the resource (or of the template's
// resources). Default: 0 (immediately stale: clients re-fetch) and private,
// always safe. Clients still learn about changes from list_changed and
// resources/updated notifications, so a long TTL with notifications is a
// good combination.
func CacheHint(ttl time.Duration, scope protocol.CacheScope) CacheOption {
	return cacheOption{ttl: ttl, scope: scope}
}

// applyCacheHint sets the hint on a read result of a modern request.
func applyCacheHint(res *protocol.ReadResourceResult, h *cacheHint) {
	if h == nil {
		return
	}
	ms := max(h.ttl.Milliseconds(), 0)
	res.TTLMs = &ms
	scope := h.scope
	if scope == "" {
		scope = protocol.CacheScopePrivate
	}
	res.CacheScope = scope
}

// cacheHintFor returns the hint of the resource (or first matching
// template) for uri, or nil when it has none of its own.
func (s *Server) cacheHintFor(uri string) *cacheHint {
	if r, ok := s.resources.static.get(uri); ok {
		return r.cache
	}
	for _, t := range s.resources.orderedTemplates() {
		if t.cache == nil {
			continue
		}
		if _, ok := t.tmpl.Match(uri); ok {
			return t.cache
		}
	}
	return nil
}

func cacheTTL(h *cacheHint) time.Duration {
	if h == nil {
		return 0
	}
	return h.ttl
}

func cacheScope(h *cacheHint) protocol.CacheScope {
	if h == nil {
		return ""
	}
	return h.scope
}

// cacheAttrs is the ttlMs and cacheScope members (`"ttlMs":N,"cacheScope":"..."`)
// of the server's CacheHint, else 0 and private.
func (s *Server) cacheAttrs() string {
	scope := cacheScope(s.cfg.cache)
	if scope == "" {
		scope = protocol.CacheScopePrivate
	}
	return `"ttlMs":` + strconv.FormatInt(max(cacheTTL(s.cfg.cache).Milliseconds(), 0), 10) + `,"cacheScope":"` + string(scope) + `"`
}
